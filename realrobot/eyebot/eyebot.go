// Package eyebot drives the eye-bot quadrotor through its Aseba network
// (realrobot/aseba), with the mapping of devices onto the flight
// controller's, the sensor ring's and the LED node's variables that the
// board definition declares (package boards documents it): position and
// speed set-points, altitude, pose estimate, proximity and light rings,
// LEDs.
//
// The flight controller has three modes: 0 hovers where it is, 1 flies to
// position.target, 2 follows speed.target. Act writes the mode of the
// last kind of set-point the controller gave and that set-point; Stop
// writes mode 0 and a zero speed (hover), and reads the mode back. (The
// eye-bot's compute board is not confirmed; see docs/robots.md.)
//
// Importing the package registers the driver in realrobot.Protocols under
// "aseba/eye-bot".
package eyebot

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/aseba"
	"github.com/sirupsen/logrus"
)

// Roles of the board's mapping, and the flight modes.
const (
	RoleMode           = "flight.mode"
	RolePositionTarget = "flight.position.target"
	RoleSpeedTarget    = "flight.speed.target"
	RolePosition       = "flight.position"
	RoleAltitude       = "altitude"
	RoleProximity      = "proximity"
	RoleLight          = "light"
	RoleLEDs           = "leds"

	ModeHover    = 0
	ModePosition = 1
	ModeSpeed    = 2
)

// ProtocolKey is the driver's key in realrobot.Protocols.
const ProtocolKey = string(boards.ProtocolAseba) + "/eye-bot"

// Flight is the quadrotor_position and quadrotor_speed actuator: the
// last set-point given wins.
type Flight struct {
	d      *Driver
	mode   int
	target [4]float64 // x, y, z (m), yaw (rad)
	speed  [4]float64 // m/s, rad/s
}

var (
	_ ci.QuadrotorPosition = (*Flight)(nil)
	_ ci.QuadrotorSpeed    = (*Flight)(nil)
)

func (f *Flight) toPosition() {
	if f.mode != ModePosition {
		p := f.d.pose
		f.target = p
		f.mode = ModePosition
	}
}

// SetAbsolutePosition flies to p (m, arena frame).
func (f *Flight) SetAbsolutePosition(p ci.Vector3) {
	f.toPosition()
	f.target[0], f.target[1], f.target[2] = p.X, p.Y, p.Z
}

// SetRelativePosition flies by d from the current pose.
func (f *Flight) SetRelativePosition(d ci.Vector3) {
	f.toPosition()
	p := f.d.pose
	f.target[0], f.target[1], f.target[2] = p[0]+d.X, p[1]+d.Y, p[2]+d.Z
}

// SetAbsoluteYaw turns to yaw (rad).
func (f *Flight) SetAbsoluteYaw(yaw float64) { f.toPosition(); f.target[3] = yaw }

// SetRelativeYaw turns by d from the current yaw.
func (f *Flight) SetRelativeYaw(d float64) { f.toPosition(); f.target[3] = f.d.pose[3] + d }

// SetLinearVelocity flies at v (m/s).
func (f *Flight) SetLinearVelocity(v ci.Vector3) {
	f.mode = ModeSpeed
	f.speed[0], f.speed[1], f.speed[2] = v.X, v.Y, v.Z
}

// SetRotationalSpeed turns at w (rad/s).
func (f *Flight) SetRotationalSpeed(w float64) { f.mode = ModeSpeed; f.speed[3] = w }

// Altitude reads the height above the floor.
type Altitude struct{ h float64 }

// Reading returns the height in m.
func (a *Altitude) Reading() float64 { return a.h }

// Positioning reads the flight controller's pose estimate.
type Positioning struct{ r ci.PositioningReading }

// Reading returns the pose.
func (p *Positioning) Reading() ci.PositioningReading { return p.r }

// LEDs are the robot's LEDs (realrobot.LEDs), written out in Act.
type LEDs = realrobot.LEDs

// Driver drives an eye-bot. Make it with Open or New.
type Driver struct {
	b    boards.Board
	link *aseba.Link
	mu   sync.Mutex // held by Sense, Act and a checked Stop
	sup  realrobot.Supersede

	flight *Flight
	leds   *LEDs
	prox   *realrobot.ProximityRing
	light  *realrobot.LightRing
	alt    *Altitude
	pos    *Positioning

	sensors, actuators map[string]any
	reads              []boards.AsebaVar
	buf                [][]int16
	pose               [4]float64
}

