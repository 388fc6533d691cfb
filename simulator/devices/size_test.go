package devices

import (
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
)

// A million e-pucks carry a million proximity sensors: what the clones of
// one sensor share stays out of each (proximityConf), and an e-puck's
// sensor with its readings (proximity8) keeps to the 176-byte size class
// (at 192, dynamics2d's e-pucks ran slower: see proximity8).
func TestProximitySize(t *testing.T) {
	if n := unsafe.Sizeof(proximity{}); n > 48 {
		t.Errorf("a proximity sensor takes %d bytes, more than 48; share what its clones have in common", n)
	}
	if n := unsafe.Sizeof(proximity8{}); n > 176 {
		t.Errorf("an e-puck's proximity sensor with its readings takes %d bytes, more than 176", n)
	}
}

// The clone of a sensor of up to 8 rays (an e-puck's) holds its readings
// in its own allocation, right after it, with their angles; a larger
// ring's clone has readings of its own elsewhere. Clones never share
// readings.
func TestProximityCloneKeepsItsReadings(t *testing.T) {
	for _, n := range []int{8, 24} {
		p := &proximity{}
		p.setReadings(make([]ci.ProximityReading, n))
		for i := range p.readings() {
			p.readings()[i].Angle = float64(i)
		}
		c := p.CloneFor(nil).(*proximity)
		d := p.CloneFor(nil).(*proximity)
		if len(c.readings()) != n {
			t.Fatalf("%d rays: the clone has %d readings", n, len(c.readings()))
		}
		for i, rd := range c.readings() {
			if rd.Angle != float64(i) || rd.Value != 0 {
				t.Fatalf("%d rays: clone's reading %d is %+v, want angle %d and value 0", n, i, rd, i)
			}
		}
		if &c.readings()[0] == &d.readings()[0] || &c.readings()[0] == &p.readings()[0] {
			t.Fatalf("%d rays: clones share readings", n)
		}
		at := uintptr(unsafe.Pointer(&c.readings()[0])) - uintptr(unsafe.Pointer(c))
		if inline := at == unsafe.Sizeof(proximity{}); inline != (n <= 8) {
			t.Errorf("%d rays: readings %d bytes after the sensor; want them right after it only for rings of up to 8", n, at)
		}
	}
}
