package prefetch

import (
	"testing"
	"unsafe"
)

// A hint reads nothing the caller sees and never faults: nil, the start
// and a line in the middle of a large array. The memory is left as it
// was.
func TestLineChangesNothing(t *testing.T) {
	data := make([]byte, 1<<16)
	for i := range data {
		data[i] = byte(i * 7)
	}
	Line(nil)
	Line(unsafe.Pointer(unsafe.SliceData(data)))
	Line(unsafe.Pointer(&data[len(data)/2]))
	for i := range data {
		if data[i] != byte(i*7) {
			t.Fatalf("byte %d is %d after the hints, want %d", i, data[i], byte(i*7))
		}
	}
}

// BenchmarkLine is the cost of one hint on a line already in the cache:
// what each robot of a tick pays for it when it does not help.
func BenchmarkLine(b *testing.B) {
	x := new([64]byte)
	for b.Loop() {
		Line(unsafe.Pointer(x))
	}
}
