package simulator

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/internal/prefetch"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
	"github.com/sirupsen/logrus"
)

// Simulator runs one experiment. Build it with New; it is not safe for
// concurrent use (it runs its own parallel phases inside Step).
type Simulator struct {
	exp      *config.Experiment
	log      logrus.FieldLogger
	seed     uint64
	threads  int
	tickLen  float64
	maxTicks int
	tick     int

	sp      *space.Space
	engines []physics.Engine
	robots  []*robot
	world   *entity.World
	media   []Medium
	byID    map[string]int // entity id -> body handle
	// unknownCtrl holds, for the robots whose controller id <controllers>
	// does not define (an error at build), that id
	unknownCtrl map[*robot]string
	loop        LoopFunctions
	user        UserFunctions // userfuncs.go
	vis         []Visualization
	pool        *pool
	serialBelow int // Options.SerialBelow: fewer robots make a tick serial
	closed      bool
	failed      error
	jobs        jobs
	// panicked is, per chunk of robots, the first robot of the chunk whose
	// controller panicked in the last sense and control phase, and how
	// (kept here rather than in every robot record: panics are rare).
	panicked []robotPanic
	migrate  []int
	leaving  int          // the engine whose bodies migrateBodies checks
	left     []bool       // per body of that engine: it left the engine
	metrics  metricsState // metrics.go
	outDir   string       // Options.OutputDir
	coord    coordState   // coordinate.go
	spots    spotSources  // spots.go
	own      ownership    // assign.go
	index    indexNeed    // mobile_index.go
	// act: whether some robot has an actuator the act phase calls, as
	// of the first act.scan robots (acting)
	act struct {
		any  bool
		scan int
	}
	// selected is the entity the viewer selected (userfuncs.go).
	selected string
	// slab is where robots and their device lists are made (build.go).
	slab struct {
		robots []robot
		// prefaulted is a <distribute>'s slab of robots while its
		// pages are written (prepareAhead)
		prefaulted []robot
		sens       slabOf[devices.Sensor]
		acts       slabOf[devices.Actuator]
		// lastCtrl is the <controllers> entry of the last robot made,
		// which the next one most often shares
		lastCtrl *config.Controller
	}
}

// robot is a simulated robot with its controller and devices. Robots are
// made in slabs (robotSlab), so that the robots of a tick's chunk, and
// their device lists, lie next to each other in memory.
type robot struct {
	// read every tick
	removed bool
	// bit i set: device i (of the first 8) has nothing to do at a tick
	// (tickless, media_channel.go); the act and sense phases skip it
	idleActs, idleSens uint8
	// nSens and nActs are the lengths of the device lists at sens and
	// acts (at most maxDevices each)
	nSens, nActs uint8
	ctrl         ci.Controller
	// sens and acts point at the robot's sensors and actuators in the
	// device slabs (read through sensors and actuators, set through
	// setDevices): two pointers instead of two slice headers save a
	// million robots 32 MB
	sens *devices.Sensor
	acts *devices.Actuator
	entity.Robot

	// read when asked
	// entry is the robot's <controllers> entry (nil when <controllers> has
	// none of the robot's controller id, which is then in
	// Simulator.unknownCtrl): its Sensors and Actuators are the tags of
	// sens and acts, in that order, for the controller's Sensor and
	// Actuator.
	entry   *config.Controller
	metrics *robotMetrics // metrics.go; nil unless Options.Metrics
	// the robot's first random stream (Robot.Rand), made with the robot
	pcg rand.PCG
	rnd rand.Rand
}

// allIdle reports whether every one of a robot's n sensors or
// actuators is marked idle (tickless) in idle: the act and sense phases
// then skip the robot's list. Past eight devices it is false (1<<n-1
// exceeds any mark).
func allIdle(idle, n uint8) bool { return uint(idle) == 1<<n-1 }

// maxDevices is the most sensors, and the most actuators, a robot can have.
const maxDevices = math.MaxUint8

// sensors returns the robot's sensors, in the order of its controller
// entry's <sensors>.
func (r *robot) sensors() []devices.Sensor { return unsafe.Slice(r.sens, r.nSens) }

// actuators returns the robot's actuators, in the order of its controller
// entry's <actuators>.
func (r *robot) actuators() []devices.Actuator { return unsafe.Slice(r.acts, r.nActs) }

