// Package plot draws line charts into images, in pure Go: the standard
// plots of a run's metrics (argos plot RUN_DIR). A per-tick metric is a
// line over simulated time; a per-robot metric is the mean across robots
// with the band of one standard deviation around it and the band from the
// lowest to the highest robot.
package plot

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sort"
	"strconv"

	"github.com/argosgo/argos/simulator/record"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Line is a series of points drawn as a polyline.
type Line struct {
	Label string
	X, Y  []float64
	Color color.RGBA
	Width float64 // pixels; 0 is 2
}

// Band is a shaded area between Lo and Hi.
type Band struct {
	Label     string
	X, Lo, Hi []float64
	Color     color.RGBA // not premultiplied; its alpha is the opacity
}

// Chart is one plot.
type Chart struct {
	Title, XLabel, YLabel string
	Lines                 []Line
	Bands                 []Band
}

var (
	ink   = color.RGBA{0x22, 0x22, 0x22, 0xff}
	grid  = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
	blue  = color.RGBA{0x1f, 0x77, 0xb4, 0xff}
	faint = color.RGBA{0x1f, 0x77, 0xb4, 0x30}
	light = color.RGBA{0x1f, 0x77, 0xb4, 0x60}
)

// Render draws the chart into a new w x h image.
func (c *Chart) Render(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	face := basicfont.Face7x13
	// data range
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	see := func(xs, ys []float64) {
		for i, x := range xs {
			y := ys[i]
			if math.IsNaN(y) || math.IsInf(y, 0) || math.IsNaN(x) {
				continue
			}
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
	}
	for _, l := range c.Lines {
		see(l.X, l.Y)
	}
	for _, b := range c.Bands {
		see(b.X, b.Lo)
		see(b.X, b.Hi)
	}
	if xmin > xmax {
		xmin, xmax, ymin, ymax = 0, 1, 0, 1
	}
	if xmax == xmin {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	if ymax == ymin {
		pad := math.Max(math.Abs(ymin)*0.1, 0.5)
		ymin, ymax = ymin-pad, ymax+pad
	}
	xt := ticks(xmin, xmax, 8)
	yt := ticks(ymin, ymax, 6)
	ymin, ymax = math.Min(ymin, yt[0]), math.Max(ymax, yt[len(yt)-1])
	// plot area
	left := 14 + 7*maxLen(yt) + 8
	right, top, bottom := w-16, 34, h-44
	if len(c.Lines)+len(c.Bands) > 1 {
		top = 50
	}
	pw, ph := float64(right-left), float64(bottom-top)
	px := func(x float64) float32 { return float32(float64(left) + (x-xmin)/(xmax-xmin)*pw) }
	py := func(y float64) float32 { return float32(float64(bottom) - (y-ymin)/(ymax-ymin)*ph) }
	text := func(s string, x, y int, c color.RGBA) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	width := func(s string) int { return font.MeasureString(face, s).Ceil() }
	// grid and tick labels
	for _, t := range xt {
		if t < xmin-1e-12 || t > xmax+1e-12 {
			continue
		}
		x := int(px(t))
		fill(img, image.Rect(x, top, x+1, bottom), grid)
		s := label(t)
		text(s, x-width(s)/2, bottom+16, ink)
	}
	for _, t := range yt {
		y := int(py(t))
		fill(img, image.Rect(left, y, right, y+1), grid)
		s := label(t)
		text(s, left-6-width(s), y+4, ink)
	}
	fill(img, image.Rect(left, bottom, right, bottom+1), ink)
	fill(img, image.Rect(left, top, left+1, bottom), ink)
	// bands, then lines
	var r vector.Rasterizer
	for _, b := range c.Bands {
		r.Reset(w, h)
		r.DrawOp = draw.Over
		started := false
		for i, x := range b.X {
			if !finite(b.Hi[i]) {
				continue
			}
			if !started {
				r.MoveTo(px(x), py(b.Hi[i]))
				started = true
			} else {
				r.LineTo(px(x), py(b.Hi[i]))
			}
		}
		for i := len(b.X) - 1; i >= 0; i-- {
			if finite(b.Lo[i]) {
				r.LineTo(px(b.X[i]), py(b.Lo[i]))
			}
		}
		if started {
			r.ClosePath()
			r.Draw(img, img.Bounds(), image.NewUniform(premul(b.Color)), image.Point{})
		}
	}
	for _, l := range c.Lines {
		lw := l.Width
		if lw == 0 {
			lw = 2
		}
		stroke(&r, img, l, px, py, float32(lw))
	}
	// title, axis labels, legend
	text(c.Title, left, 20, ink)
	if c.XLabel != "" {
		text(c.XLabel, left+int(pw)/2-width(c.XLabel)/2, h-10, ink)
	}
	if c.YLabel != "" {
		text(c.YLabel, right-width(c.YLabel), 20, color.RGBA{0x66, 0x66, 0x66, 0xff})
	}
	if len(c.Lines)+len(c.Bands) > 1 {
		x := left
		for _, l := range c.Lines {
			fill(img, image.Rect(x, 36, x+18, 39), l.Color)
			text(l.Label, x+22, 42, ink)
			x += 40 + width(l.Label)
		}
		for _, b := range c.Bands {
			fill(img, image.Rect(x, 32, x+18, 43), premul(b.Color))
			text(b.Label, x+22, 42, ink)
			x += 40 + width(b.Label)
		}
	}
	return img
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func premul(c color.RGBA) color.RGBA {
	a := uint16(c.A)
	return color.RGBA{uint8(uint16(c.R) * a / 255), uint8(uint16(c.G) * a / 255), uint8(uint16(c.B) * a / 255), c.A}
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Over)
}

// stroke draws a polyline as a chain of thin quads.
func stroke(r *vector.Rasterizer, img *image.RGBA, l Line, px, py func(float64) float32, lw float32) {
	b := img.Bounds()
	src := image.NewUniform(l.Color)
	var x0, y0 float32
	have := false
	for i, x := range l.X {
		if !finite(l.Y[i]) {
			have = false
			continue
		}
		x1, y1 := px(x), py(l.Y[i])
		if have {
			dx, dy := x1-x0, y1-y0
			n := float32(math.Hypot(float64(dx), float64(dy)))
			if n > 0 {
				// rasterize only the segment's bounding box
				nx, ny := -dy/n*lw/2, dx/n*lw/2
				box := image.Rect(int(min(x0, x1)-lw)-1, int(min(y0, y1)-lw)-1, int(max(x0, x1)+lw)+2, int(max(y0, y1)+lw)+2)
				clip := box.Intersect(b)
				if !clip.Empty() {
					ox, oy := float32(box.Min.X), float32(box.Min.Y)
					r.Reset(box.Dx(), box.Dy())
					r.DrawOp = draw.Over
					r.MoveTo(x0+nx-ox, y0+ny-oy)
					r.LineTo(x1+nx-ox, y1+ny-oy)
					r.LineTo(x1-nx-ox, y1-ny-oy)
					r.LineTo(x0-nx-ox, y0-ny-oy)
					r.ClosePath()
					r.Draw(img, clip, src, clip.Min.Sub(box.Min))
				}
			}
		}
		x0, y0, have = x1, y1, true
	}
}

// ticks returns about n round values (1, 2, 5 times a power of ten)
// covering [lo, hi].
func ticks(lo, hi float64, n int) []float64 {
	span := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(span/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for t := math.Floor(lo/step) * step; t <= hi+step*1e-9; t += step {
		out = append(out, math.Round(t/step)*step)
	}
	if out[len(out)-1] < hi {
		out = append(out, out[len(out)-1]+step)
	}
	return out
}

func label(v float64) string {
	if v == 0 {
		return "0"
	}
	if a := math.Abs(v); a >= 1e5 || a < 1e-3 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	// 12 significant digits: 3 steps of 0.1 read 0.3, not 0.30000000000000004
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func maxLen(vs []float64) int {
	n := 0
	for _, v := range vs {
		n = max(n, len(label(v)))
	}
	return n
}

// Metrics turns recorded rows into the standard charts, one per metric in
// order of first appearance: per-tick metrics as a line over time,
// per-robot metrics as the mean across robots with the bands of one
// standard deviation and of the lowest to the highest robot. A name used
// both ways gives two charts.
func Metrics(rows []record.Row) []Chart {
	type key struct {
		name     string
		perRobot bool
	}
	type acc struct {
		t                 float64
		n                 int
		sum, sq, min, max float64
	}
	var order []key
	data := map[key]map[int64]*acc{}
	robots := map[key]map[string]bool{}
	for _, r := range rows {
		k := key{r.Metric, r.Robot != nil}
		m, ok := data[k]
		if !ok {
			m = map[int64]*acc{}
			data[k] = m
			robots[k] = map[string]bool{}
			order = append(order, k)
		}
		if r.Robot != nil {
			robots[k][*r.Robot] = true
		}
		a, ok := m[r.Tick]
		if !ok {
			a = &acc{t: r.Time, min: math.Inf(1), max: math.Inf(-1)}
			m[r.Tick] = a
		}
		if !finite(r.Value) {
			continue
		}
		a.n++
		a.sum += r.Value
		a.sq += r.Value * r.Value
		a.min, a.max = math.Min(a.min, r.Value), math.Max(a.max, r.Value)
	}
	var charts []Chart
	for _, k := range order {
		m := data[k]
		tk := make([]int64, 0, len(m))
		for t := range m {
			tk = append(tk, t)
		}
		sort.Slice(tk, func(i, j int) bool { return tk[i] < tk[j] })
		n := len(tk)
		x, mean, lo, hi, sdlo, sdhi := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i, t := range tk {
			a := m[t]
			x[i] = a.t
			if a.n == 0 {
				mean[i], lo[i], hi[i], sdlo[i], sdhi[i] = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
				continue
			}
			mu := a.sum / float64(a.n)
			sd := math.Sqrt(math.Max(0, a.sq/float64(a.n)-mu*mu))
			mean[i], lo[i], hi[i], sdlo[i], sdhi[i] = mu, a.min, a.max, mu-sd, mu+sd
		}
		c := Chart{Title: k.name, XLabel: "simulated time (s)"}
		if k.perRobot {
			c.Title = k.name + " across " + strconv.Itoa(len(robots[k])) + " robots"
			c.Bands = []Band{{Label: "min-max", X: x, Lo: lo, Hi: hi, Color: faint}, {Label: "mean +- sd", X: x, Lo: sdlo, Hi: sdhi, Color: light}}
			c.Lines = []Line{{Label: "mean", X: x, Y: mean, Color: blue}}
		} else {
			c.Lines = []Line{{Label: k.name, X: x, Y: mean, Color: blue}}
		}
		charts = append(charts, c)
	}
	return charts
}
