// Package footbot drives the foot-bot (marXbot) through its Aseba network
// (realrobot/aseba), with the mapping of devices onto Aseba nodes and
// variables that the board definition declares (package boards documents
// it): wheels, wheel encoders, proximity and light rings, base and motor
// ground sensors, LEDs and battery.
//
// Each tick, Sense reads every declared sensor's variables and the wheel
// targets (one GetVariables per variable, sent together; the motor nodes
// must answer even when no sensor is declared) and Act writes the wheel
// targets and the LEDs (SetVariables). Stop writes zero wheel targets and
// reads them back; while an exchange is in progress (a tick that
// overran), it writes them at once without waiting. A lost connection is
// redialled at the next exchange, and the wheel targets are zeroed first.
//
// Importing the package registers the driver in realrobot.Protocols under
// boards.ProtocolAseba for boards of the foot-bot; [Open] opens it
// without the registry.
package footbot

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

// Roles of the board's Aseba mapping that the driver uses.
const (
	RoleLeftTarget    = "wheel.left.target"
	RoleRightTarget   = "wheel.right.target"
	RoleLeftSpeed     = "wheel.left.speed"
	RoleRightSpeed    = "wheel.right.speed"
	RoleLeftOdometry  = "wheel.left.odometry"
	RoleRightOdometry = "wheel.right.odometry"
	RoleProximity     = "proximity"
	RoleLight         = "light"
	RoleBaseGround    = "ground.base"
	RoleMotorGround   = "ground.motor"
	RoleLEDs          = "leds"
	RoleCharge        = "battery.charge"
	RoleTimeLeft      = "battery.time_left"
)

// Wheels is the differential_steering actuator (cm/s).
type Wheels struct{ left, right float64 }

// SetLinearVelocity sets the wheel speeds in cm/s.
func (w *Wheels) SetLinearVelocity(l, r float64) { w.left, w.right = l, r }

// Encoders is the differential_steering sensor.
type Encoders struct {
	reading ci.DifferentialSteeringReading
}

// Reading returns the measured speeds and the distances of the last tick.
func (e *Encoders) Reading() ci.DifferentialSteeringReading { return e.reading }

// Ground is a set of ground sensors.
type Ground struct{ readings []ci.GroundReading }

// Readings returns the last readings.
func (g *Ground) Readings() []ci.GroundReading { return g.readings }

// Battery is the battery sensor.
type Battery struct{ reading ci.BatteryReading }

// Reading returns the last reading.
func (b *Battery) Reading() ci.BatteryReading { return b.reading }

// LEDs are the robot's LEDs (realrobot.LEDs), written out in Act.
type LEDs = realrobot.LEDs

var (
	_ ci.DifferentialSteeringActuator = (*Wheels)(nil)
	_ ci.DifferentialSteeringSensor   = (*Encoders)(nil)
	_ ci.Ground                       = (*Ground)(nil)
	_ ci.Battery                      = (*Battery)(nil)
	_ ci.LEDs                         = (*LEDs)(nil)
)

// Offsets of the ground sensors in the robot's frame (m): the 8 base
// sensors on a ring of 6.5 cm, the 4 motor sensors at the corners of the
// wheel block (ARGoS's foot-bot model).
func baseGroundOffsets() []ci.Vector2 {
	o := make([]ci.Vector2, 8)
	for i := range o {
		o[i] = ci.FromPolar(0.065, float64(i)*math.Pi/4)
	}
	return o
}

var motorGroundOffsets = []ci.Vector2{{X: 0.063, Y: 0.0116}, {X: -0.063, Y: 0.0116}, {X: -0.063, Y: -0.0116}, {X: 0.063, Y: -0.0116}}

// Driver drives a foot-bot. Make it with Open or New.
type Driver struct {
	b    boards.Board
	link *aseba.Link
	mu   sync.Mutex // held by Sense, Act and a checked Stop
	sup  realrobot.Supersede
	log  logrus.FieldLogger

	wheels *Wheels
	leds   *LEDs
	enc    *Encoders
	prox   *realrobot.ProximityRing
	light  *realrobot.LightRing
	base   *Ground
	motor  *Ground
	batt   *Battery

	sensors, actuators map[string]any

	reads   []boards.AsebaVar
	buf     [][]int16
	odo     [2]int16
	haveOdo bool
}

var _ realrobot.Driver = (*Driver)(nil)

