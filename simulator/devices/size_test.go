package devices

import (
	"testing"
	"unsafe"
)

// A million e-pucks carry a million proximity sensors: what the clones of
// one sensor share stays out of each (proximityConf).
func TestProximitySize(t *testing.T) {
	if n := unsafe.Sizeof(proximity{}); n > 48 {
		t.Errorf("a proximity sensor takes %d bytes, more than 48; share what its clones have in common", n)
	}
}