// setDevices makes sens and acts (at most maxDevices long each) the
// robot's device lists; the robot then refers to their elements.
func (r *robot) setDevices(sens []devices.Sensor, acts []devices.Actuator) {
	if len(sens) > maxDevices || len(acts) > maxDevices {
		panic(fmt.Sprintf("simulator: %d sensors and %d actuators, more than %d", len(sens), len(acts), maxDevices))
	}
	r.sens, r.nSens, r.acts, r.nActs = unsafe.SliceData(sens), uint8(len(sens)), unsafe.SliceData(acts), uint8(len(acts))
}

// device returns the robot's sensor (or actuator) of tag: the first one
// its controller entry declares.
func (r *robot) device(tag string, actuator bool) (any, bool) {
	if r.entry == nil {
		return nil, false
	}
	if actuator {
		for i := range r.entry.Actuators {
			if r.entry.Actuators[i].Tag == tag && i < int(r.nActs) {
				return r.actuators()[i], true
			}
		}
		return nil, false
	}
	for i := range r.entry.Sensors {
		if r.entry.Sensors[i].Tag == tag && i < int(r.nSens) {
			return r.sensors()[i], true
		}
	}
	return nil, false
}

// handle is what a controller sees of its robot.
type handle struct{ r *robot }

func (h handle) ID() string                      { return h.r.ID }
func (h handle) Rand() *rand.Rand                { return h.r.Rand }
func (h handle) Sensor(tag string) (any, bool)   { return h.r.device(tag, false) }
func (h handle) Actuator(tag string) (any, bool) { return h.r.device(tag, true) }

// Space returns the arena and its bodies.
func (s *Simulator) Space() *space.Space { s.freshIndex(); return s.sp }

// Tick returns the number of ticks run since the start (or the last Reset).
func (s *Simulator) Tick() int { return s.tick }

// TickLength returns the duration of a tick in seconds.
func (s *Simulator) TickLength() float64 { return s.tickLen }

// MaxTicks returns the experiment length in ticks (0: no limit).
func (s *Simulator) MaxTicks() int { return s.maxTicks }

// Seed returns the seed the run uses.
func (s *Simulator) Seed() uint64 { return s.seed }

// Threads returns the number of goroutines the parallel phases use.
func (s *Simulator) Threads() int { return s.threads }

// Experiment returns the experiment the simulator was built from.
func (s *Simulator) Experiment() *config.Experiment { return s.exp }

// Logger returns the simulator's logger.
func (s *Simulator) Logger() logrus.FieldLogger { return s.log }

// Engines returns the physics engines in file order.
func (s *Simulator) Engines() []physics.Engine { return s.engines }

// Lights returns the lights of the arena.
func (s *Simulator) Lights() []*entity.Light { return s.world.Lights }

// World returns what devices and media read: space, lights, floor, media.
func (s *Simulator) World() *entity.World { return s.world }

// LoopFunctions returns the experiment's loop functions (nil without
// <loop_functions>), as ARGoS's GetLoopFunctions: tests and tools read
// their measures through their own type.
func (s *Simulator) LoopFunctions() LoopFunctions { return s.loop }

// NumRobots returns the number of robots.
func (s *Simulator) NumRobots() int { return len(s.robots) }

// Robot returns robot i (0 <= i < NumRobots()), in arena order.
func (s *Simulator) Robot(i int) *entity.Robot { return &s.robots[i].Robot }

// Controller returns the controller of robot i, for loop functions that
// read their robots' state as ARGoS's do.
func (s *Simulator) Controller(i int) ci.Controller { return s.robots[i].ctrl }

// Step runs one tick.
func (s *Simulator) Step() (err error) {
	if s.closed {
		return errStopped
	}
	if s.failed != nil {
		return s.failed
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("simulator: internal error at tick %d: %v", s.tick+1, r)
		}
		if err != nil {
			s.failed = err
			s.stopRobots()
		}
	}()
	s.tick++
	// a small tick runs on this goroutine alone (Options.SerialBelow)
	s.pool.serial = len(s.robots) < s.serialBelow
	// 1. act (no pass when no robot has an actuator to call)
	if s.acting() {
		s.pool.Run(s.robotChunks(), s.jobs.act)
	}
	// 1b. grips and other changes to the engines' structure
	if err := s.coordinate(); err != nil {
		return err
	}
	// 2. physics
	s.pool.Run(len(s.engines), s.jobs.step)
	s.pool.Run(len(s.engines), s.jobs.commit)
	if err := s.migrateBodies(); err != nil {
		return err
	}
	s.reindex() // mobile_index.go: skipped when nothing queries it
	// 3. media
	s.updateWorld()
	// 4. loop functions
	if s.loop != nil {
		s.loop.PreStep()
	}
	// 5. sense and control
	if err := s.senseControl(); err != nil {
		return err
	}
	// 6. loop functions and visualizations
	if s.loop != nil {
		s.loop.PostStep()
	}
	return s.draw()
}