// Open dials the board's Aseba network and builds the declared devices.
func Open(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (*Driver, error) {
	if b.Aseba == nil {
		return nil, fmt.Errorf("footbot: board %q has no Aseba network", b.Name)
	}
	link, err := aseba.Dial(*b.Aseba, b.Timeout, b.Retries, log)
	if err != nil {
		return nil, fmt.Errorf("footbot: %w; is asebaswitch running on the robot (or give -aseba host:port)?", err)
	}
	drv, err := New(link, b, d, log)
	if err != nil {
		link.Close()
		return nil, err
	}
	return drv, nil
}

// New builds the driver on an open link (Close closes it). It finds the
// board's variables by name in the nodes' descriptions (Link.Resolve),
// stops the wheels and reads the sensors once, which checks the mapping.
func New(link *aseba.Link, b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (*Driver, error) {
	// The variables by name, from the nodes' descriptions where the
	// firmware gives them; the board's fixed addresses otherwise.
	vars, rerr := link.Resolve(b.Aseba.Vars)
	var re *aseba.ResolveError
	if rerr != nil && !errors.As(rerr, &re) {
		return nil, fmt.Errorf("footbot: reading the nodes' descriptions: %w", rerr)
	}
	a := *b.Aseba
	a.Vars = vars
	b.Aseba = &a
	x := &Driver{b: b, link: link, log: log, sensors: map[string]any{}, actuators: map[string]any{}}
	if re != nil {
		// Stop the wheels first if their targets are known, then fail.
		if !re.Has(RoleLeftTarget) && !re.Has(RoleRightTarget) {
			if err := x.Stop(); err != nil {
				return nil, errors.Join(fmt.Errorf("footbot: %w", re), err)
			}
		}
		return nil, fmt.Errorf("footbot: %w", re)
	}
	need := func(role string) (boards.AsebaVar, error) {
		v, ok := b.Aseba.Var(role)
		if !ok {
			return v, fmt.Errorf("footbot: board %q maps no Aseba variable to %q", b.Name, role)
		}
		return v, nil
	}
	read := func(roles ...string) error {
		for _, r := range roles {
			v, err := need(r)
			if err != nil {
				return err
			}
			x.reads = append(x.reads, v)
			x.buf = append(x.buf, make([]int16, v.Size))
		}
		return nil
	}
	angles := b.Geometry.ProximityAngles
	for _, tag := range d.Sensors {
		var err error
		switch tag {
		case ci.TagFootBotProximity, ci.TagProximity:
			if x.prox == nil {
				x.prox = realrobot.NewProximityRing(angles)
				err = read(RoleProximity)
			}
			x.sensors[tag] = x.prox
		case ci.TagFootBotLight, ci.TagLight:
			if x.light == nil {
				x.light = realrobot.NewLightRing(angles)
				err = read(RoleLight)
			}
			x.sensors[tag] = x.light
		case ci.TagFootBotBaseGround:
			x.base = groundOf(baseGroundOffsets())
			x.sensors[tag] = x.base
			err = read(RoleBaseGround)
		case ci.TagFootBotMotorGround, ci.TagGround:
			if x.motor == nil {
				x.motor = groundOf(motorGroundOffsets)
				err = read(RoleMotorGround)
			}
			x.sensors[tag] = x.motor
		case ci.TagDifferentialSteering:
			x.enc = &Encoders{}
			x.enc.reading.WheelAxisLength = b.Geometry.Axle * 100
			x.sensors[tag] = x.enc
			err = read(RoleLeftSpeed, RoleRightSpeed)
			if err == nil {
				if _, ok := b.Aseba.Var(RoleLeftOdometry); ok {
					err = read(RoleLeftOdometry, RoleRightOdometry)
				}
			}
		case ci.TagBattery:
			x.batt = &Battery{}
			x.sensors[tag] = x.batt
			err = read(RoleCharge, RoleTimeLeft)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, tag := range d.Actuators {
		switch tag {
		case ci.TagDifferentialSteering:
			x.wheels = &Wheels{}
			x.actuators[tag] = x.wheels
		case ci.TagLEDs:
			x.leds = realrobot.NewLEDs(b.Geometry.LEDs)
			x.leds.SetAllColors(ci.Black)
			x.actuators[tag] = x.leds
			if _, err := need(RoleLEDs); err != nil {
				return nil, err
			}
		}
	}
	// The wheel targets are read every tick too: the motor nodes must
	// answer even when no sensor is declared, or the tick fails.
	if err := read(RoleLeftTarget, RoleRightTarget); err != nil {
		return nil, err
	}
	link.OnReconnect = x.stopWrites
	if err := x.Stop(); err != nil {
		return nil, fmt.Errorf("footbot: stopping the wheels: %w", err)
	}
	if err := x.Sense(); err != nil {
		return nil, fmt.Errorf("footbot: first reading: %w", err)
	}
	return x, nil
}

func groundOf(offsets []ci.Vector2) *Ground {
	g := &Ground{readings: make([]ci.GroundReading, len(offsets))}
	for i, o := range offsets {
		g.readings[i].Offset = o
	}
	return g
}

func (x *Driver) v(role string) boards.AsebaVar {
	v, _ := x.b.Aseba.Var(role)
	return v
}

func unit01(v boards.AsebaVar, r int16) float64 { return math.Max(0, math.Min(1, float64(r)*v.Unit)) }

func (x *Driver) stopWrites() []aseba.Write {
	return []aseba.Write{{Var: x.v(RoleLeftTarget), Values: []int16{0}}, {Var: x.v(RoleRightTarget), Values: []int16{0}}}
}

// Sense reads the declared sensors.
func (x *Driver) Sense() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.sup.BeginSense()
	if err := x.link.Fetch(x.reads, x.buf); err != nil {
		return fmt.Errorf("footbot: %w", err)
	}
	var speed, odo [2]int16
	var haveOdo bool
	for i, v := range x.reads {
		b := x.buf[i]
		switch v.Role {
		case RoleProximity:
			for k := range x.prox.Len() {
				x.prox.Set(k, unit01(v, b[k]))
			}
		case RoleLight:
			for k := range x.light.Len() {
				x.light.Set(k, unit01(v, b[k]))
			}
		case RoleBaseGround:
			for k := range x.base.readings {
				x.base.readings[k].Value = unit01(v, b[k])
			}
		case RoleMotorGround:
			for k := range x.motor.readings {
				x.motor.readings[k].Value = unit01(v, b[k])
			}
		case RoleLeftSpeed:
			speed[0] = b[0]
		case RoleRightSpeed:
			speed[1] = b[0]
		case RoleLeftOdometry:
			odo[0], haveOdo = b[0], true
		case RoleRightOdometry:
			odo[1] = b[0]
		case RoleCharge:
			x.batt.reading.AvailableCharge = unit01(v, b[0])
		case RoleTimeLeft:
			x.batt.reading.TimeLeft = float64(b[0]) * v.Unit
		}
	}
	if x.enc != nil {
		r := &x.enc.reading
		r.VelocityLeft = float64(speed[0]) * x.v(RoleLeftSpeed).Unit
		r.VelocityRight = float64(speed[1]) * x.v(RoleRightSpeed).Unit
		if haveOdo {
			if x.haveOdo {
				u := x.v(RoleLeftOdometry).Unit
				r.CoveredDistanceLeft = float64(odo[0]-x.odo[0]) * u
				r.CoveredDistanceRight = float64(odo[1]-x.odo[1]) * u
			}
			x.odo, x.haveOdo = odo, true
		}
	}
	return nil
}

// Act writes the wheel targets and the LEDs.
func (x *Driver) Act() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	mark := x.sup.BeginAct()
	if x.sup.Superseded(mark) {
		return fmt.Errorf("footbot: %w", realrobot.ErrSuperseded)
	}
	var ws []aseba.Write
	if x.wheels != nil {
		lv, rv := x.v(RoleLeftTarget), x.v(RoleRightTarget)
		lim := x.b.Geometry.MaxWheelSpeed * lv.Unit // cm/s
		clamp := func(s float64) float64 { return math.Max(-lim, math.Min(lim, s)) }
		ws = append(ws, aseba.Write{Var: lv, Values: []int16{aseba.Raw(lv, clamp(x.wheels.left))}},
			aseba.Write{Var: rv, Values: []int16{aseba.Raw(rv, clamp(x.wheels.right))}})
	}
	if x.leds != nil {
		ws = append(ws, aseba.LEDWrite(x.v(RoleLEDs), x.leds.Colors()))
	}
	if len(ws) == 0 {
		return nil
	}
	if err := x.link.Store(ws, func() bool { return x.sup.Superseded(mark) }); err != nil {
		if errors.Is(err, aseba.ErrSuperseded) {
			return fmt.Errorf("footbot: %w", realrobot.ErrSuperseded)
		}
		return fmt.Errorf("footbot: %w", err)
	}
	return nil
}

// Stop writes zero wheel targets and reads them back; during an exchange
// it writes them at once without reading back.
func (x *Driver) Stop() error {
	err := x.link.Stop(&x.mu, x.stopWrites(), x.sup.Stopped, func() error {
		got := [][]int16{{1}, {1}}
		vars := []boards.AsebaVar{x.v(RoleLeftTarget), x.v(RoleRightTarget)}
		if err := x.link.Fetch(vars, got); err != nil {
			return fmt.Errorf("checking the stop: %w", err)
		}
		if got[0][0] != 0 || got[1][0] != 0 {
			return errors.New("the motor nodes did not take the zero speed targets")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("footbot: stopping the wheels: %w", err)
	}
	return nil
}

// Sensor returns the declared sensor with the tag.
func (x *Driver) Sensor(tag string) (any, bool) { v, ok := x.sensors[tag]; return v, ok }

// Actuator returns the declared actuator with the tag.
func (x *Driver) Actuator(tag string) (any, bool) { v, ok := x.actuators[tag]; return v, ok }

// Close closes the link.
func (x *Driver) Close() error { return x.link.Close() }

// ProtocolKey is the key of the driver in realrobot.Protocols: the
// Aseba protocol for a foot-bot.
const ProtocolKey = string(boards.ProtocolAseba) + "/foot-bot"

func init() {
	realrobot.Protocols.MustRegister(ProtocolKey,
		"foot-bot: Aseba over TCP to an Aseba switch, or serial; devices mapped onto node variables by the board",
		func(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (realrobot.Driver, error) {
			return Open(b, d, log)
		})
}
