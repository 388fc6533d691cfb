package web

import (
	"encoding/binary"
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// Frames are binary WebSocket messages (little-endian) that carry what
// moves: the poses of the movable bodies quantised to 16 bits, the robots'
// LED colours, laser spots, object LEDs, the user functions' drawing and
// the run's status. Each browser gets what changed since the frame it got
// before (the connection delivers every message in order, so the server
// knows what the browser holds); a browser that connects, or a new scene,
// gets a full frame. Layout (format 1):
//
//	u8 'F', u8 format (1), u8 flags, u8 sections
//	u32 scene version, u32 tick, f32 speed
//	u16 n, n bytes: the status message (UTF-8)
//	u32 M movable bodies, u32 R robots (as in the scene)
//	if sections&secXY:  codes (2 bits per body, ceil(M/4) bytes), then for
//	                    each body in order: code 1: i8 dx, i8 dy; code 2: u16 x, u16 y
//	if sections&secYaw: codes, then i8 dyaw (code 1) or u16 yaw (code 2)
//	if sections&secZ:   codes, then i8 dz or u16 z
//	if sections&secLEDs: ceil(R/8) bytes: which robots' LEDs changed;
//	                    u8 P, P*3 bytes: a palette of RGB colours; then for
//	                    each such robot: u8 h (bit 7: all LEDs alike; bits
//	                    0-6: n LEDs), then 1 (alike) or n colours: a
//	                    palette index, or 255 and 3 bytes RGB
//	u16 n, n*(4 f32 x y z radius, 3 u8 rgb): laser spots
//	u16 n, n*(3 f32 x y z, 3 u8 rgb): lit LEDs of boxes and cylinders
//	if flags&flagDrawing and not flags&flagDrawingSame: u32 n, n bytes: the drawing
//
// Code 0 means unchanged. A full frame (flags&flagFull) is the difference
// from a zero state (bodies at the quantisation origin, LEDs off). The
// quantisation is the scene's "quant" [x0, y0, w, h, zmax]: x = x0 +
// w*q/65535, y likewise, z = zmax*q/65535, yaw = 2*pi*q/65536.
const (
	frameMagic  = 'F'
	frameFormat = 1

	flagPlaying     = 1 << 0
	flagFinished    = 1 << 1
	flagDriven      = 1 << 2
	flagFull        = 1 << 3
	flagDrawing     = 1 << 4 // the run has user functions
	flagDrawingSame = 1 << 5 // the drawing is the one sent before

	secXY   = 1 << 0
	secYaw  = 1 << 1
	secZ    = 1 << 2
	secLEDs = 1 << 3

	codeSame  = 0
	codeSmall = 1
	codeAbs   = 2

	paletteEscape = 255
)

// Quant maps poses to the 16-bit values of frames.
type Quant struct {
	X0, Y0, W, H, ZMax float64
}

func quant16(v float64) uint16 {
	switch {
	case !(v > 0): // and NaN
		return 0
	case v >= 1:
		return 65535
	}
	return uint16(math.Round(v * 65535))
}

// X, Y, Z and Yaw quantise a pose.
func (q Quant) X(x float64) uint16 { return quant16((x - q.X0) / q.W) }
func (q Quant) Y(y float64) uint16 { return quant16((y - q.Y0) / q.H) }
func (q Quant) Z(z float64) uint16 { return quant16(z / q.ZMax) }
func (Quant) Yaw(a float64) uint16 {
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	a = math.Mod(a, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return uint16(int(math.Round(a/(2*math.Pi)*65536)) & 0xffff)
}

// Pose turns quantised values back into metres and radians.
func (q Quant) Pose(x, y, z, yaw uint16) (px, py, pz, pyaw float64) {
	return q.X0 + q.W*float64(x)/65535, q.Y0 + q.H*float64(y)/65535, q.ZMax * float64(z) / 65535, 2 * math.Pi * float64(yaw) / 65536
}

// snapshot is the moving state at one publish, quantised; shared by every
// browser's encoder and never changed once published.
type snapshot struct {
	ver     int
	tick    int
	flags   uint8 // flagPlaying, flagFinished, flagDriven
	speed   float32
	message string
	xy      []uint16 // 2 per movable body
	yaw     []uint16
	z       []uint16
	leds    []uint32 // every robot's LEDs in scene order, 0xRRGGBB
	ledOff  []int32  // robot r's LEDs are leds[ledOff[r]:ledOff[r+1]]
	spots   []byte   // encoded spot section
	objLEDs []byte   // encoded object LED section
	drawing []byte   // encoded drawing; nil without user functions
	drawSeq uint64   // changes with the drawing
}

// frameEncoder is one browser's view of the frames: what it last got.
type frameEncoder struct {
	base    *snapshot
	drawSeq uint64
	palette map[uint32]uint8
	pal     []uint32
}

// encode appends the frame that brings the browser from e.base to cur.
func (e *frameEncoder) encode(dst []byte, cur *snapshot) []byte {
	base := e.base
	flags := cur.flags
	if base == nil || base.ver != cur.ver || len(base.xy) != len(cur.xy) || len(base.ledOff) != len(cur.ledOff) {
		base = nil
		flags |= flagFull
		e.drawSeq = 0
	}
	if cur.drawing != nil {
		flags |= flagDrawing
		if e.drawSeq == cur.drawSeq {
			flags |= flagDrawingSame
		}
	}
	m := len(cur.yaw)
	r := len(cur.ledOff) - 1
	if r < 0 {
		r = 0
	}
	dst = append(dst, frameMagic, frameFormat, flags, 0)
	secAt := len(dst) - 1
	dst = binary.LittleEndian.AppendUint32(dst, uint32(cur.ver))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(cur.tick))
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(cur.speed))
	msg := cur.message
	if len(msg) > 65535 {
		msg = msg[:65535]
	}
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(msg)))
	dst = append(dst, msg...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(m))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(r))

	var sec uint8
	var bxy, byaw, bz []uint16
	if base != nil {
		bxy, byaw, bz = base.xy, base.yaw, base.z
	}
	var ok bool
	if dst, ok = encodeXY(dst, cur.xy, bxy); ok {
		sec |= secXY
	}
	if dst, ok = encodeScalar(dst, cur.yaw, byaw, true); ok {
		sec |= secYaw
	}
	if dst, ok = encodeScalar(dst, cur.z, bz, false); ok {
		sec |= secZ
	}
	if dst, ok = e.encodeLEDs(dst, cur, base); ok {
		sec |= secLEDs
	}
	dst[secAt] = sec
	dst = append(dst, cur.spots...)
	dst = append(dst, cur.objLEDs...)
	if cur.drawing != nil && flags&flagDrawingSame == 0 {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(cur.drawing)))
		dst = append(dst, cur.drawing...)
	}
	e.base = cur
	e.drawSeq = cur.drawSeq
	return dst
}