var _ realrobot.Driver = (*Driver)(nil)

// Open dials the board's Aseba network and builds the declared devices.
func Open(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (*Driver, error) {
	if b.Aseba == nil {
		return nil, fmt.Errorf("eyebot: board %q has no Aseba network", b.Name)
	}
	link, err := aseba.Dial(*b.Aseba, b.Timeout, b.Retries, log)
	if err != nil {
		return nil, fmt.Errorf("eyebot: %w; is asebaswitch running on the robot (or give -aseba host:port)?", err)
	}
	drv, err := New(link, b, d)
	if err != nil {
		link.Close()
		return nil, err
	}
	return drv, nil
}

// New builds the driver on an open link (Close closes it); it finds the
// board's variables by name in the nodes' descriptions (Link.Resolve),
// makes the robot hover and reads the sensors once.
func New(link *aseba.Link, b boards.Board, d realrobot.Devices) (*Driver, error) {
	// The variables by name, from the nodes' descriptions where the
	// firmware gives them; the board's fixed addresses otherwise.
	vars, rerr := link.Resolve(b.Aseba.Vars)
	var re *aseba.ResolveError
	if rerr != nil && !errors.As(rerr, &re) {
		return nil, fmt.Errorf("eyebot: reading the nodes' descriptions: %w", rerr)
	}
	a := *b.Aseba
	a.Vars = vars
	b.Aseba = &a
	x := &Driver{b: b, link: link, sensors: map[string]any{}, actuators: map[string]any{}}
	if re != nil {
		// Hover first if the flight variables are known, then fail.
		if !re.Has(RoleMode) && !re.Has(RoleSpeedTarget) {
			if err := x.Stop(); err != nil {
				return nil, errors.Join(fmt.Errorf("eyebot: %w", re), err)
			}
		}
		return nil, fmt.Errorf("eyebot: %w", re)
	}
	for _, r := range []string{RoleMode, RolePositionTarget, RoleSpeedTarget, RolePosition} {
		if _, ok := b.Aseba.Var(r); !ok {
			return nil, fmt.Errorf("eyebot: board %q maps no Aseba variable to %q", b.Name, r)
		}
	}
	read := func(role string) error {
		v, ok := b.Aseba.Var(role)
		if !ok {
			return fmt.Errorf("eyebot: board %q maps no Aseba variable to %q", b.Name, role)
		}
		x.reads = append(x.reads, v)
		x.buf = append(x.buf, make([]int16, v.Size))
		return nil
	}
	if err := read(RolePosition); err != nil {
		return nil, err
	}
	angles := b.Geometry.ProximityAngles
	for _, tag := range d.Sensors {
		var err error
		switch tag {
		case ci.TagEyeBotProximity, ci.TagProximity:
			if x.prox == nil {
				x.prox = realrobot.NewProximityRing(angles)
				err = read(RoleProximity)
			}
			x.sensors[tag] = x.prox
		case ci.TagEyeBotLight, ci.TagLight:
			if x.light == nil {
				x.light = realrobot.NewLightRing(angles)
				err = read(RoleLight)
			}
			x.sensors[tag] = x.light
		case ci.TagAltitude:
			x.alt = &Altitude{}
			x.sensors[tag] = x.alt
			err = read(RoleAltitude)
		case ci.TagPositioning:
			x.pos = &Positioning{}
			x.sensors[tag] = x.pos
		}
		if err != nil {
			return nil, err
		}
	}
	for _, tag := range d.Actuators {
		switch tag {
		case ci.TagQuadrotorPosition, ci.TagQuadrotorSpeed:
			if x.flight == nil {
				x.flight = &Flight{d: x}
			}
			x.actuators[tag] = x.flight
		case ci.TagLEDs:
			if _, ok := b.Aseba.Var(RoleLEDs); !ok {
				return nil, fmt.Errorf("eyebot: board %q maps no Aseba variable to %q", b.Name, RoleLEDs)
			}
			x.leds = realrobot.NewLEDs(b.Geometry.LEDs)
			x.leds.SetAllColors(ci.Black)
			x.actuators[tag] = x.leds
		}
	}
	link.OnReconnect = x.hoverWrites
	if err := x.Stop(); err != nil {
		return nil, fmt.Errorf("eyebot: hovering: %w", err)
	}
	if err := x.Sense(); err != nil {
		return nil, fmt.Errorf("eyebot: first reading: %w", err)
	}
	return x, nil
}

func (x *Driver) v(role string) boards.AsebaVar {
	v, _ := x.b.Aseba.Var(role)
	return v
}

func (x *Driver) hoverWrites() []aseba.Write {
	return []aseba.Write{{Var: x.v(RoleMode), Values: []int16{ModeHover}}, {Var: x.v(RoleSpeedTarget), Values: make([]int16, 4)}}
}

// Sense reads the pose and the declared sensors.
func (x *Driver) Sense() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.sup.BeginSense()
	if err := x.link.Fetch(x.reads, x.buf); err != nil {
		return fmt.Errorf("eyebot: %w", err)
	}
	for i, v := range x.reads {
		b := x.buf[i]
		switch v.Role {
		case RolePosition:
			for k := range 3 {
				x.pose[k] = float64(b[k]) * v.Unit
			}
			x.pose[3] = float64(b[3]) * v.Unit // mrad -> rad
		case RoleAltitude:
			x.alt.h = float64(b[0]) * v.Unit
		case RoleProximity:
			for k := range x.prox.Len() {
				x.prox.Set(k, math.Max(0, math.Min(1, float64(b[k])*v.Unit)))
			}
		case RoleLight:
			for k := range x.light.Len() {
				x.light.Set(k, math.Max(0, math.Min(1, float64(b[k])*v.Unit)))
			}
		}
	}
	if x.pos != nil {
		x.pos.r = ci.PositioningReading{Position: ci.Vector3{X: x.pose[0], Y: x.pose[1], Z: x.pose[2]}, Orientation: ci.QuaternionFromYaw(x.pose[3])}
	}
	return nil
}

