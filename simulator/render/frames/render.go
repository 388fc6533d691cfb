// Package frames renders the arena seen from above into images, in pure
// Go, and writes them as PNG frames of a run (argos --frames DIR,
// --frames-every K) that ffmpeg assembles into a video (argos --video
// FILE.mp4). It is also the <frames> visualization:
//
//	<visualization>
//	  <frames directory="frames" every="10" width="800"/>
//	</visualization>
//
// A frame shows the floor colours, walls, boxes and cylinders (static ones
// grey, movable ones brown) with their LEDs, robots with their heading and
// LED colours, lights, laser spots, what the experiment's user functions
// draw (simulator.UserFunctions), and the tick and simulated time.
package frames

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Colours of a frame (read-only).
var (
	background   = color.RGBA{0x4a, 0x4f, 0x57, 0xff}
	gridColor    = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	staticColor  = color.RGBA{0x80, 0x86, 0x8e, 0xff}
	movableColor = color.RGBA{0xb0, 0x7a, 0x45, 0xff}
	robotColor   = color.RGBA{0x3d, 0x7e, 0xc9, 0xff}
	outlineColor = color.RGBA{0x22, 0x25, 0x2a, 0xff}
	textColor    = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// Renderer draws top views of one simulator's arena at a fixed size. It
// keeps scratch buffers: use one Renderer per goroutine.
type Renderer struct {
	sim    *simulator.Simulator
	lo, hi ci.Vector2
	scale  float64 // pixels per metre
	w, h   int
	floor  *image.RGBA
	ras    vector.Rasterizer
	// what the experiment's user functions draw (overlay.go)
	canvas simulator.Canvas
	tint   map[string]color.RGBA
}

// NewRenderer returns a renderer whose images are width pixels wide (the
// height follows the arena's aspect ratio).
func NewRenderer(sim *simulator.Simulator, width int) *Renderer {
	if width < 16 {
		width = 16
	}
	lo, hi := sim.Space().Bounds()
	sx, sy := math.Max(hi.X-lo.X, 1e-3), math.Max(hi.Y-lo.Y, 1e-3)
	scale := float64(width) / sx
	h := int(math.Ceil(sy * scale))
	h += h & 1 // even sizes suit video encoders
	w := width + width&1
	return &Renderer{sim: sim, lo: lo, hi: hi, scale: scale, w: w, h: max(h, 2)}
}

// Size returns the size of the images in pixels.
func (r *Renderer) Size() (w, h int) { return r.w, r.h }

// px maps a point of the arena to image coordinates.
func (r *Renderer) px(p ci.Vector2) (float32, float32) {
	return float32((p.X - r.lo.X) * r.scale), float32((r.hi.Y - p.Y) * r.scale)
}

// Render draws the current state into img (allocated when nil or of
// another size) and returns it.
func (r *Renderer) Render(img *image.RGBA) *image.RGBA {
	if img == nil || img.Bounds().Dx() != r.w || img.Bounds().Dy() != r.h {
		img = image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	}
	w := r.sim.World()
	if r.floor == nil || w.Floor != nil {
		// loop functions may repaint the floor: sample it every frame
		r.floor = r.sampleFloor(w, r.floor)
	}
	draw.Draw(img, img.Bounds(), r.floor, image.Point{}, draw.Src)
	r.grid(img)
	user := r.sim.DrawUser(&r.canvas)
	if user {
		r.tints()
	}
	sp := r.sim.Space()
	robots := map[int]*entity.Robot{}
	for i := 0; i < r.sim.NumRobots(); i++ {
		rb := r.sim.Robot(i)
		robots[rb.Body] = rb
	}
	// static first, then movable objects, then robots on top
	for pass := 0; pass < 3; pass++ {
		for i := range sp.Bodies {
			b := &sp.Bodies[i]
			if b.Removed {
				continue
			}
			rb := robots[i]
			switch {
			case pass == 0 && !b.Movable && rb == nil:
				r.body(img, b, staticColor)
			case pass == 1 && b.Movable && rb == nil:
				r.body(img, b, movableColor)
			case pass == 2 && rb != nil:
				r.robot(img, b, rb)
			}
		}
	}
	for _, o := range w.ObjectLEDs { // LEDs on boxes and cylinders
		b := &sp.Bodies[o.Body]
		if b.Removed {
			continue
		}
		for k, l := range o.LEDs {
			if l.Color == ci.Black || l.Color.A == 0 {
				continue
			}
			r.disc(img, o.Position(b, k).XY(), math.Max(0.015, 1.5/r.scale), rgba(l.Color, 255), &outlineColor)
		}
	}
	for _, s := range w.Spots {
		r.disc(img, s.Pos.XY(), math.Max(s.Radius, 2/r.scale), rgba(s.Color, 230), nil)
	}
	for _, l := range w.Lights {
		p := l.Position.XY()
		r.disc(img, p, 0.12, rgba(l.Color, 70), nil)
		r.disc(img, p, 0.05, rgba(l.Color, 255), &outlineColor)
	}
	if user {
		r.overlay(img)
	}
	r.label(img, r.sim.Tick(), float64(r.sim.Tick())*r.sim.TickLength())
	return img
}

func rgba(c ci.Color, a uint8) color.RGBA {
	// premultiplied
	return color.RGBA{uint8(uint16(c.R) * uint16(a) / 255), uint8(uint16(c.G) * uint16(a) / 255), uint8(uint16(c.B) * uint16(a) / 255), a}
}

// sampleFloor paints the arena's floor (white, or World.Floor) on the
// background.
func (r *Renderer) sampleFloor(w *entity.World, img *image.RGBA) *image.RGBA {
	if img == nil {
		img = image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	}
	if w.Floor == nil {
		draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
		return img
	}
	const cell = 2 // pixels per floor sample
	for y := 0; y < r.h; y += cell {
		for x := 0; x < r.w; x += cell {
			p := ci.Vector2{X: r.lo.X + (float64(x)+cell/2)/r.scale, Y: r.hi.Y - (float64(y)+cell/2)/r.scale}
			c := w.FloorColor(p)
			for yy := y; yy < min(y+cell, r.h); yy++ {
				for xx := x; xx < min(x+cell, r.w); xx++ {
					o := img.PixOffset(xx, yy)
					img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c.R, c.G, c.B, 255
				}
			}
		}
	}
	return img
}

// grid draws a line every half metre.
func (r *Renderer) grid(img *image.RGBA) {
	step := 0.5
	if r.hi.X-r.lo.X > 20 {
		step = math.Pow(10, math.Floor(math.Log10(r.hi.X-r.lo.X)))
	}
	for x := math.Ceil(r.lo.X/step) * step; x <= r.hi.X; x += step {
		px, _ := r.px(ci.Vector2{X: x})
		for y := 0; y < r.h; y++ {
			blend(img, int(px), y, gridColor)
		}
	}
	for y := math.Ceil(r.lo.Y/step) * step; y <= r.hi.Y; y += step {
		_, py := r.px(ci.Vector2{Y: y})
		for x := 0; x < r.w; x++ {
			blend(img, x, int(py), gridColor)
		}
	}
}

func blend(img *image.RGBA, x, y int, c color.RGBA) {
	if !(image.Point{x, y}.In(img.Rect)) {
		return
	}
	o := img.PixOffset(x, y)
	p := img.Pix[o : o+3 : o+3]
	p[0] = uint8((int(p[0])*3 + int(c.R)) / 4)
	p[1] = uint8((int(p[1])*3 + int(c.G)) / 4)
	p[2] = uint8((int(p[2])*3 + int(c.B)) / 4)
}

// body draws a box or a cylinder.
func (r *Renderer) body(img *image.RGBA, b *space.Body, c color.RGBA) {
	if b.Shape == space.Disc {
		r.disc(img, b.Pos, b.Radius, c, &outlineColor)
		return
	}
	corners := boxCorners(b)
	r.poly(img, corners[:], outlineColor)
	// inset by one pixel for the outline
	in := 1 / r.scale
	bb := *b
	bb.Half = ci.Vector2{X: math.Max(b.Half.X-in, 0), Y: math.Max(b.Half.Y-in, 0)}
	corners = boxCorners(&bb)
	r.poly(img, corners[:], c)
}

func boxCorners(b *space.Body) [4]ci.Vector2 {
	var out [4]ci.Vector2
	for k, s := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		lx, ly := s[0]*b.Half.X, s[1]*b.Half.Y
		out[k] = ci.Vector2{X: b.Pos.X + lx*b.Cos - ly*b.Sin, Y: b.Pos.Y + lx*b.Sin + ly*b.Cos}
	}
	return out
}

