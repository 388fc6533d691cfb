package media

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
)

// LEDDescription is the help text of the <led> medium.
const LEDDescription = "The LED medium (ARGoS's <led>): every lit LED of every robot (placed by the robot model, turning with a foot-bot's turret), " +
	"every light of the arena and every LED of the boxes and cylinders whose <leds medium> names this medium (moving with the object), indexed on a grid at each tick, for the colored_blob_omnidirectional_camera. Attributes: id (required); " +
	"index and grid_size are accepted for ARGoS compatibility (the grid is sized automatically)."

// ledCell is the side of the LED grid's cells (metres): about the ground
// range of a foot-bot's camera (0.79 m).
const ledCell = 1.0

// LED is the LED medium. Build it with NewLED.
type LED struct {
	world    *entity.World
	id       string
	placeJob func(chunk int) // Update's parallel pass

	// slots: every LED of every robot, then every light, then the LEDs
	// of the objects that name this medium
	base  []int // robot index -> first slot
	nRobo int
	pos   []ci.Vector3
	col   []ci.Color
	lit   []bool

	// the lit ones, indexed
	litPos   []ci.Vector3
	litXY    []ci.Vector2
	litCol   []ci.Color
	litOwner []int32 // body handle of the robot or object, -1 for a light
	grid     cells
}

// NewLED builds the LED medium from its element under <media>.
func NewLED(n *config.Node, w *entity.World) (*LED, error) {
	if err := n.CheckAttrs("id", "index", "grid_size"); err != nil {
		return nil, err
	}
	id, err := n.String("id")
	if err != nil {
		return nil, err
	}
	return &LED{world: w, id: id}, nil
}

const ledChunk = 256

// Update collects the lit LEDs and indexes them (physics.Runner splits the
// robots in chunks).
func (m *LED) Update(run physics.Runner) {
	w := m.world
	robots := w.Robots
	if len(robots) != m.nRobo || len(m.base) != len(robots)+1 {
		m.base = m.base[:0]
		k := 0
		for _, r := range robots {
			m.base = append(m.base, k)
			k += len(r.Model.LEDMounts)
		}
		m.base = append(m.base, k)
		m.nRobo = len(robots)
	}
	nr := m.base[len(robots)]
	total := nr + len(w.Lights)
	m.pos = resize(m.pos, total)
	m.col = resize(m.col, total)
	m.lit = resize(m.lit, total)
	if m.placeJob == nil {
		// made once, so that a tick does not allocate it
		m.placeJob = func(c int) {
			robots := m.world.Robots
			for i := c * ledChunk; i < min((c+1)*ledChunk, len(robots)); i++ {
				m.place(i, robots[i])
			}
		}
	}
	run.Run((len(robots)+ledChunk-1)/ledChunk, m.placeJob)
	for k, l := range w.Lights {
		s := nr + k
		m.pos[s], m.col[s] = l.Position, l.Color
		m.lit[s] = lit(l.Color)
	}
	m.litPos, m.litXY, m.litCol, m.litOwner = m.litPos[:0], m.litXY[:0], m.litCol[:0], m.litOwner[:0]
	for i, r := range robots {
		for s := m.base[i]; s < m.base[i+1]; s++ {
			if m.lit[s] {
				m.add(s, int32(r.Body))
			}
		}
	}
	for s := nr; s < total; s++ {
		if m.lit[s] {
			m.add(s, -1)
		}
	}
	m.addObjects()
	lo, hi := w.Space.Bounds()
	m.grid.build(lo, hi, ledCell, len(m.litXY), func(k int) ci.Vector2 { return m.litXY[k] })
}

func (m *LED) add(s int, owner int32) {
	m.litPos = append(m.litPos, m.pos[s])
	m.litXY = append(m.litXY, m.pos[s].XY())
	m.litCol = append(m.litCol, m.col[s])
	m.litOwner = append(m.litOwner, owner)
}

// addObjects adds the lit LEDs of the objects that name this medium, in
// arena order. There are few of them: they are placed on this goroutine.
func (m *LED) addObjects() {
	for _, o := range m.world.ObjectLEDs {
		if o.Medium != m.id {
			continue
		}
		b := &m.world.Space.Bodies[o.Body]
		if b.Removed {
			continue
		}
		for k := range o.LEDs {
			if c := o.LEDs[k].Color; lit(c) {
				p := o.Position(b, k)
				m.litPos = append(m.litPos, p)
				m.litXY = append(m.litXY, p.XY())
				m.litCol = append(m.litCol, c)
				m.litOwner = append(m.litOwner, int32(o.Body))
			}
		}
	}
}

// place computes the slots of robot i.
func (m *LED) place(i int, r *entity.Robot) {
	s0, s1 := m.base[i], m.base[i+1]
	b := r.B()
	if b.Removed || len(r.LEDs) < s1-s0 {
		for s := s0; s < s1; s++ {
			m.lit[s] = false
		}
		return
	}
	turret := 0.0
	if r.Model.LEDsOnTurret {
		turret = r.Turret
	}
	for k, mt := range r.Model.LEDMounts {
		s := s0 + k
		c := r.LEDs[k]
		m.col[s] = c
		if m.lit[s] = lit(c); !m.lit[s] {
			continue
		}
		o := mt.Offset(turret)
		m.pos[s] = ci.Vector3{X: b.Pos.X + b.Cos*o.X - b.Sin*o.Y, Y: b.Pos.Y + b.Sin*o.X + b.Cos*o.Y, Z: b.Z + mt.Height}
	}
}

// lit reports whether an LED of colour c shines (ARGoS: not black).
func lit(c ci.Color) bool { return c.R != 0 || c.G != 0 || c.B != 0 }

// Near appends to buf the lit LEDs whose position may lie in the box
// [lo, hi] of the ground plane (a superset: filter with At) and returns
// it. It does not allocate once buf is large enough.
func (m *LED) Near(lo, hi ci.Vector2, buf []int32) []int32 {
	x0, y0, x1, y1 := m.grid.span(lo, hi)
	for y := y0; y <= y1; y++ {
		buf = append(buf, m.grid.row(y, x0, x1)...)
	}
	return buf
}

// At returns lit LED k's position, colour and the body of the robot or
// object that carries it (-1 for a light).
func (m *LED) At(k int32) (pos ci.Vector3, c ci.Color, owner int) {
	return m.litPos[k], m.litCol[k], int(m.litOwner[k])
}

// Len returns the number of lit LEDs at the last Update.
func (m *LED) Len() int { return len(m.litPos) }

// Reset forgets the LEDs of the last Update.
func (m *LED) Reset() {
	m.litPos, m.litXY, m.litCol, m.litOwner = m.litPos[:0], m.litXY[:0], m.litCol[:0], m.litOwner[:0]
	m.grid.build(ci.Vector2{}, ci.Vector2{X: 1, Y: 1}, 1, 0, nil)
}

// Close implements the simulator's Medium.
func (m *LED) Close() error { return nil }

func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}