func small(d int) bool { return d >= -128 && d <= 127 }

// encodeXY appends the position codes and values, or nothing (false)
// when no body moved.
func encodeXY(dst []byte, cur, base []uint16) ([]byte, bool) {
	n := len(cur) / 2
	at := len(dst)
	codes := (n + 3) / 4
	dst = append(dst, make([]byte, codes)...)
	changed := false
	for i := 0; i < n; i++ {
		x, y := cur[2*i], cur[2*i+1]
		var bx, by uint16
		if base != nil {
			bx, by = base[2*i], base[2*i+1]
		}
		if x == bx && y == by {
			continue
		}
		changed = true
		dx, dy := int(x)-int(bx), int(y)-int(by)
		if small(dx) && small(dy) {
			dst[at+i/4] |= codeSmall << (2 * (i % 4))
			dst = append(dst, byte(int8(dx)), byte(int8(dy)))
		} else {
			dst[at+i/4] |= codeAbs << (2 * (i % 4))
			dst = binary.LittleEndian.AppendUint16(dst, x)
			dst = binary.LittleEndian.AppendUint16(dst, y)
		}
	}
	if !changed {
		return dst[:at], false
	}
	return dst, true
}

// encodeScalar is encodeXY for one value per body; angles wrap around.
func encodeScalar(dst []byte, cur, base []uint16, angle bool) ([]byte, bool) {
	n := len(cur)
	at := len(dst)
	dst = append(dst, make([]byte, (n+3)/4)...)
	changed := false
	for i, v := range cur {
		var b uint16
		if base != nil {
			b = base[i]
		}
		if v == b {
			continue
		}
		changed = true
		d := int(v) - int(b)
		if angle {
			d = int(int16(v - b))
		}
		if small(d) {
			dst[at+i/4] |= codeSmall << (2 * (i % 4))
			dst = append(dst, byte(int8(d)))
		} else {
			dst[at+i/4] |= codeAbs << (2 * (i % 4))
			dst = binary.LittleEndian.AppendUint16(dst, v)
		}
	}
	if !changed {
		return dst[:at], false
	}
	return dst, true
}

