package aseba

import (
	"fmt"
	"math"
	"sync"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
)

// Raw converts a value in device units to the raw units of v, rounded and
// clamped to int16 (NaN becomes 0).
func Raw(v boards.AsebaVar, x float64) int16 {
	if math.IsNaN(x) {
		return 0
	}
	return int16(math.Max(math.MinInt16, math.Min(math.MaxInt16, math.Round(x/v.Unit))))
}

// LEDWrite is the write of LED colours into v: R, G, B of each LED in
// turn, cut to the variable's size.
func LEDWrite(v boards.AsebaVar, colors []ci.Color) Write {
	vals := make([]int16, 0, v.Size)
	for _, c := range colors {
		vals = append(vals, int16(c.R), int16(c.G), int16(c.B))
	}
	return Write{Var: v, Values: vals[:min(len(vals), v.Size)]}
}

// Stop writes the stop commands ws and has verify read them back. mu is
// the driver's exchange lock: when Sense or Act holds it (a tick overran),
// the commands go out at once between that exchange's messages, unchecked,
// so that a stop never waits for a slow exchange. stopped, when not nil,
// is called under the write lock right before the stop is written, so
// that a Store checking it never writes after the stop.
func (l *Link) Stop(mu *sync.Mutex, ws []Write, stopped func(), verify func() error) error {
	mark := func() bool {
		if stopped != nil {
			stopped()
		}
		return false
	}
	if !mu.TryLock() {
		if err := l.send(ws, mark); err != nil {
			return fmt.Errorf("aseba: writing the stop during an exchange: %w", err)
		}
		return nil
	}
	defer mu.Unlock()
	if err := l.Store(ws, mark); err != nil {
		return err
	}
	return verify()
}
