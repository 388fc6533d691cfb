package web

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// FrameState is what a browser holds of the moving state of a run, kept
// up to date by the binary frames the viewer sends (frame.go describes
// them). The page does the same in JavaScript; FrameState serves Go
// programs that follow a run, and the tests.
type FrameState struct {
	Version, Tick             int
	Playing, Finished, Driven bool
	Speed                     float64
	Message                   string
	// XY (2 per body), Yaw and Z are the quantised poses of the scene's
	// movable bodies; Quant.Pose turns them into metres and radians.
	XY, Yaw, Z []uint16
	// LEDs are the robots' LED colours (0xRRGGBB, 0 for off), in scene
	// order.
	LEDs       [][]uint32
	Spots      []Spot
	ObjectLEDs []ObjectLED
	// HasDrawing tells whether the run has user functions; Drawing is
	// what they drew last.
	HasDrawing bool
	Drawing    []DrawItem
}

// Spot is a laser spot on a surface.
type Spot struct {
	Pos    ci.Vector3
	Radius float64
	Color  uint32
}

// ObjectLED is a lit LED of a box or cylinder.
type ObjectLED struct {
	Pos   ci.Vector3
	Color uint32
}

// DrawItem is one drawing of the user functions, as a frame carries it:
// simulator.Item with the robot named by its index in the scene.
type DrawItem struct {
	Kind   simulator.ItemKind
	Color  ci.Color
	Points []ci.Vector3
	// Size of a point and Width of a line in pixels, Radius of a circle
	// in metres.
	Size, Width, Radius float64
	Size3               ci.Vector3
	Yaw                 float64
	Fill                bool
	Text                string
	Robot               int
}

var errShort = errors.New("web: frame ends early")

// maxFrameBodies bounds the bodies a decoded frame may describe.
const maxFrameBodies = 1 << 20

type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errShort
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) f32() float64 { return float64(math.Float32frombits(r.u32())) }

func (r *reader) vec() ci.Vector3 { return ci.Vector3{X: r.f32(), Y: r.f32(), Z: r.f32()} }

func (r *reader) rgb() uint32 {
	if b := r.take(3); b != nil {
		return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])
	}
	return 0
}

