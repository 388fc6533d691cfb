// Package emulator is the firmware side of the real robots' protocols,
// backed by simulated robots so that the loop is closed: the wheel
// commands a robot driver sends move a robot of the simulator, and the
// sensor values it reads are what that robot senses in the simulated
// arena. Tests, CI and hardware-in-the-loop runs drive the very drivers
// of realrobot (and the cross-compiled robot binary) against it.
//
// This package runs the simulator in real time ([Sim]) and hands out
// each emulated robot as a [Body]; the protocol packages serve a
// protocol from a Body: emulator/epuck (advanced sercom on a
// pseudo-terminal, the e-puck2's I²C frames on an emulated periph bus)
// and emulator/aseba (an Aseba network of foot-bot or eye-bot nodes over
// TCP). argos emulate (package emulator/hil) puts them together for runs of a
// robot binary.
//
// An emulated robot is a robot of the .argos file whose controller is
// replaced by a bridge (registered as [BridgeLabel]): the bridge's
// ControlStep copies what the robot's simulated sensors read into the
// Body and applies the wheel speeds the emulated firmware received. The
// other robots of the file keep their controllers.
//
// The emulator is never linked into the robot binary.
package emulator

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/sirupsen/logrus"
)

// BridgeLabel is the controller label of the bridge that replaces an
// emulated robot's controller.
const BridgeLabel = "emulator_bridge"

// Pose is a robot's pose in the arena: metres and radians.
type Pose struct {
	X, Y, Yaw float64
	// Tick is the simulator tick of the pose.
	Tick int
	// At is when the tick ran (wall clock).
	At time.Time
}

// Reading is what an emulated robot senses, as the simulator computes it:
// readings in [0, 1] in the order of ARGoS's model, wheel speeds in m/s.
type Reading struct {
	Proximity []float64
	Light     []float64
	// Ground are the floor's brightness under the probe points given to
	// the robot (Options.Ground), in [0, 1].
	Ground []float64
	// Wheels are the wheel speeds the physics applied (m/s, left, right).
	Wheels [2]float64
	// Odometry is the distance each wheel rolled since the start (m).
	Odometry [2]float64
	// Pose is the robot's pose; YawRate its angular speed (rad/s).
	Pose    Pose
	YawRate float64
	// Ahead is the distance from the body's edge to the first obstacle
	// straight ahead, up to 2 m (m); -1 when nothing is that close.
	Ahead float64
	// Altitude is the height of the body's bottom (m).
	Altitude float64
}

// Body is an emulated robot as the firmware sees it. Its methods are safe
// for concurrent use.
type Body interface {
	// Sense returns what the robot senses now.
	Sense() Reading
	// SetWheels sets the wheel speeds in m/s; they act from the next
	// simulator tick on.
	SetWheels(left, right float64)
}

// Options say how to emulate one robot.
type Options struct {
	// Ground are points in the robot's frame (m, X forward, Y left) where
	// the floor's brightness is read.
	Ground []ci.Vector2
	// AheadHeight is the height of the "ahead" ray above the body's
	// bottom (m); 0 means 0.03.
	AheadHeight float64
}

// Robot is a simulated robot the emulator exposes as a Body.
type Robot struct {
	id   string
	opt  Options
	idx  int
	mu   sync.Mutex
	cmd  [2]float64 // m/s commanded by the firmware
	read Reading
	traj []Pose
}

var _ Body = (*Robot)(nil)

// ID returns the robot's id in the experiment.
func (r *Robot) ID() string { return r.id }

// Sense returns the robot's last reading; the slices are copies.
func (r *Robot) Sense() Reading {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.read
	out.Proximity = slices.Clone(r.read.Proximity)
	out.Light = slices.Clone(r.read.Light)
	out.Ground = slices.Clone(r.read.Ground)
	return out
}

// SetWheels sets the wheel speeds (m/s).
func (r *Robot) SetWheels(left, right float64) {
	if math.IsNaN(left) || math.IsNaN(right) {
		left, right = 0, 0
	}
	r.mu.Lock()
	r.cmd = [2]float64{left, right}
	r.mu.Unlock()
}

// Trajectory returns the robot's poses, one per tick since the start.
func (r *Robot) Trajectory() []Pose {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.traj)
}

// bridge is the controller of an emulated robot.
type bridge struct {
	r      *Robot
	wheels ci.DifferentialSteeringActuator
	prox   ci.Proximity
	light  ci.Light
}