// Act writes the flight mode and set-point and the LEDs.
func (x *Driver) Act() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	mark := x.sup.BeginAct()
	if x.sup.Superseded(mark) {
		return fmt.Errorf("eyebot: %w", realrobot.ErrSuperseded)
	}
	var ws []aseba.Write
	if f := x.flight; f != nil && f.mode != ModeHover {
		role, sp := RolePositionTarget, f.target
		if f.mode == ModeSpeed {
			role, sp = RoleSpeedTarget, f.speed
		}
		v := x.v(role)
		vals := make([]int16, 4)
		for k := range vals {
			vals[k] = aseba.Raw(v, sp[k])
		}
		ws = append(ws, aseba.Write{Var: v, Values: vals}, aseba.Write{Var: x.v(RoleMode), Values: []int16{int16(f.mode)}})
	}
	if x.leds != nil {
		ws = append(ws, aseba.LEDWrite(x.v(RoleLEDs), x.leds.Colors()))
	}
	if len(ws) == 0 {
		return nil
	}
	if err := x.link.Store(ws, func() bool { return x.sup.Superseded(mark) }); err != nil {
		if errors.Is(err, aseba.ErrSuperseded) {
			return fmt.Errorf("eyebot: %w", realrobot.ErrSuperseded)
		}
		return fmt.Errorf("eyebot: %w", err)
	}
	return nil
}

// Stop makes the robot hover (mode 0, zero speed) and reads the mode back;
// during an exchange it writes at once without reading back.
func (x *Driver) Stop() error {
	err := x.link.Stop(&x.mu, x.hoverWrites(), x.sup.Stopped, func() error {
		got := [][]int16{{-1}}
		if err := x.link.Fetch([]boards.AsebaVar{x.v(RoleMode)}, got); err != nil {
			return fmt.Errorf("checking the hover: %w", err)
		}
		if got[0][0] != ModeHover {
			return errors.New("the flight controller did not take the hover mode")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("eyebot: hovering: %w", err)
	}
	return nil
}

// Sensor returns the declared sensor with the tag.
func (x *Driver) Sensor(tag string) (any, bool) { v, ok := x.sensors[tag]; return v, ok }

// Actuator returns the declared actuator with the tag.
func (x *Driver) Actuator(tag string) (any, bool) { v, ok := x.actuators[tag]; return v, ok }

// Close closes the link.
func (x *Driver) Close() error { return x.link.Close() }

func init() {
	realrobot.Protocols.MustRegister(ProtocolKey,
		"eye-bot: Aseba over TCP to an Aseba switch, or serial; flight set-points and sensors mapped onto node variables by the board",
		func(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (realrobot.Driver, error) {
			return Open(b, d, log)
		})
}