// jobs are the parallel phases of a tick, made once (see makeJobs) so
// that a tick allocates nothing.
type jobs struct {
	act, sense   func(chunk int) // robots in chunks of robotChunk
	step, commit func(engine int)
	leaving      func(chunk int) // migrateBodies: which bodies left s.leaving
}

const robotChunk = 64

func (s *Simulator) makeJobs() {
	s.jobs.act = s.eachRobot(func(r *robot) {
		if allIdle(r.idleActs, r.nActs) {
			return // no call, no list (agents of a custom engine on a channel)
		}
		for i, a := range r.actuators() {
			if r.idleActs>>i&1 == 0 {
				a.Apply()
			}
		}
	})
	s.jobs.sense = func(c int) {
		robots := s.robots[c*robotChunk : min((c+1)*robotChunk, len(s.robots))]
		first := robotPanic{}
		for k := 0; k < len(robots); {
			var p robotPanic
			k, p = senseControl(robots, k)
			if first.r == nil {
				first = p
			}
		}
		s.panicked[c] = first
	}
	s.jobs.step = func(i int) { s.engines[i].Step(s.tickLen, s.pool) }
	s.jobs.commit = func(i int) { s.engines[i].Commit(s.pool) }
	s.jobs.leaving = func(c int) {
		e, bodies := s.engines[s.leaving], s.engines[s.leaving].Bodies()
		for k := c * migrateChunk; k < min((c+1)*migrateChunk, len(bodies)); k++ {
			b := &s.sp.Bodies[bodies[k]]
			s.left[k] = !s.pinnedBody(bodies[k]) && !physics.Contains(e, ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z})
		}
	}
}

// acting reports whether some robot has an actuator that the act phase
// calls (not tickless: exact wheels, which apply their speeds as they
// are set, are not). Robots are only ever appended, their idle marks
// set when they are made, and a removed robot acts no more: the robots
// are scanned again only when there are more of them.
func (s *Simulator) acting() bool {
	if s.act.scan != len(s.robots) {
		s.act.any = slices.ContainsFunc(s.robots, func(r *robot) bool {
			return !r.removed && !allIdle(r.idleActs, r.nActs)
		})
		s.act.scan = len(s.robots)
	}
	return s.act.any
}

// eachRobot returns a job that calls fn for the robots of a chunk.
func (s *Simulator) eachRobot(fn func(r *robot)) func(c int) {
	return func(c int) {
		for _, r := range s.robots[c*robotChunk : min((c+1)*robotChunk, len(s.robots))] {
			if !r.removed {
				fn(r)
			}
		}
	}
}

// robotChunks returns the number of robot chunks.
func (s *Simulator) robotChunks() int { return (len(s.robots) + robotChunk - 1) / robotChunk }

// updateWorld refreshes what sensors read besides the bodies: the laser
// spots, then the media (who sees which LED, who hears whom).
func (s *Simulator) updateWorld() {
	s.publishSpots() // spots.go
	for _, m := range s.media {
		m.Update(s.pool)
	}
}

func (s *Simulator) senseControl() error {
	chunks := s.robotChunks()
	s.panicked = slices.Grow(s.panicked[:0], chunks)[:chunks]
	s.pool.Run(chunks, s.jobs.sense)
	// the first robot whose controller panicked, found without reading
	// every robot (a million of them cost a millisecond a tick)
	first := slices.IndexFunc(s.panicked, func(p robotPanic) bool { return p.r != nil })
	if first < 0 {
		return nil
	}
	r, p := s.panicked[first].r, s.panicked[first].p
	if cp, ok := p.(*controllerPanic); ok { // panics.go
		s.log.Debugf("controller %q of %s %q panicked at tick %d:\n%s", s.ctrlID(r), r.Model.Type, r.ID, s.tick, cp.stack)
	}
	return fmt.Errorf("simulator: controller %q of %s %q panicked at tick %d: %v; all robots were stopped",
		s.ctrlID(r), r.Model.Type, r.ID, s.tick, p)
}