func (b *bridge) Init(r ci.Robot, _ ci.Params) error {
	var err error
	if b.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	for _, tag := range []string{ci.TagProximity} {
		if b.prox, err = ci.GetSensor[ci.Proximity](r, tag); err != nil {
			return err
		}
	}
	if _, ok := r.Sensor(ci.TagLight); ok {
		if b.light, err = ci.GetSensor[ci.Light](r, ci.TagLight); err != nil {
			return err
		}
	}
	return nil
}

// ControlStep copies the readings into the Body and applies the
// firmware's wheel command. It runs in the simulator's parallel phase and
// touches only its own robot.
func (b *bridge) ControlStep() {
	if b.r == nil {
		return // the first sensing, before the emulator attached
	}
	b.r.mu.Lock()
	defer b.r.mu.Unlock()
	pr := b.prox.Readings()
	b.r.read.Proximity = b.r.read.Proximity[:0]
	for _, p := range pr {
		b.r.read.Proximity = append(b.r.read.Proximity, p.Value)
	}
	b.r.read.Light = b.r.read.Light[:0]
	if b.light != nil {
		for _, l := range b.light.Readings() {
			b.r.read.Light = append(b.r.read.Light, l.Value)
		}
	}
	b.wheels.SetLinearVelocity(b.r.cmd[0]*100, b.r.cmd[1]*100)
}

func (b *bridge) Reset()         {}
func (b *bridge) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister(BridgeLabel,
		"Emulator bridge (package emulator): hands a simulated robot to emulated firmware; not for experiment files.",
		func() ci.Controller { return &bridge{} })
}

// Sim runs an experiment in real time with some of its robots emulated.
// Make it with NewSim, then Start; Close stops it.
type Sim struct {
	log    logrus.FieldLogger
	mu     sync.Mutex // guards sim
	sim    *simulator.Simulator
	robots []*Robot
	tick   time.Duration
	cancel context.CancelFunc
	done   chan error
}

// NewSim builds the experiment with the robots of ids emulated (each with
// its options, in the same order; a missing entry means zero Options).
// Emulated robots must be placed explicitly in the arena (not by
// <distribute>). The experiment is modified.
func NewSim(exp *config.Experiment, ids []string, opts []Options, log logrus.FieldLogger) (*Sim, error) {
	if log == nil {
		l := logrus.New()
		l.SetLevel(logrus.WarnLevel)
		log = l
	}
	robots := make([]*Robot, len(ids))
	for k, id := range ids {
		r := &Robot{id: id, idx: -1}
		if k < len(opts) {
			r.opt = opts[k]
		}
		if r.opt.AheadHeight == 0 {
			r.opt.AheadHeight = 0.03
		}
		robots[k] = r
		if err := bridgeRobot(exp, id); err != nil {
			return nil, err
		}
	}
	sim, err := simulator.New(exp, simulator.Options{Logger: log, Headless: true})
	if err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	for i := range sim.NumRobots() {
		for _, r := range robots {
			if sim.Robot(i).ID == r.id {
				r.idx = i
				b := sim.Controller(i).(*bridge)
				b.r = r
				b.ControlStep() // the readings of the start, sensed by New
			}
		}
	}
	s := &Sim{log: log, sim: sim, robots: robots, tick: time.Duration(sim.TickLength() * float64(time.Second))}
	s.mu.Lock()
	s.observe()
	s.mu.Unlock()
	return s, nil
}

// bridgeRobot gives robot id a bridge controller with the devices the
// emulator reads.
func bridgeRobot(exp *config.Experiment, id string) error {
	var node *config.Node
	for _, n := range exp.Arena.Children {
		if v, _ := n.Attr("id"); v == id && n.Name != "distribute" {
			node = n
		}
	}
	if node == nil {
		return fmt.Errorf("emulator: the arena of %s has no robot %q placed explicitly; emulated robots cannot come from <distribute>", exp.File, id)
	}
	ctrl := node.FirstChild("controller")
	if ctrl == nil {
		return node.Errorf("emulator: robot %q has no <controller config=\"...\"/>", id)
	}
	cid := "__emulator_" + id
	dev := func(tag string) config.Device {
		return config.Device{Tag: tag, Implementation: "default", Node: &config.Node{Name: tag, File: exp.File, Line: ctrl.Line}}
	}
	c := &config.Controller{Label: BridgeLabel, ID: cid, Node: ctrl, Params: ci.Params{Name: "params", Attrs: map[string]string{}},
		Actuators: []config.Device{dev(ci.TagDifferentialSteering)},
		Sensors:   []config.Device{dev(ci.TagProximity), dev(ci.TagDifferentialSteering)},
	}
	if _, err := devices.Sensors.Lookup(ci.TagLight); err == nil {
		c.Sensors = append(c.Sensors, dev(ci.TagLight))
	}
	exp.Controllers = append(exp.Controllers, c)
	for i, a := range ctrl.Attrs {
		if a.Name == "config" {
			ctrl.Attrs[i].Value = cid
			return nil
		}
	}
	ctrl.Attrs = append(ctrl.Attrs, config.Attr{Name: "config", Value: cid})
	return nil
}

