package plot

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"github.com/argosgo/argos/simulator/record"
)

var (
	bars    = color.RGBA{0x1f, 0x77, 0xb4, 0xb0}
	meanInk = color.RGBA{0xd6, 0x27, 0x28, 0xff}
)

// Histogram returns the chart of the distribution of values: one bar per
// distinct value when there are few of them (estimates that are counts
// over a number of rounds take few values), else 40 bins between the
// lowest and the highest value; and a vertical line at their mean. Bars
// are a band with a stepped outline.
func Histogram(title, xlabel string, values []float64) Chart {
	var vs []float64
	for _, v := range values {
		if finite(v) {
			vs = append(vs, v)
		}
	}
	c := Chart{Title: title, XLabel: xlabel, YLabel: "count"}
	if len(vs) == 0 {
		return c
	}
	sort.Float64s(vs)
	var sum float64
	for _, v := range vs {
		sum += v
	}
	mean := sum / float64(len(vs))
	// distinct values
	var distinct []float64
	var counts []float64
	for i, v := range vs {
		if i == 0 || v != vs[i-1] {
			distinct = append(distinct, v)
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
	}
	var lo, hi, cnt []float64
	if len(distinct) <= 60 {
		gap := math.Inf(1)
		for i := 1; i < len(distinct); i++ {
			gap = math.Min(gap, distinct[i]-distinct[i-1])
		}
		if math.IsInf(gap, 1) {
			gap = math.Max(math.Abs(distinct[0])*0.1, 1)
		}
		for i, v := range distinct {
			lo, hi, cnt = append(lo, v-0.4*gap), append(hi, v+0.4*gap), append(cnt, counts[i])
		}
	} else {
		const n = 40
		a, b := vs[0], vs[len(vs)-1]
		w := (b - a) / n
		cnt = make([]float64, n)
		for _, v := range vs {
			i := min(int((v-a)/w), n-1)
			cnt[i]++
		}
		for i := range n {
			lo, hi = append(lo, a+float64(i)*w), append(hi, a+float64(i+1)*w)
		}
	}
	band := Band{Label: strconv.Itoa(len(vs)) + " values", Color: bars}
	top := 0.0
	for i := range cnt {
		band.X = append(band.X, lo[i], lo[i], hi[i], hi[i])
		band.Hi = append(band.Hi, 0, cnt[i], cnt[i], 0)
		band.Lo = append(band.Lo, 0, 0, 0, 0)
		top = math.Max(top, cnt[i])
	}
	c.Bands = []Band{band}
	c.Lines = []Line{{Label: "mean " + strconv.FormatFloat(mean, 'g', 4, 64), X: []float64{mean, mean}, Y: []float64{0, top}, Color: meanInk}}
	return c
}

// Histograms returns the histogram of every per-robot metric recorded at
// one tick only (a final value per robot or agent, such as the density
// estimates of a grid world), in order of first appearance: a line over
// time says nothing about such a metric, its distribution does.
func Histograms(rows []record.Row) []Chart {
	type acc struct {
		tick   int64
		ticks  int
		values []float64
	}
	var order []string
	m := map[string]*acc{}
	for _, r := range rows {
		if r.Robot == nil {
			continue
		}
		a := m[r.Metric]
		if a == nil {
			a = &acc{tick: r.Tick, ticks: 1}
			m[r.Metric] = a
			order = append(order, r.Metric)
		}
		if r.Tick != a.tick {
			a.tick = r.Tick
			a.ticks++
		}
		a.values = append(a.values, r.Value)
	}
	var charts []Chart
	for _, name := range order {
		a := m[name]
		if a.ticks != 1 {
			continue
		}
		charts = append(charts, Histogram("histogram of "+name+" over "+strconv.Itoa(len(a.values))+" robots (tick "+strconv.FormatInt(a.tick, 10)+")", name, a.values))
	}
	return charts
}
