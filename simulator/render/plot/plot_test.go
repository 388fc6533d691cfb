package plot_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/simulator/render/plot"
)

func rows() []record.Row {
	a, b := "a", "b"
	var out []record.Row
	for tick := int64(0); tick <= 10; tick++ {
		t := float64(tick) / 10
		out = append(out,
			record.Row{Tick: tick, Time: t, Metric: "count", Value: float64(tick * tick)},
			record.Row{Tick: tick, Time: t, Robot: &a, Metric: "speed", Value: 1},
			record.Row{Tick: tick, Time: t, Robot: &b, Metric: "speed", Value: 3},
		)
	}
	return out
}

func TestMetrics(t *testing.T) {
	charts := plot.Metrics(rows())
	if len(charts) != 2 {
		t.Fatalf("%d charts", len(charts))
	}
	count, speed := charts[0], charts[1]
	if count.Title != "count" || len(count.Lines) != 1 || len(count.Bands) != 0 || count.Lines[0].Y[10] != 100 {
		t.Errorf("per-tick chart: %+v", count)
	}
	if speed.Title != "speed across 2 robots" || len(speed.Bands) != 2 {
		t.Fatalf("per-robot chart: %+v", speed)
	}
	// mean 2, sd 1, min 1, max 3 at every tick
	for i := range speed.Lines[0].X {
		if speed.Lines[0].Y[i] != 2 || speed.Bands[0].Lo[i] != 1 || speed.Bands[0].Hi[i] != 3 ||
			math.Abs(speed.Bands[1].Lo[i]-1) > 1e-12 || math.Abs(speed.Bands[1].Hi[i]-3) > 1e-12 {
			t.Fatalf("tick %d: mean %v, bands %v-%v, %v-%v", i, speed.Lines[0].Y[i], speed.Bands[0].Lo[i], speed.Bands[0].Hi[i], speed.Bands[1].Lo[i], speed.Bands[1].Hi[i])
		}
	}
}

// The line is drawn where its values are: the pixel at the middle of a
// constant line is the line's colour.
func TestRenderDrawsTheLine(t *testing.T) {
	c := plot.Metrics(rows())[1]
	img := c.Render(400, 300)
	// find the blue line in the middle column
	found := false
	for y := 0; y < 300; y++ {
		p := img.RGBAAt(200, y)
		if p.B > 150 && p.R < 80 && p.G < 150 {
			found = true
		}
	}
	if !found {
		t.Error("no line in the middle column")
	}
	// degenerate inputs do not panic
	(&plot.Chart{Title: "empty"}).Render(200, 150)
	nan := plot.Chart{Lines: []plot.Line{{X: []float64{0, 1}, Y: []float64{math.NaN(), math.Inf(1)}}}}
	nan.Render(200, 150)
}
