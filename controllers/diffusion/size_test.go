package diffusion

import (
	"testing"
	"unsafe"
)

// A million e-pucks carry a million controllers: with the ring's
// directions shared, a controller fits in 64 bytes.
func TestControllerSize(t *testing.T) {
	if n := unsafe.Sizeof(Controller{}); n > 64 {
		t.Errorf("a Controller takes %d bytes, more than 64; keep caches out of it (ring)", n)
	}
}
