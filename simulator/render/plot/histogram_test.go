package plot_test

import (
	"testing"

	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/simulator/render/plot"
)

// A per-robot metric recorded once (a final estimate per agent) gets a
// histogram; one recorded every tick does not.
func TestHistograms(t *testing.T) {
	rs := rows()
	ids := []string{"0", "1", "2", "3", "4"}
	for i, v := range []float64{0.1, 0.1, 0.12, 0.08, 0.1} {
		rs = append(rs, record.Row{Tick: 50, Time: 50, Robot: &ids[i], Metric: "density_estimate", Value: v})
	}
	charts := plot.Histograms(rs)
	if len(charts) != 1 {
		t.Fatalf("%d histograms, want 1 (speed is recorded every tick)", len(charts))
	}
	c := charts[0]
	if c.Title != "histogram of density_estimate over 5 robots (tick 50)" {
		t.Errorf("title %q", c.Title)
	}
	// three distinct values: three bars, of 1, 3 and 1
	b := c.Bands[0]
	if len(b.X) != 12 || b.Hi[1] != 1 || b.Hi[5] != 3 || b.Hi[9] != 1 {
		t.Errorf("bars %v %v", b.X, b.Hi)
	}
	if m := c.Lines[0].X[0]; m < 0.09999 || m > 0.10001 {
		t.Errorf("mean line at %g, want 0.1", m)
	}
	img := c.Render(400, 300)
	// the middle bar is drawn: some pixel of the bar colour in the middle column
	found := false
	for y := 0; y < 300; y++ {
		if p := img.RGBAAt(200, y); p.B > 100 && p.R < 150 && p.B > p.R+40 {
			found = true
		}
	}
	if !found {
		t.Error("no bar in the middle of the histogram")
	}
}

func TestHistogramBinsManyValues(t *testing.T) {
	var vs []float64
	for i := range 1000 {
		vs = append(vs, float64(i)/7)
	}
	c := plot.Histogram("h", "x", vs)
	var total float64
	for i := 1; i < len(c.Bands[0].Hi); i += 4 {
		total += c.Bands[0].Hi[i]
	}
	if len(c.Bands[0].X) != 160 || total != 1000 {
		t.Errorf("%d bar points, %g values in the bars; want 40 bins holding all 1000", len(c.Bands[0].X), total)
	}
	empty := plot.Histogram("empty", "x", nil)
	empty.Render(200, 150)
}