// robotPanic is a robot whose controller panicked, and how; r is nil
// for none.
type robotPanic struct {
	r *robot
	p any
}

// ctrlID returns the id of the robot's controller in <controllers>.
func (s *Simulator) ctrlID(r *robot) string {
	if r.entry != nil {
		return r.entry.ID
	}
	return s.unknownCtrl[r]
}

// senseControl updates the sensors of robots[k:] and runs their
// controllers, under one deferred recover rather than one per robot: a
// controller's panic is kept in its robot, and the caller goes on after
// it (next). A sensor's panic is not a controller's: it goes up.
func senseControl(robots []*robot, k int) (next int, panicked robotPanic) {
	i, inCtrl := k, false
	defer func() {
		if inCtrl {
			if p := recover(); p != nil {
				next, panicked = i+1, robotPanic{robots[i], caught(p)} // panics.go
			}
		}
	}()
	for ; i < len(robots); i++ {
		// the memory of the robots ahead, asked for now, arrives while
		// this one runs (see prefetch)
		if j := i + prefetchAhead; j < len(robots) {
			robots[j].prefetch()
			if j += prefetchAhead; j < len(robots) {
				robots[j].prefetchSelf()
			}
		}
		r := robots[i]
		if r.removed {
			continue
		}
		if !allIdle(r.idleSens, r.nSens) {
			for j, sen := range r.sensors() {
				if r.idleSens>>j&1 == 0 {
					sen.Update()
				}
			}
		}
		inCtrl = true
		r.ctrl.ControlStep()
		inCtrl = false
	}
	return i, robotPanic{}
}

// prefetchAhead is how many robots ahead of the one it runs senseControl
// asks for the memory of each robot (prefetch), and twice that for the
// robot's own (prefetchSelf): a robot's step follows pointers from the
// robot to its sensor, body, controller and actuator, each elsewhere in
// memory, and late in a dense run, when most robots are jammed and
// their sensors keep their readings, little else happens in a step: it
// waits for one line after another. Asked for ahead, they arrive
// together: at 100,000 e-pucks a tick of minute 10 cost 7 to 10 % less,
// and one of minute 1 some 7 % (one robot ahead instead of three: 3 %;
// six: 7 %); the actuator too, 2 % less at minute 10.
const prefetchAhead = 3

// prefetch asks for the memory senseControl reads of the robot besides
// the robot itself: its controller, its first sensor and actuator (which
// the controller sets) and its body. It reads the robot (prefetchSelf
// asked for it earlier).
func (r *robot) prefetch() {
	prefetch.Line(ifaceData(unsafe.Pointer(&r.ctrl)))
	if r.nSens > 0 {
		prefetch.Line(ifaceData(unsafe.Pointer(r.sens)))
	}
	if r.nActs > 0 {
		prefetch.Line(ifaceData(unsafe.Pointer(r.acts)))
	}
	if sp := r.Space; sp != nil && uint(r.Body) < uint(len(sp.Bodies)) {
		prefetch.Line(unsafe.Pointer(&sp.Bodies[r.Body]))
	}
}

// prefetchSelf asks for the first two cache lines of the robot: what
// senseControl and prefetch read of it.
func (r *robot) prefetchSelf() {
	prefetch.Line(unsafe.Pointer(r))
	prefetch.Line(unsafe.Add(unsafe.Pointer(r), 64))
}

// ifaceData returns the data word of the interface value at p: the
// pointer to the value it holds (for pointer types, the pointer itself),
// or nil. (An interface value is two words, the type's and the data's.)
func ifaceData(p unsafe.Pointer) unsafe.Pointer { return (*[2]unsafe.Pointer)(p)[1] }

// stopRobots sets every wheel to zero, so that nothing moves after a
// failure.
func (s *Simulator) stopRobots() {
	for _, r := range s.robots {
		r.SetWheels(0, 0)
	}
}

const migrateChunk = 1024