// robot draws a robot: body, heading and LEDs.
func (r *Renderer) robot(img *image.RGBA, b *space.Body, rb *entity.Robot) {
	body := robotColor
	if c, ok := r.tint[rb.ID]; ok {
		body = c
	}
	r.disc(img, b.Pos, b.Radius, body, &outlineColor)
	// heading: a triangle pointing forward
	h := b.Heading()
	n := ci.Vector2{X: -h.Y, Y: h.X}
	tip := b.Pos.Add(h.Scale(b.Radius * 0.95))
	base := b.Pos.Add(h.Scale(b.Radius * 0.2))
	r.poly(img, []ci.Vector2{tip, base.Add(n.Scale(b.Radius * 0.35)), base.Sub(n.Scale(b.Radius * 0.35))}, color.RGBA{0xf5, 0xf5, 0xf5, 0xff})
	for _, l := range LEDLayout(rb) {
		if rb.LEDs[l.Index] == ci.Black || rb.LEDs[l.Index].A == 0 {
			continue
		}
		p := b.Pos.Add(l.Offset.Rotate(b.Yaw).Scale(b.Radius))
		r.disc(img, p, math.Max(b.Radius*0.16, 1.5/r.scale), rgba(rb.LEDs[l.Index], 255), &outlineColor)
	}
}