// count reads a count of items of at least size bytes each, refusing one
// the rest of the message cannot hold.
func (r *reader) count(n uint32, size int) int {
	if r.err == nil && uint64(n)*uint64(size) > uint64(len(r.b)) {
		r.err = errShort
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// Apply updates the state with one frame. A frame that does not decode
// leaves the state as it was and returns an error.
func (s *FrameState) Apply(msg []byte) error {
	next := *s
	next.XY = append([]uint16(nil), s.XY...)
	next.Yaw = append([]uint16(nil), s.Yaw...)
	next.Z = append([]uint16(nil), s.Z...)
	next.LEDs = append([][]uint32(nil), s.LEDs...)
	if err := next.apply(msg); err != nil {
		return err
	}
	*s = next
	return nil
}

func (s *FrameState) apply(msg []byte) error {
	r := &reader{b: msg}
	if r.u8() != frameMagic {
		return errors.New("web: not a frame")
	}
	if f := r.u8(); f != frameFormat {
		return fmt.Errorf("web: frame format %d, this decoder reads %d", f, frameFormat)
	}
	flags, sec := r.u8(), r.u8()
	s.Version, s.Tick = int(r.u32()), int(r.u32())
	s.Speed = r.f32()
	s.Message = string(r.take(int(r.u16())))
	s.Playing, s.Finished, s.Driven = flags&flagPlaying != 0, flags&flagFinished != 0, flags&flagDriven != 0
	m := r.count(r.u32(), 0)
	nr := r.count(r.u32(), 0)
	if r.err != nil {
		return r.err
	}
	if m > maxFrameBodies || nr > m {
		return fmt.Errorf("web: frame of %d bodies and %d robots: this decoder takes up to %d bodies, robots among them", m, nr, maxFrameBodies)
	}
	if flags&flagFull != 0 {
		s.XY, s.Yaw, s.Z = make([]uint16, 2*m), make([]uint16, m), make([]uint16, m)
		s.LEDs = make([][]uint32, nr)
		s.Drawing = nil
	}
	if len(s.Yaw) != m || len(s.LEDs) != nr {
		return fmt.Errorf("web: a frame of %d bodies and %d robots for a state of %d and %d; it needs a full frame first", m, nr, len(s.Yaw), len(s.LEDs))
	}
	if sec&secXY != 0 {
		codes := r.take((m + 3) / 4)
		for i := 0; i < m && r.err == nil; i++ {
			switch codes[i/4] >> (2 * (i % 4)) & 3 {
			case codeSmall:
				s.XY[2*i] = uint16(int(s.XY[2*i]) + int(int8(r.u8())))
				s.XY[2*i+1] = uint16(int(s.XY[2*i+1]) + int(int8(r.u8())))
			case codeAbs:
				s.XY[2*i], s.XY[2*i+1] = r.u16(), r.u16()
			}
		}
	}
	for _, f := range []struct {
		bit uint8
		v   []uint16
	}{{secYaw, s.Yaw}, {secZ, s.Z}} {
		if sec&f.bit == 0 {
			continue
		}
		codes := r.take((m + 3) / 4)
		for i := 0; i < m && r.err == nil; i++ {
			switch codes[i/4] >> (2 * (i % 4)) & 3 {
			case codeSmall:
				f.v[i] = uint16(int(f.v[i]) + int(int8(r.u8())))
			case codeAbs:
				f.v[i] = r.u16()
			}
		}
	}
	if sec&secLEDs != 0 {
		mask := r.take((nr + 7) / 8)
		pal := make([]uint32, r.count(uint32(r.u8()), 3))
		for i := range pal {
			pal[i] = r.rgb()
		}
		color := func() uint32 {
			i := r.u8()
			if i == paletteEscape {
				return r.rgb()
			}
			if int(i) >= len(pal) {
				if r.err == nil {
					r.err = errors.New("web: frame: an LED colour outside the palette")
				}
				return 0
			}
			return pal[i]
		}
		for k := 0; k < nr && r.err == nil; k++ {
			if mask[k/8]&(1<<(k%8)) == 0 {
				continue
			}
			h := r.u8()
			l := make([]uint32, h&0x7f)
			if h&0x80 != 0 {
				c := color()
				for i := range l {
					l[i] = c
				}
			} else {
				for i := range l {
					l[i] = color()
				}
			}
			s.LEDs[k] = l
		}
	}
	s.Spots = make([]Spot, r.count(uint32(r.u16()), 19))
	for i := range s.Spots {
		s.Spots[i] = Spot{Pos: r.vec(), Radius: r.f32(), Color: r.rgb()}
	}
	s.ObjectLEDs = make([]ObjectLED, r.count(uint32(r.u16()), 15))
	for i := range s.ObjectLEDs {
		s.ObjectLEDs[i] = ObjectLED{Pos: r.vec(), Color: r.rgb()}
	}
	s.HasDrawing = flags&flagDrawing != 0
	switch {
	case !s.HasDrawing:
		s.Drawing = nil
	case flags&flagDrawingSame == 0:
		items, err := decodeDrawing(r.take(int(r.u32())), nr)
		if r.err != nil {
			return r.err
		}
		if err != nil {
			return err
		}
		s.Drawing = items
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("web: frame: %d bytes after its end", len(r.b))
	}
	return nil
}

// decodeDrawing reads what encodeDrawing wrote: u32 n, then n items of
// u8 kind, 4 u8 RGBA, and by kind:
//
//	point:       f32 size, 3 f32 position
//	line:        f32 width, u32 n, n*3 f32 points
//	circle:      u8 fill, f32 radius, 3 f32 centre
//	box:         u8 fill, 4 f32 size x y z and yaw, 3 f32 base centre
//	text:        u16 n, n bytes UTF-8, 3 f32 position
//	robot text:  u32 robot, u16 n, n bytes
//	robot color: u32 robot
func decodeDrawing(b []byte, robots int) ([]DrawItem, error) {
	r := &reader{b: b}
	n := r.count(r.u32(), 9)
	out := make([]DrawItem, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		it := DrawItem{Kind: simulator.ItemKind(r.u8())}
		it.Color = ci.Color{R: r.u8(), G: r.u8(), B: r.u8(), A: r.u8()}
		switch it.Kind {
		case simulator.ItemPoint:
			it.Size = r.f32()
			it.Points = []ci.Vector3{r.vec()}
		case simulator.ItemLine:
			it.Width = r.f32()
			it.Points = make([]ci.Vector3, r.count(r.u32(), 12))
			for k := range it.Points {
				it.Points[k] = r.vec()
			}
		case simulator.ItemCircle:
			it.Fill = r.u8() != 0
			it.Radius = r.f32()
			it.Points = []ci.Vector3{r.vec()}
		case simulator.ItemBox:
			it.Fill = r.u8() != 0
			it.Size3 = r.vec()
			it.Yaw = r.f32()
			it.Points = []ci.Vector3{r.vec()}
		case simulator.ItemText:
			it.Text = string(r.take(int(r.u16())))
			it.Points = []ci.Vector3{r.vec()}
		case simulator.ItemRobotText:
			it.Robot = int(r.u32())
			it.Text = string(r.take(int(r.u16())))
		case simulator.ItemRobotColor:
			it.Robot = int(r.u32())
		default:
			return nil, fmt.Errorf("web: drawing item %d of kind %d, unknown", i, it.Kind)
		}
		if (it.Kind == simulator.ItemRobotText || it.Kind == simulator.ItemRobotColor) && (it.Robot < 0 || it.Robot >= robots) && r.err == nil {
			return nil, fmt.Errorf("web: drawing item %d names robot %d of %d", i, it.Robot, robots)
		}
		out = append(out, it)
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("web: drawing: %d bytes after its end", len(r.b))
	}
	return out, nil
}