// migrateBodies hands every body that left its engine to the first engine
// that contains it, in body order. Which bodies left is checked in
// parallel; the hand-over runs on this goroutine (engines create cp
// bodies when they take one).
func (s *Simulator) migrateBodies() error {
	for ei, e := range s.engines {
		if e.Region() == nil {
			continue // an engine keeps its bodies in its own domain (a plane, say): only a region can be left
		}
		bodies := e.Bodies()
		n := len(bodies)
		s.left = slices.Grow(s.left[:0], n)[:n]
		s.leaving = ei
		s.pool.Run((n+migrateChunk-1)/migrateChunk, s.jobs.leaving)
		s.migrate = s.migrate[:0]
		for k, gone := range s.left {
			if gone {
				s.migrate = append(s.migrate, bodies[k])
			}
		}
		for _, i := range s.migrate {
			b := &s.sp.Bodies[i]
			to := s.engineFor(b)
			if to < 0 {
				return fmt.Errorf("simulator: %s %q left physics engine %q at (%.3f, %.3f, %.3f) and no engine contains it; make the engines' <boundaries> cover the whole arena",
					b.Type, b.ID, e.ID(), b.Pos.X, b.Pos.Y, b.Z)
			}
			if to == ei {
				continue
			}
			e.Remove(i)
			if err := s.engines[to].Add(i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Simulator) draw() error {
	var errs []error
	for _, v := range s.vis {
		if err := v.Draw(s); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Finished reports whether the experiment is over: its length is reached
// or the loop functions say so.
func (s *Simulator) Finished() bool {
	if s.maxTicks > 0 && s.tick >= s.maxTicks {
		return true
	}
	return s.loop != nil && s.loop.IsExperimentFinished()
}

// Run steps until the experiment is finished, an error occurs or ctx is
// cancelled, then calls the loop functions' PostExperiment. A cancelled
// run returns ctx's error; results written by loop functions and
// visualizations cover the ticks that ran.
func (s *Simulator) Run(ctx context.Context) error {
	var err error
	for !s.Finished() {
		if err = ctx.Err(); err != nil {
			s.log.Warnf("run interrupted at tick %d", s.tick)
			break
		}
		if err = s.Step(); err != nil {
			break
		}
	}
	s.stopRobots()
	if s.loop != nil {
		s.loop.PostExperiment()
	}
	return err
}

// Reset brings the experiment back to its start: poses, controllers,
// random streams, loop functions, tick counter.
func (s *Simulator) Reset() error {
	if s.closed {
		return errStopped
	}
	s.tick = 0
	s.failed = nil
	for _, e := range s.engines {
		e.Reset()
	}
	s.sp.Reindex()
	for _, m := range s.media {
		m.Reset()
	}
	for _, o := range s.world.ObjectLEDs {
		o.Reset()
	}
	var errs []error
	for _, r := range s.robots {
		if r.removed {
			continue
		}
		// the stream starts again in place: a controller that kept the
		// *rand.Rand Init saw draws the replayed stream too
		r.pcg.Seed(s.seed, streamSeed(r.ID))
		r.Rand = &r.rnd
		r.SetWheels(0, 0)
		r.resetDevices() // coordinate.go
		r.ctrl.Reset()
	}
	if s.loop != nil {
		errs = append(errs, s.loop.Reset())
	}
	if r, ok := s.user.(Resetter); ok {
		r.Reset()
	}
	// As after New, the robots sense and act from tick 1 on.
	s.updateWorld()
	errs = append(errs, s.draw())
	return errors.Join(errs...)
}

// Close destroys the controllers and loop functions, flushes and closes
// the visualizations, and releases the engines and goroutines. It is safe
// to call more than once.
func (s *Simulator) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for _, r := range s.robots {
		if r.ctrl != nil && !r.removed {
			// (only the failures: a list of a million nils is 16 MB made
			// at the end of a run, and at the peak of its memory)
			if err := r.ctrl.Destroy(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if s.loop != nil {
		errs = append(errs, s.loop.Destroy())
	}
	if s.user != nil {
		errs = append(errs, s.user.Destroy())
	}
	for _, v := range s.vis {
		errs = append(errs, v.Close())
	}
	for _, m := range s.media {
		errs = append(errs, m.Close())
	}
	for _, e := range s.engines {
		errs = append(errs, e.Close())
	}
	if s.pool != nil {
		s.pool.close()
	}
	return errors.Join(errs...)
}