// LED is where an LED sits on a robot seen from above: Offset in units of
// the robot's radius, in the robot's frame.
type LED struct {
	Index  int
	Offset ci.Vector2
}

// LEDLayout places a robot's LEDs: a ring near the rim; the foot-bot's
// thirteenth LED (the beacon) in the middle.
func LEDLayout(rb *entity.Robot) []LED {
	n := len(rb.LEDs)
	ring := n
	var out []LED
	if rb.Model != nil && rb.Model.Type == "foot-bot" && n == 13 {
		ring = 12
		out = append(out, LED{Index: 12})
	}
	for i := 0; i < ring; i++ {
		a := 2 * math.Pi * (float64(i) + 0.5) / float64(ring)
		out = append(out, LED{Index: i, Offset: ci.FromPolar(0.75, a)})
	}
	return out
}

// disc fills a circle, with a one-pixel outline when outline is set.
func (r *Renderer) disc(img *image.RGBA, c ci.Vector2, radius float64, fill color.RGBA, outline *color.RGBA) {
	if outline != nil {
		r.circle(img, c, radius, *outline)
		radius -= 1 / r.scale
		if radius <= 0 {
			return
		}
	}
	r.circle(img, c, radius, fill)
}

func (r *Renderer) circle(img *image.RGBA, c ci.Vector2, radius float64, col color.RGBA) {
	n := int(math.Min(64, math.Max(8, radius*r.scale*1.5)))
	pts := make([]ci.Vector2, n)
	for i := range pts {
		pts[i] = c.Add(ci.FromPolar(radius, 2*math.Pi*float64(i)/float64(n)))
	}
	r.poly(img, pts, col)
}

// poly fills a polygon given in arena coordinates, anti-aliased. The
// rasterizer covers only the polygon's bounding box.
func (r *Renderer) poly(img *image.RGBA, pts []ci.Vector2, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	x0, y0 := r.px(pts[0])
	x1, y1 := x0, y0
	for _, p := range pts[1:] {
		x, y := r.px(p)
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	box := image.Rect(int(x0)-1, int(y0)-1, int(x1)+2, int(y1)+2)
	clip := box.Intersect(img.Bounds())
	if clip.Empty() {
		return
	}
	r.ras.Reset(box.Dx(), box.Dy())
	r.ras.DrawOp = draw.Over
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	x, y := r.px(pts[0])
	r.ras.MoveTo(x-ox, y-oy)
	for _, p := range pts[1:] {
		x, y := r.px(p)
		r.ras.LineTo(x-ox, y-oy)
	}
	r.ras.ClosePath()
	r.ras.Draw(img, clip, image.NewUniform(col), clip.Min.Sub(box.Min))
}

// label writes the tick and time in the top-left corner.
func (r *Renderer) label(img *image.RGBA, tick int, t float64) {
	s := "tick " + strconv.Itoa(tick) + "   t = " + strconv.FormatFloat(t, 'f', 1, 64) + " s"
	d := font.Drawer{Dst: img, Src: image.NewUniform(textColor), Face: basicfont.Face7x13}
	wpx := d.MeasureString(s).Ceil()
	draw.Draw(img, image.Rect(4, 4, 12+wpx, 22), image.NewUniform(color.RGBA{0, 0, 0, 160}), image.Point{}, draw.Over)
	d.Dot = fixed.P(8, 17)
	d.DrawString(s)
}
