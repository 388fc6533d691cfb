package entity

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// Mount is where a device sits on a robot: Radius metres from the centre
// at Angle radians counter-clockwise from the front, Height metres above
// the robot's bottom.
type Mount struct {
	Angle, Radius, Height float64
}

// Offset returns the mount's position in the robot's frame (X forward,
// Y left), turned by extra radians (a turret's rotation).
func (m Mount) Offset(extra float64) ci.Vector2 {
	if m.Radius == 0 {
		return ci.Vector2{}
	}
	return ci.FromPolar(m.Radius, m.Angle+extra)
}

// LightRing is a ring of light sensors at Radius from the centre, Height
// above the bottom, one per angle of Angles (reading order). Tag is the
// model's own sensor tag ("footbot_light").
type LightRing struct {
	Tag            string
	Angles         []float64
	Radius, Height float64
}

// GroundSensor is a downward-looking sensor at Offset in the robot's frame
// (metres, X forward, Y left). A BlackWhite sensor reads 0 or 1 (its
// grey level thresholded at 0.5); the others read the grey level.
type GroundSensor struct {
	Offset     ci.Vector2
	BlackWhite bool
}

// RABBoard is a range-and-bearing board: the default range (metres,
// overridden by the robot's rab_range attribute), payload size (bytes,
// rab_data_size) and the height of its emitter above the robot's bottom.
type RABBoard struct {
	Range    float64
	DataSize int
	Height   float64
}

// Camera is an omnidirectional camera looking down from Height above the
// robot's bottom with half-aperture Aperture (radians, overridden by the
// robot's omnidirectional_camera_aperture attribute, in degrees): it sees
// the ground within Height*tan(Aperture) of the robot. Height 0: none.
type Camera struct {
	Height, Aperture float64
}

// Gripper is a gripper at the front of the turret: at the body's edge,
// Height above the bottom; it grips a grippable body within Reach of that
// point. Disc is the radius of the disc its jaws make there, which rays
// meet but nothing collides with (space.Nub); 0 for none.
type Gripper struct {
	Height, Reach, Disc float64
}

// Scanner is the state of a foot-bot's rotating distance scanner, written
// by its actuator during the act phase and read by its sensor.
type Scanner struct {
	// On is false while the scanner is disabled.
	On bool
	// Rotating: the scanner spins at Speed (rad/s); else it holds Angle.
	Rotating bool
	Speed    float64
	// Angle is the scanner's rotation relative to the body (radians), and
	// Prev its rotation one tick before: a spinning scanner's rays sweep
	// from Prev to Angle during the tick.
	Angle, Prev float64
}

// Grippable reports whether a gripper can hold body b: as in ARGoS,
// movable boxes and cylinders (preys) and robots are grippable, static
// objects are not.
func Grippable(b *space.Body) bool { return b.Movable && !b.Removed }

// Gray returns the grey level of c in [0, 1], as ARGoS's
// CColor::ToGrayScale over 255: 0.299 R + 0.587 G + 0.114 B, weights and
// sum in single precision (as ARGoS computes it), divided in double.
func Gray(c ci.Color) float64 {
	// each conversion rounds to float32 and keeps the compiler from fusing
	// a product with the sum
	r := float32(float32(0.299) * float32(c.R))
	g := float32(float32(0.587) * float32(c.G))
	b := float32(float32(0.114) * float32(c.B))
	return float64(float32(r+g)+b) / 255
}

// ringAngles returns n angles start + i*2pi/n, normalized.
func ringAngles(n int, start float64) []float64 {
	a := make([]float64, n)
	for i := range a {
		a[i] = ci.NormalizeAngle(start + float64(i)*2*math.Pi/float64(n))
	}
	return a
}

// ledRing returns n LEDs evenly spaced from angle start.
func ledRing(n int, start, radius, height float64) []Mount {
	m := make([]Mount, n)
	for i, a := range ringAngles(n, start) {
		m[i] = Mount{Angle: a, Radius: radius, Height: height}
	}
	return m
}

// footBotLEDs are the 12 ring LEDs (pi/12 + i*pi/6, 5 mm outside the
// body, 0.085 m high) and the beacon on top (0.174 m).
func footBotLEDs() []Mount {
	return append(ledRing(12, math.Pi/12, f32(0.085036758)+0.005, f32(0.085)), Mount{Height: f32(0.174249733)})
}

// footBotGround: the 4 grey-level motor ground sensors, then the 8
// black-and-white base ground sensors, as ARGoS orders them.
func footBotGround() []GroundSensor {
	g := []GroundSensor{
		{Offset: ci.Vector2{X: 0.063, Y: 0.0116}}, {Offset: ci.Vector2{X: -0.063, Y: 0.0116}},
		{Offset: ci.Vector2{X: -0.063, Y: -0.0116}}, {Offset: ci.Vector2{X: 0.063, Y: -0.0116}},
	}
	for _, o := range []ci.Vector2{{X: 0.08}, {X: 0.042, Y: 0.065}, {Y: 0.08}, {X: -0.042, Y: 0.065},
		{X: -0.08}, {X: -0.042, Y: -0.065}, {Y: -0.08}, {X: 0.042, Y: -0.065}} {
		g = append(g, GroundSensor{Offset: o, BlackWhite: true})
	}
	return g
}
