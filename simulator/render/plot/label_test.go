package plot

import "testing"

// Tick values that are sums of steps read as the step's multiples.
func TestLabelRoundsAwayFloatNoise(t *testing.T) {
	for v, want := range map[float64]string{0.30000000000000004: "0.3", 0.1 + 0.2: "0.3", 2.5: "2.5", 1234.5: "1234.5", 0.07: "0.07"} {
		if got := label(v); got != want {
			t.Errorf("label(%v) = %q, want %q", v, got, want)
		}
	}
	if got := label(ticks(0, 0.42, 8)[3]); got != "0.3" && got != "0.15" {
		t.Errorf("label of the 4th tick of 0-0.42: %q", got)
	}
}
