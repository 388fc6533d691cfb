package aseba

import (
	"math"
	"testing"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
)

func TestRawAndLEDWrite(t *testing.T) {
	v := boards.AsebaVar{Unit: 0.5, Size: 4}
	for x, want := range map[float64]int16{1.2: 2, -1.3: -3, 1e9: math.MaxInt16, -1e9: math.MinInt16, math.NaN(): 0} {
		if got := Raw(v, x); got != want {
			t.Errorf("Raw(%g) = %d, want %d", x, got, want)
		}
	}
	w := LEDWrite(v, []ci.Color{{R: 1, G: 2, B: 3}, {R: 4, G: 5, B: 6}})
	if len(w.Values) != 4 || w.Values[0] != 1 || w.Values[3] != 4 {
		t.Errorf("LEDWrite: %v, want the first 4 of 1 2 3 4 5 6", w.Values)
	}
}