// encodeLEDs appends the LEDs of the robots whose LEDs changed.
func (e *frameEncoder) encodeLEDs(dst []byte, cur, base *snapshot) ([]byte, bool) {
	r := len(cur.ledOff) - 1
	if r <= 0 {
		return dst, false
	}
	if base != nil && len(base.leds) == len(cur.leds) && len(cur.leds) > 0 && &base.leds[0] == &cur.leds[0] {
		return dst, false // the same LEDs as before
	}
	differs := func(k int) bool {
		a, b := cur.ledOff[k], cur.ledOff[k+1]
		for j := a; j < b; j++ {
			var old uint32
			if base != nil {
				old = base.leds[j]
			}
			if cur.leds[j] != old {
				return true
			}
		}
		return false
	}
	at := len(dst)
	dst = append(dst, make([]byte, (r+7)/8)...)
	if e.palette == nil {
		e.palette = map[uint32]uint8{}
	}
	clear(e.palette)
	e.pal = e.pal[:0]
	some := false
	for k := 0; k < r; k++ {
		if !differs(k) {
			continue
		}
		some = true
		dst[at+k/8] |= 1 << (k % 8)
		for _, c := range cur.leds[cur.ledOff[k]:cur.ledOff[k+1]] {
			if _, ok := e.palette[c]; !ok && len(e.pal) < paletteEscape {
				e.palette[c] = uint8(len(e.pal))
				e.pal = append(e.pal, c)
			}
		}
	}
	if !some {
		return dst[:at], false
	}
	dst = append(dst, uint8(len(e.pal)))
	for _, c := range e.pal {
		dst = append(dst, byte(c>>16), byte(c>>8), byte(c))
	}
	color := func(c uint32) {
		if i, ok := e.palette[c]; ok {
			dst = append(dst, i)
		} else {
			dst = append(dst, paletteEscape, byte(c>>16), byte(c>>8), byte(c))
		}
	}
	for k := 0; k < r; k++ {
		if dst[at+k/8]&(1<<(k%8)) == 0 {
			continue
		}
		l := cur.leds[cur.ledOff[k]:cur.ledOff[k+1]]
		alike := len(l) > 0
		for _, c := range l {
			alike = alike && c == l[0]
		}
		if alike {
			dst = append(dst, 0x80|uint8(len(l)))
			color(l[0])
			continue
		}
		dst = append(dst, uint8(len(l)))
		for _, c := range l {
			color(c)
		}
	}
	return dst, true
}

// rgb24 packs a colour; ARGoS's black is an LED that is off.
func rgb24(c ci.Color) uint32 { return uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B) }

func appendF32(b []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f)))
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// maxDrawingItems bounds what one frame carries of the user functions'
// drawing (a browser would not draw more in time anyway).
const maxDrawingItems = 1 << 20

// encodeDrawing encodes the items user functions drew (see decodeDrawing
// for the layout); robot ids become scene robot indices, and items that
// name no robot of the scene or hold a coordinate that is not finite are
// left out.
func encodeDrawing(dst []byte, items []simulator.Item, robotIndex func(id string) (int, bool)) []byte {
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	n := 0
	point := func(p ci.Vector3) {
		dst = appendF32(dst, p.X)
		dst = appendF32(dst, p.Y)
		dst = appendF32(dst, p.Z)
	}
	text := func(s string) {
		if len(s) > 65535 {
			s = s[:65535]
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(len(s)))
		dst = append(dst, s...)
	}
	for _, it := range items {
		if n >= maxDrawingItems {
			break
		}
		ok := true
		for _, p := range it.Points {
			ok = ok && finite(p.X, p.Y, p.Z)
		}
		ok = ok && finite(it.Size, it.Width, it.Radius, it.Size3.X, it.Size3.Y, it.Size3.Z, it.Yaw)
		robot := 0
		switch it.Kind {
		case simulator.ItemRobotText, simulator.ItemRobotColor:
			robot, ok = robotIndex(it.Robot)
		case simulator.ItemLine:
			ok = ok && len(it.Points) >= 2
		default:
			ok = ok && len(it.Points) >= 1
		}
		if !ok {
			continue
		}
		a := it.Color.A
		if a == 0 {
			a = 255
		}
		dst = append(dst, byte(it.Kind), it.Color.R, it.Color.G, it.Color.B, a)
		switch it.Kind {
		case simulator.ItemPoint:
			dst = appendF32(dst, it.Size)
			point(it.Points[0])
		case simulator.ItemLine:
			dst = appendF32(dst, it.Width)
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(it.Points)))
			for _, p := range it.Points {
				point(p)
			}
		case simulator.ItemCircle:
			dst = append(dst, boolByte(it.Fill))
			dst = appendF32(dst, it.Radius)
			point(it.Points[0])
		case simulator.ItemBox:
			dst = append(dst, boolByte(it.Fill))
			dst = appendF32(dst, it.Size3.X)
			dst = appendF32(dst, it.Size3.Y)
			dst = appendF32(dst, it.Size3.Z)
			dst = appendF32(dst, it.Yaw)
			point(it.Points[0])
		case simulator.ItemText:
			text(it.Text)
			point(it.Points[0])
		case simulator.ItemRobotText:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(robot))
			text(it.Text)
		case simulator.ItemRobotColor:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(robot))
		default:
			dst = dst[:len(dst)-5] // a kind this viewer does not know
			continue
		}
		n++
	}
	binary.LittleEndian.PutUint32(dst[at:], uint32(n))
	return dst
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
