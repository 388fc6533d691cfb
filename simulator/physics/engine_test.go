package physics_test

import (
	"testing"

	"github.com/argosgo/argos/simulator/physics"
)

func TestSerial(t *testing.T) {
	var got []int
	physics.Serial{}.Run(5, func(i int) { got = append(got, i) })
	if len(got) != 5 {
		t.Fatalf("ran %v, want jobs 0 to 4", got)
	}
	for i, g := range got {
		if g != i {
			t.Fatalf("ran %v, want jobs 0 to 4 in order", got)
		}
	}
	physics.Serial{}.Run(0, func(int) { t.Error("job run for n = 0") })
	// Jobs may call Run again (engines do).
	n := 0
	physics.Serial{}.Run(3, func(int) { physics.Serial{}.Run(2, func(int) { n++ }) })
	if n != 6 {
		t.Errorf("nested Run ran %d jobs, want 6", n)
	}
}