// Robot returns the emulated robot with the id, or nil.
func (s *Sim) Robot(id string) *Robot {
	for _, r := range s.robots {
		if r.id == id {
			return r
		}
	}
	return nil
}

// TickLength returns the simulator's tick.
func (s *Sim) TickLength() time.Duration { return s.tick }

// Step runs one tick now (tests that do not need real time).
func (s *Sim) Step() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.sim.Step(); err != nil {
		return err
	}
	s.observe()
	return nil
}

// observe reads the emulated robots' extra readings after a tick (on the
// goroutine that steps, so it may read the space).
func (s *Sim) observe() {
	tl := s.sim.TickLength()
	now := time.Now()
	world := s.sim.World()
	sp := s.sim.Space()
	for _, r := range s.robots {
		if r.idx < 0 {
			continue
		}
		er := s.sim.Robot(r.idx)
		b := er.B()
		// the ray straight ahead, from the body's edge
		h := b.Heading()
		from := b.Pos.Add(h.Scale(b.Radius))
		const reach = 2.0
		t, hit := sp.CastRay(from, from.Add(h.Scale(reach)), b.Z+r.opt.AheadHeight, er.Body)
		ahead := -1.0
		if hit >= 0 {
			ahead = t * reach
		}
		r.mu.Lock()
		r.read.Wheels = er.Wheels
		if s.sim.Tick() > 0 {
			r.read.Odometry[0] += er.Wheels[0] * tl
			r.read.Odometry[1] += er.Wheels[1] * tl
		}
		r.read.Pose = Pose{X: b.Pos.X, Y: b.Pos.Y, Yaw: b.Yaw, Tick: s.sim.Tick(), At: now}
		r.read.YawRate = b.AngVel
		r.read.Ahead = ahead
		r.read.Altitude = b.Z
		r.read.Ground = r.read.Ground[:0]
		for _, o := range r.opt.Ground {
			p := b.Pos.Add(o.Rotate(b.Yaw))
			c := world.FloorColor(p)
			r.read.Ground = append(r.read.Ground, (float64(c.R)+float64(c.G)+float64(c.B))/(3*255))
		}
		r.traj = append(r.traj, r.read.Pose)
		r.mu.Unlock()
	}
}

// Start runs the simulator in real time on its own goroutine until
// Close. A tick that takes longer than its period delays the next one.
func (s *Sim) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.done = make(chan error, 1)
	go func() {
		t := time.NewTicker(s.tick)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				s.done <- nil
				return
			case <-t.C:
				if err := s.Step(); err != nil {
					s.log.Errorf("emulator: simulator stopped: %v", err)
					s.done <- err
					return
				}
			}
		}
	}()
}

// Close stops the real-time loop and the simulator; it returns the
// simulator's error, if it stopped on one.
func (s *Sim) Close() error {
	var err error
	if s.cancel != nil {
		s.cancel()
		err = <-s.done
		s.cancel = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(err, s.sim.Close())
}

// Summary describes a trajectory in one line: the first and last poses
// and the largest x reached.
func Summary(traj []Pose) string {
	if len(traj) == 0 {
		return "no poses"
	}
	a, b := traj[0], traj[len(traj)-1]
	maxX := a.X
	for _, p := range traj {
		maxX = math.Max(maxX, p.X)
	}
	return fmt.Sprintf("%d poses from (%.3f, %.3f, %.0f°) to (%.3f, %.3f, %.0f°), max x %.3f",
		len(traj), a.X, a.Y, a.Yaw*180/math.Pi, b.X, b.Y, b.Yaw*180/math.Pi, maxX)
}
