package frames

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// tints collects the robot colours the user functions chose.
func (r *Renderer) tints() {
	clear(r.tint)
	for _, it := range r.canvas.Items() {
		if it.Kind == simulator.ItemRobotColor {
			if r.tint == nil {
				r.tint = map[string]color.RGBA{}
			}
			r.tint[it.Robot] = rgba(it.Color, 255)
		}
	}
}

// overlay draws the user functions' items over the arena.
func (r *Renderer) overlay(img *image.RGBA) {
	px := 1 / r.scale // one pixel in metres
	for _, it := range r.canvas.Items() {
		col := rgba(it.Color, alpha(it.Color))
		switch it.Kind {
		case simulator.ItemPoint:
			r.circle(img, it.Points[0].XY(), math.Max(it.Size/2, 1)*px, col)
		case simulator.ItemLine:
			w := math.Max(it.Width, 1) * px
			for k := 1; k < len(it.Points); k++ {
				r.segment(img, it.Points[k-1].XY(), it.Points[k].XY(), w, col)
			}
		case simulator.ItemCircle:
			if it.Fill {
				r.circle(img, it.Points[0].XY(), it.Radius, col)
			} else {
				r.ring(img, it.Points[0].XY(), it.Radius, 2*px, col)
			}
		case simulator.ItemBox:
			c := it.Points[0].XY()
			cos, sin := math.Cos(it.Yaw), math.Sin(it.Yaw)
			var pts [4]ci.Vector2
			for k, sg := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
				lx, ly := sg[0]*it.Size3.X/2, sg[1]*it.Size3.Y/2
				pts[k] = ci.Vector2{X: c.X + lx*cos - ly*sin, Y: c.Y + lx*sin + ly*cos}
			}
			if it.Fill {
				r.poly(img, pts[:], col)
			} else {
				for k := range pts {
					r.segment(img, pts[k], pts[(k+1)%4], 2*px, col)
				}
			}
		case simulator.ItemText:
			x, y := r.px(it.Points[0].XY())
			r.text(img, int(x), int(y), it.Text, col)
		case simulator.ItemRobotText:
			h, ok := r.sim.Body(it.Robot)
			if !ok {
				continue
			}
			b := &r.sim.Space().Bodies[h]
			x, y := r.px(ci.Vector2{X: b.Pos.X, Y: b.Pos.Y + b.Radius})
			w := font.MeasureString(basicfont.Face7x13, it.Text).Ceil()
			r.text(img, int(x)-w/2, int(y)-4, it.Text, col)
		}
	}
}

// alpha is the opacity of a colour: opaque unless the colour says
// otherwise (ci.Color's zero alpha means opaque for user drawings).
func alpha(c ci.Color) uint8 {
	if c.A == 0 {
		return 255
	}
	return c.A
}

// segment fills the quad of a thick segment from a to b, w metres wide.
func (r *Renderer) segment(img *image.RGBA, a, b ci.Vector2, w float64, col color.RGBA) {
	d := b.Sub(a)
	l := math.Hypot(d.X, d.Y)
	if l == 0 {
		return
	}
	n := ci.Vector2{X: -d.Y / l * w / 2, Y: d.X / l * w / 2}
	r.poly(img, []ci.Vector2{a.Add(n), b.Add(n), b.Sub(n), a.Sub(n)}, col)
}

// ring draws the outline of a circle, w metres wide.
func (r *Renderer) ring(img *image.RGBA, c ci.Vector2, radius, w float64, col color.RGBA) {
	n := int(math.Min(96, math.Max(12, radius*r.scale*1.5)))
	prev := c.Add(ci.FromPolar(radius, 0))
	for i := 1; i <= n; i++ {
		p := c.Add(ci.FromPolar(radius, 2*math.Pi*float64(i)/float64(n)))
		r.segment(img, prev, p, w, col)
		prev = p
	}
}

// text writes s with its baseline's left end at (x, y) pixels, on a band
// that contrasts with it, so that it reads on any floor.
func (r *Renderer) text(img *image.RGBA, x, y int, s string, col color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(col), Face: basicfont.Face7x13}
	w := d.MeasureString(s).Ceil()
	band := image.Rect(x-2, y-11, x+w+2, y+3)
	bg := color.RGBA{0, 0, 0, 120} // dark behind light text, light behind dark text
	if int(col.R)*299+int(col.G)*587+int(col.B)*114 < 128*1000 {
		bg = color.RGBA{160, 160, 160, 160}
	}
	drawOver(img, band, bg)
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
}

func drawOver(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Over)
}
