package simulator

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	mrand "math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/internal/hugepage"
	"github.com/argosgo/argos/simulator/media"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
	"github.com/sirupsen/logrus"
)

// Options change how an experiment runs without editing its file.
type Options struct {
	// Logger receives the simulator's log; nil logs nothing.
	Logger logrus.FieldLogger
	// Seed, when set, replaces <experiment random_seed>.
	Seed *uint64
	// Threads, when set, replaces <system threads>.
	Threads *int
	// SerialBelow: a tick of fewer robots than this runs on the calling
	// goroutine even when there are threads, since waking them costs
	// more than they save on a small tick (SmallSwarm is the measured
	// threshold argos uses). 0 runs every tick on the threads, as ARGoS
	// does. The results are the same either way.
	SerialBelow int
	// Headless skips interactive visualizations (argos -z).
	Headless bool
	// Metrics turns on the recording of metrics (Simulator.Metrics,
	// ci.Metrics); whoever sets it drains them with TakeSamples after
	// every tick. Off, recording costs nothing.
	Metrics bool
	// OutputDir is where recorders (the text visualization) write the
	// files their elements name by a relative path; "" is the working
	// directory. It must exist.
	OutputDir string
	// largeArena replaces the constant largeArena (tests).
	largeArena int
}

// New builds a simulator for the experiment. On error nothing is left
// running.
func New(exp *config.Experiment, opt Options) (*Simulator, error) {
	return NewContext(context.Background(), exp, opt)
}

// NewContext is New that stops when ctx is cancelled (Ctrl-C during the
// set-up of a large arena), returning an error that wraps ctx's error.
func NewContext(ctx context.Context, exp *config.Experiment, opt Options) (sim *Simulator, err error) {
	log := opt.Logger
	if log == nil {
		l := logrus.New()
		l.SetOutput(discard{})
		log = l
	}
	s := &Simulator{exp: exp, log: log, outDir: opt.OutputDir}
	s.metrics.on = opt.Metrics
	defer func() {
		if err != nil {
			s.Close()
			sim = nil
		}
	}()
	fw := exp.Framework
	s.threads, s.serialBelow = fw.Threads, opt.SerialBelow
	if opt.Threads != nil {
		s.threads = *opt.Threads
	}
	if s.threads < 0 || s.threads > config.MaxThreads {
		return nil, fmt.Errorf("simulator: threads=%d: use 0 (no extra goroutines) or a positive number up to %d", s.threads, config.MaxThreads)
	}
	s.seed = fw.RandomSeed
	if opt.Seed != nil {
		s.seed = *opt.Seed
	}
	if s.seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		s.seed = binary.LittleEndian.Uint64(b[:])>>1 | 1
		log.Infof("random_seed is 0: using seed %d (pass --seed %d to repeat this run)", s.seed, s.seed)
	}
	s.tickLen = 1 / float64(fw.TicksPerSecond)
	s.maxTicks = fw.Ticks()
	s.pool = newPool(s.threads, fw.ThreadMethod)
	s.makeJobs()
	s.sp = space.New(exp.ArenaCenter, exp.ArenaSize)
	for _, w := range exp.Warnings {
		log.Warn(w)
	}

	for i, n := range exp.PhysicsEngines {
		f, err := physics.Engines.Lookup(n.Name)
		if err != nil {
			return nil, n.Errorf("simulator: <physics_engines>: %v", err)
		}
		e, err := f(n, physics.Env{Space: s.sp, Index: i, TickLength: s.tickLen})
		if err != nil {
			return nil, err
		}
		for _, o := range s.engines {
			if o.ID() == e.ID() {
				return nil, n.Errorf("simulator: two physics engines have id %q; give each a unique id", e.ID())
			}
		}
		s.engines = append(s.engines, e)
	}
	if err := s.parseOwnership(); err != nil { // assign.go
		return nil, err
	}
	s.world = &entity.World{Space: s.sp, Seed: s.seed, Engines: s.engines}
	for _, n := range exp.Media {
		f, err := Media.Lookup(n.Name)
		if err != nil {
			return nil, n.Errorf("simulator: <media>: %v", err)
		}
		id, err := n.String("id")
		if err != nil {
			return nil, err
		}
		m, err := f(n, s.world)
		if err != nil {
			return nil, err
		}
		s.media = append(s.media, m)
		if err := s.world.AddMedium(id, m); err != nil {
			return nil, n.Errorf("simulator: %v", err)
		}
	}
	gc := setUpGC{large: cmp.Or(opt.largeArena, largeArena)}
	defer gc.resume()
	if err := s.buildArena(ctx, &gc); err != nil {
		return nil, err
	}
	if err := s.assignEngines(); err != nil {
		return nil, err
	}
	s.sp.ReindexWith(s.pool) // as every tick does: on the run's threads
	s.collectSetUpGarbage(&gc)
	if err := s.buildControllers(ctx); err != nil {
		return nil, err
	}
	if lf := exp.LoopFunctions; lf != nil {
		f, err := LoopFunctionsTypes.Lookup(lf.Label)
		if err != nil {
			return nil, lf.Node.Errorf("simulator: <loop_functions>: %v", err)
		}
		s.loop = f()
		if err := s.loop.Init(s, lf.Node); err != nil {
			s.loop = nil
			return nil, fmt.Errorf("simulator: loop functions %q (%s): %w", lf.Label, lf.Node.Where(), err)
		}
	}
	if err := s.buildUserFunctions(opt.Headless); err != nil {
		return nil, err
	}
	for _, n := range exp.Visualizations {
		vt, err := Visualizations.Lookup(n.Name)
		if err != nil {
			if opt.Headless {
				log.Warnf("%s: visualization <%s> is not available; ignored because the run is headless", n.Where(), n.Name)
				continue
			}
			return nil, n.Errorf("simulator: <visualization>: %v; run headless (argos -z) to skip it", err)
		}
		if vt.Interactive && opt.Headless {
			continue
		}
		v, err := vt.New(n, s)
		if err != nil {
			return nil, err
		}
		s.vis = append(s.vis, v)
	}
	// The media show the starting state to the first draw. No robot
	// senses or acts yet: as in ARGoS, the first control step runs in
	// tick 1 and the wheel speeds it sets move the robot in tick 2.
	s.updateWorld()
	if err := s.draw(); err != nil {
		return nil, err
	}
	return s, nil
}

// collectSetUpGarbage runs the collector once the arena is built, its
// bodies given to the engines and indexed, when the placement, the drawn
// poses and the scratch lists of a large arena have just become garbage
// (some 350 MB for a million robots), so that the devices and controllers
// made next reuse their memory instead of growing the heap further; then
// the collector runs as before the set-up.
func (s *Simulator) collectSetUpGarbage(gc *setUpGC) {
	if len(s.sp.Bodies) >= gc.large {
		runtime.GC()
	}
	gc.resume()
}

// setUpGC pauses the collector while a large arena is built. The arena's
// lists (bodies, robots, engine objects, a million of each) grow the heap
// from nothing to about a gigabyte, and every doubling started a
// collection that marked everything made so far (some 1.5 s of CPU for a
// million robots), although nothing of it was garbage yet but the
// placement and the drawn poses, which collectSetUpGarbage takes at once
// when they are done with.
//
// The collector's setting is the process's: resume restores the one pause
// found, unless that was off already (GOGC=off, or another set-up that
// paused it and restores it itself), so that set-ups running side by side
// leave it as it was.
type setUpGC struct {
	large  int // bodies that make an arena large (largeArena)
	paused bool
	old    int // the percentage found (debug.SetGCPercent)
}

// pause turns the collector off for an arena of n entities, if large.
func (g *setUpGC) pause(n int) {
	if n >= g.large && !g.paused {
		g.old, g.paused = debug.SetGCPercent(-1), true
	}
}

// setUpBytes is about what the set-up of an e-puck puts on the heap, in
// bytes (its body, robot record, devices, controller, engine object and
// index entries; the peak of the set-up, with its scratch lists).
// Memory prepared but not used costs address space, not memory.
const setUpBytes = 1536

// resume turns the collector back on, if pause turned it off.
func (g *setUpGC) resume() {
	if g.paused {
		g.paused = false
		if g.old >= 0 {
			debug.SetGCPercent(g.old)
		}
	}
}

// largeArena is how many bodies make an arena large enough for the set-up
// to collect its garbage (collectSetUpGarbage).
const largeArena = 100_000

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// streamSeed derives an independent stream from the experiment seed and a
// name (a robot id, "distribute").
func streamSeed(name string) uint64 {
	// FNV-1a, 64 bits (hash/fnv's New64a), without its allocations: a
	// million robots draw a million seeds
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

func (s *Simulator) newRand(name string) *mrand.Rand {
	return mrand.New(mrand.NewPCG(s.seed, streamSeed(name)))
}

// interrupted returns an error wrapping ctx's when it is done.
func interrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("simulator: set-up interrupted: %w", err)
	}
	return nil
}

func (s *Simulator) buildArena(ctx context.Context, gc *setUpGC) error {
	rng := s.newRand("distribute")
	place := &placing{s: s.sp}
	// where each entity was declared: those with a body by handle (their
	// ids are in byID), the others (lights, the floor) by id
	var bodyAt []*config.Node
	otherAt := map[string]*config.Node{}
	// mapped: the entity's body is the next one and byID has its id
	// already, checked against the bodies before it (mapIDs)
	add := func(spec *entity.Spec, at *config.Node, mapped bool) error {
		twice := func(prev *config.Node) error {
			return at.Errorf("simulator: entity id %q is used twice (also at %s); ids must be unique", spec.ID, prev.Where())
		}
		if prev, dup := otherAt[spec.ID]; dup {
			return twice(prev)
		}
		if mapped {
			if err := s.addEntityAs(spec, true); err != nil {
				return err
			}
			bodyAt = append(bodyAt, at)
			return nil
		}
		if spec.Setup != nil || spec.Light != nil { // no body
			if h, ok := s.byID[spec.ID]; ok {
				return twice(bodyAt[h])
			}
			if err := s.addEntity(spec); err != nil {
				return err
			}
			otherAt[spec.ID] = at
			return nil
		}
		// A body's id is checked by adding it: a map that did not grow
		// held it already (one look-up of a million fresh ids instead of
		// two, the first of which missed the cache).
		ids, bodies := len(s.byID), len(s.sp.Bodies)
		if err := s.addEntity(spec); err != nil {
			if h, ok := s.byID[spec.ID]; ok && h < bodies {
				return twice(bodyAt[h])
			}
			return err
		}
		if len(s.byID) == ids {
			for h := bodies - 1; h >= 0; h-- {
				if s.sp.Bodies[h].ID == spec.ID {
					return twice(bodyAt[h])
				}
			}
		}
		bodyAt = append(bodyAt, at)
		return nil
	}
	// Count the entities the <distribute>s place before making any: they
	// may place config.MaxEntities in all (the arena's other entities are
	// one element each, bounded by config.MaxElements, so that a million
	// robots fit in a walled arena).
	entities := 0
	for _, n := range s.exp.Arena.Children {
		if n.Name != "distribute" {
			continue
		}
		d, err := config.ParseDistribute(n)
		if err != nil {
			continue // reported by the loop below, in file order
		}
		if entities += d.Quantity; entities > config.MaxEntities {
			return n.FirstChild("entity").AttrErrorf("quantity", "with it the <distribute>s of the arena would place %d entities, more than the %d they may place in all; lower the quantity",
				entities, config.MaxEntities)
		}
	}
	gc.pause(entities)
	bodyAt = make([]*config.Node, len(s.sp.Bodies))
	// room for a <distribute>'s entities, once its quantity is checked,
	// so that a million robots are not copied as the lists grow; the id
	// map made, on the first call, with room for every entity: growing
	// one to a million entries rehashes it again and again (it is made
	// then rather than before the first <distribute>, so that a large
	// one's heap memory, readied for it, holds the map too). With ahead,
	// the id map and the space's room are left to the function returned,
	// which the <distribute> calls on another goroutine while it draws
	// (prepareAhead): nothing else uses them meanwhile.
	sized := false
	grow := func(n int, embodied, ahead bool) (later func()) {
		later = func() {
			if !sized {
				sized = true
				ids := make(map[string]int, entities+len(s.exp.Arena.Children))
				maps.Copy(ids, s.byID)
				s.byID = ids
			}
			if embodied {
				s.sp.Grow(n)
			}
		}
		if embodied {
			place.get().Grow(n)
			bodyAt = hugepage.Grow(bodyAt, n)
		}
		if ahead {
			return later
		}
		later()
		return nil
	}
	for _, n := range s.exp.Arena.Children {
		if err := interrupted(ctx); err != nil {
			return err
		}
		if n.Name == "distribute" {
			if err := s.distribute(ctx, n, rng, place, add, grow, gc.large, entities, otherAt, &bodyAt); err != nil {
				return err
			}
			continue
		}
		parse, err := entity.Types.Lookup(n.Name)
		if err != nil {
			return n.Errorf("simulator: <arena>: %v", err)
		}
		spec, err := parse(n)
		if err != nil {
			return err
		}
		if !spec.Posed {
			return n.Errorf("simulator: %s %q has no pose; add <body position=\"x,y,z\" orientation=\"0,0,0\"/>", spec.Tag, spec.ID)
		}
		if spec.Embodied && spec.Body.Movable {
			if !place.get().Fits(&spec.Body) {
				return n.Errorf("simulator: %s %q at (%g, %g) overlaps another object or lies outside the arena; move it", spec.Tag, spec.ID, spec.Body.Pos.X, spec.Body.Pos.Y)
			}
			if e, _, err := s.engineOf(spec.ID, &spec.Body); err != nil {
				return n.Errorf("%v", err)
			} else if e < 0 {
				return n.Errorf("simulator: %s %q at (%g, %g, %g) lies in no physics engine; add an engine to <physics_engines> or move it inside an engine's <boundaries>",
					spec.Tag, spec.ID, spec.Body.Pos.X, spec.Body.Pos.Y, spec.Body.Z)
			}
		}
		if spec.Embodied {
			place.get().Reserve(spec.Body)
		}
		if err := add(spec, n, false); err != nil {
			return err
		}
	}
	return nil
}

func (s *Simulator) distribute(ctx context.Context, n *config.Node, rng *mrand.Rand, placing *placing,
	add func(*entity.Spec, *config.Node, bool) error, grow func(n int, embodied, ahead bool) func(), large, entities int,
	otherAt map[string]*config.Node, bodyAt *[]*config.Node) error {
	d, err := config.ParseDistribute(n)
	if err != nil {
		return err
	}
	parse, err := entity.Types.Lookup(d.Template.Name)
	if err != nil {
		return d.Template.Errorf("simulator: <distribute>: %v", err)
	}
	tmpl, err := parse(d.Template)
	if err != nil {
		return err
	}
	// Check the quantity against the room there is before allocating
	// anything for it (buildArena checked it against MaxEntities).
	if tmpl.Embodied {
		if most, where := s.capacity(d, &tmpl.Body); d.Quantity > most {
			return d.Node.FirstChild("entity").AttrErrorf("quantity", "at most %d %ss fit %s, even packed without gaps; lower the quantity or widen the <position> range",
				most, tmpl.Tag, where)
		}
	}
	// Draw every pose first, then add the entities in LayoutOrder: the
	// ids follow that order, so that the arena order (and memory) of the
	// robots follows space and the i-th robot's neighbours are stored
	// near it. One spec is posed again and again: entities keep nothing
	// of the spec they are made from but copies, except a light, which
	// gets a spec of its own.
	// The heap memory the entities' set-up will fill is advised for huge
	// pages first (hugepage.PrepareHeap), so that the small objects made
	// for each robot (devices, controllers) fault 2 MiB at a time, as the
	// large lists do.
	if d.Quantity >= large {
		hugepage.PrepareHeap(d.Quantity * setUpBytes)
	}
	var pre *ahead
	later := grow(d.Quantity, tmpl.Embodied, tmpl.Robot != nil && tmpl.Embodied && d.Quantity >= large)
	if later != nil {
		pre = s.prepareAhead(d, later)
		defer pre.wait() // on errors too
	}
	poses := hugepage.Make[drawn](0, d.Quantity)
	place := placing.get()
	spec := tmpl.Clone()
	// an engine that lists entity ids is asked with the drawing id;
	// assignEngine checks the final one
	named := len(s.own.rules) > 0
	// perEngine counts the bodies each engine takes, for growEnginesAhead
	var perEngine []int
	if tmpl.Embodied && tmpl.Body.Movable && !named && d.Quantity >= large && entities == d.Quantity {
		perEngine = make([]int, len(s.engines))
	}
	for k := 0; k < d.Quantity; k++ {
		if k%1024 == 0 {
			if err := interrupted(ctx); err != nil {
				return err
			}
		}
		if named {
			spec.SetID(d.ID(k))
		}
		placed := false
		var pos ci.Vector3
		var o config.EulerDeg
		for trial := 0; trial < d.MaxTrials && !placed; trial++ {
			if trial%4096 == 4095 {
				if err := interrupted(ctx); err != nil {
					return err
				}
			}
			pos, o, err = d.Sample(rng, trial > 0)
			if err != nil {
				return err
			}
			if err := spec.SetPose(d.Template, pos, o); err != nil {
				return err
			}
			if !spec.Embodied {
				placed = true
				break
			}
			placed = place.Fits(&spec.Body) && (!spec.Body.Movable || s.hasEngine(spec.ID, &spec.Body))
		}
		if !placed {
			return n.Errorf("simulator: <distribute> could not place %s %q (%d of %d) in %d trials: the area is too crowded or outside every physics engine; "+
				"lower quantity, widen the <position> range, or raise max_trials", spec.Tag, d.ID(k), k+1, d.Quantity, d.MaxTrials)
		}
		if spec.Embodied {
			place.Reserve(spec.Body)
		}
		if perEngine != nil {
			if e := s.engineFor(&spec.Body); e >= 0 {
				perEngine[e]++
			}
		}
		poses = append(poses, drawn{pos, o})
	}
	if perEngine != nil {
		defer s.growEnginesAhead(perEngine)()
	}
	// The placement is dropped before the entities are made: a million
	// bodies' is about 120 MB, which they can reuse once it is collected.
	// The next entity that needs it makes it again from the space.
	if tmpl.Embodied {
		placing.drop()
	}
	// the k-th entity added is the one drawn order[k]-th (no copy of the
	// poses in that order: a million of them are 48 MB)
	var order []int
	if tmpl.Embodied {
		order = s.sp.LayoutOrderWith(s.pool, len(poses), func(k int) ci.Vector2 { return poses[k].pos.XY() })
	}
	if pre != nil {
		pre.wait()
		s.takePrefaulted()
	} else {
		s.growRobots(len(poses))
	}
	ids := d.IDs()
	addOne := func(k int) error {
		p := &poses[k]
		if order != nil {
			p = &poses[order[k]]
		}
		e := spec
		if tmpl.Light != nil {
			e = tmpl.Clone()
		}
		mapped := false
		if pre != nil {
			e.SetID(pre.ids[k]) // d.ID(k)
			mapped = k < pre.mapped
		} else {
			e.SetID(ids.Next()) // d.ID(k): one Next per copy, k in order
		}
		if err := e.SetPose(d.Template, p.pos, p.o); err != nil {
			return err
		}
		return add(e, d.Template, mapped)
	}
	k := 0
	if pre != nil && pre.mapped == len(poses) && len(poses) > 1 && order != nil && len(otherAt) == 0 {
		// The first copy the plain way, which checks what every copy
		// shares (the LED medium, the controller entry); the others at
		// once, if they can be.
		if err := addOne(0); err != nil {
			return err
		}
		k = 1
		if r := s.robots[len(s.robots)-1]; r.entry != nil && len(spec.LEDs) == 0 && len(s.slab.robots) >= len(poses)-1 {
			n, err := s.addCopies(d, spec, poses, order, pre.ids)
			*bodyAt = append(*bodyAt, slices.Repeat([]*config.Node{d.Template}, n)...)
			return err
		}
	}
	for ; k < len(poses); k++ {
		if err := addOne(k); err != nil {
			return err
		}
	}
	return nil
}

// drawn is a pose a <distribute> drew.
type drawn struct {
	pos ci.Vector3
	o   config.EulerDeg
}

// addCopies adds the robots a large <distribute> drew, but the first,
// which was added the plain way, on the run's threads: what addEntity
// does for each, with the same results, each robot's body and record
// written by one job (space.Extend and Put, the robot slab and lists made
// ahead). The copies' ids are in byID already, the robots' controller
// entry is the first's, and they have no LEDs of their own (distribute
// checks). It returns how many copies it added, and the error of the
// first copy that could not be, those before it added as by the plain
// loop.
func (s *Simulator) addCopies(d *config.Distribute, spec *entity.Spec, poses []drawn, order []int, ids []string) (int, error) {
	n := len(poses)
	h0, r0 := len(s.sp.Bodies)-1, len(s.robots)-1 // the first copy's
	first := s.robots[r0]
	s.sp.Extend(n-1, spec.Body.Movable)
	s.robots = s.robots[:r0+n]
	s.world.Robots = s.world.Robots[:r0+n]
	slab := s.slab.robots[:n-1]
	s.slab.robots = s.slab.robots[n-1:]
	const chunk = 16384
	type failure struct {
		err error
		at  int
	}
	bad := make([]failure, (n-1+chunk-1)/chunk)
	s.pool.Run(len(bad), func(j int) {
		e := *spec
		for k := 1 + j*chunk; k < min(1+(j+1)*chunk, n); k++ {
			p := &poses[order[k]]
			e.SetID(ids[k])
			if err := e.SetPose(d.Template, p.pos, p.o); err != nil {
				bad[j] = failure{err, k}
				return
			}
			s.sp.Put(h0+k, &e.Body)
			r := &slab[k-1]
			r.Robot = entity.Robot{
				ID: e.ID, Model: e.Robot, Index: r0 + k, Body: h0 + k, Space: s.sp,
				TickLength: s.tickLen, World: s.world, Node: e.Node,
			}
			r.pcg.Seed(s.seed, streamSeed(e.ID))
			r.rnd = *mrand.New(&r.pcg)
			r.Rand = &r.rnd
			r.entry = first.entry
			if s.metrics.on {
				r.metrics = &robotMetrics{st: &s.metrics, id: e.ID}
			}
			s.robots[r0+k] = r
			s.world.Robots[r0+k] = &r.Robot
		}
	})
	for _, f := range bad {
		if f.err != nil {
			s.sp.Bodies, s.sp.Drive = s.sp.Bodies[:h0+f.at], s.sp.Drive[:h0+f.at]
			s.robots = s.robots[:r0+f.at]
			s.world.Robots = s.world.Robots[:r0+f.at]
			return f.at - 1, f.err
		}
	}
	return n - 1, nil
}

// placing is the placement of the arena being filled (space.Placement):
// made from the space when first needed, and dropped by a <distribute>
// once its poses are drawn.
type placing struct {
	s *space.Space
	p *space.Placement
}

func (pl *placing) get() *space.Placement {
	if pl.p == nil {
		pl.p = space.NewPlacement(pl.s)
	}
	return pl.p
}

func (pl *placing) drop() { pl.p = nil }

// capacity returns how many copies of body b the <distribute> d could
// place at most, packed without gaps in the volume where its <position>
// puts them and the arena holds them, and says where that is; it returns
// math.MaxInt when the generator gives no bound (a gaussian height, a
// grid, which has its own count) or the bodies cannot overlap.
func (s *Simulator) capacity(d *config.Distribute, b *space.Body) (int, string) {
	foot := math.Pi * b.Radius * b.Radius
	if b.Shape == space.Box {
		foot = 4 * b.Half.X * b.Half.Y
	}
	if !(foot > 0) || !(b.Height > 0) {
		return math.MaxInt, ""
	}
	lo, hi := s.sp.Bounds()
	arena := (hi.X - lo.X) * (hi.Y - lo.Y)
	where := fmt.Sprintf("in the arena (%.4g m²)", arena)
	var from, to ci.Vector3
	switch g := d.Position.(type) {
	case config.UniformGenerator:
		from, to = g.Min, g.Max
	case config.ConstantGenerator:
		from, to = g.Value, g.Value
	case config.GaussianGenerator:
		if g.StdDev.Z != 0 {
			return math.MaxInt, ""
		}
		from, to = ci.Vector3{X: lo.X, Y: lo.Y, Z: g.Mean.Z}, ci.Vector3{X: hi.X, Y: hi.Y, Z: g.Mean.Z}
	default:
		return math.MaxInt, ""
	}
	// A footprint lies within the body's radius of its centre, and inside
	// the arena; its height range within [from.Z, to.Z + Height].
	r := b.Radius
	w := min(hi.X, to.X+r) - max(lo.X, from.X-r)
	h := min(hi.Y, to.Y+r) - max(lo.Y, from.Y-r)
	area := max(w, 0) * max(h, 0)
	if area < arena {
		where = fmt.Sprintf("in the %.4g m² of the arena where <position> at line %d places them", area, d.Node.FirstChild("position").Line)
	}
	n := area * (to.Z - from.Z + b.Height) / (foot * b.Height)
	if !(n < float64(math.MaxInt32)) {
		return math.MaxInt, ""
	}
	return int(math.Floor(n * (1 + 1e-9))), where
}

// addEntity puts a parsed entity in the arena.
func (s *Simulator) addEntity(spec *entity.Spec) error { return s.addEntityAs(spec, false) }

// addEntityAs is addEntity; with mapped, byID maps the entity's id to its
// body (the next one) already.
func (s *Simulator) addEntityAs(spec *entity.Spec, mapped bool) error {
	if spec.Setup != nil { // the floor
		return spec.Setup(s.world)
	}
	if spec.Light != nil {
		s.world.Lights = append(s.world.Lights, spec.Light)
		return nil
	}
	if len(spec.LEDs) > 0 {
		if _, err := entity.Medium[*media.LED](s.world, spec.LEDMedium); err != nil {
			return spec.Node.Errorf("simulator: %s %q: <leds medium=%q>: %w", spec.Tag, spec.ID, spec.LEDMedium, err)
		}
	}
	h := s.sp.Add(spec.Body)
	if !mapped {
		if s.byID == nil {
			s.byID = map[string]int{}
		}
		s.byID[spec.ID] = h
	}
	if leds := entity.NewObjectLEDs(spec, h); leds != nil {
		s.world.ObjectLEDs = append(s.world.ObjectLEDs, leds)
	}
	if spec.Robot == nil {
		return nil
	}
	r := s.newRobot()
	r.Robot = entity.Robot{
		ID: spec.ID, Model: spec.Robot, Index: len(s.robots), Body: h, Space: s.sp,
		TickLength: s.tickLen, World: s.world, Node: spec.Node,
	}
	r.pcg.Seed(s.seed, streamSeed(spec.ID))
	r.rnd = *mrand.New(&r.pcg)
	r.Rand = &r.rnd
	if r.entry = s.slab.lastCtrl; r.entry == nil || r.entry.ID != spec.ControllerID {
		r.entry = s.exp.FindController(spec.ControllerID)
		s.slab.lastCtrl = r.entry
	}
	if r.entry == nil {
		if s.unknownCtrl == nil {
			s.unknownCtrl = map[*robot]string{}
		}
		s.unknownCtrl[r] = spec.ControllerID
	}
	if s.metrics.on {
		r.metrics = &robotMetrics{st: &s.metrics, id: spec.ID}
	}
	s.robots = append(s.robots, r)
	s.world.Robots = append(s.world.Robots, &r.Robot)
	return nil
}

// ahead is the work a large <distribute> of robots does on another
// goroutine while it draws its robots' poses (prepareAhead).
type ahead struct {
	done chan struct{}
	// ids are the copies' ids, in order (d.ID(k)); the first mapped of
	// them are in byID, with the handles of the bodies the copies will
	// have, in order after the space's bodies
	ids    []string
	mapped int
}

// wait waits for the work (it may be called again).
func (a *ahead) wait() { <-a.done }

// prepareAhead starts, on another goroutine, the work that a large
// <distribute> of robots can do before its poses are drawn, while it draws
// them on this one (drawing, one trial after the other, does not depend on
// it): later (grow's share: the id map, the space's room for the bodies),
// the robot records in one slab and the robot lists, every page of the
// slab and of the space's room written, and the copies' ids put in the id
// map (mapIDs). Fresh memory costs a page fault at its first write (some
// 3 to 9 µs per 4 KiB page on a virtual machine, or the kernel's zeroing
// of a 2 MiB huge page), and memory the heap reuses is cleared by Go when
// it is allocated; the first write of the 0.5 GB made here for a million
// robots, and their 1,000,000 id map inserts, are thus taken off the
// serial path of the set-up. takePrefaulted, after wait, hands the slab
// to newRobot.
func (s *Simulator) prepareAhead(d *config.Distribute, later func()) *ahead {
	a := &ahead{done: make(chan struct{})}
	n := d.Quantity
	go func() {
		defer close(a.done)
		later()
		robots := hugepage.Make[robot](n, n)
		bodies := s.sp.Bodies[len(s.sp.Bodies):cap(s.sp.Bodies)]
		for i := 0; i < len(robots); i += pageOf(unsafe.Sizeof(robot{})) {
			robots[i].removed = false
		}
		for i := 0; i < len(bodies); i += pageOf(unsafe.Sizeof(bodies[0])) {
			bodies[i].Removed = false
		}
		s.slab.prefaulted = robots
		s.growRobots(n)
		a.ids, a.mapped = s.mapIDs(d)
	}()
	return a
}

// mapIDs returns the ids of d's copies, in order, and puts them in byID
// with the handles their bodies will have (the space's next ones, in
// order), up to the first id that an entity with a body added before
// has: that one keeps its handle, and the count of ids mapped is
// returned. The entity that has it reports it when added, as when the map
// had the ids added one by one.
func (s *Simulator) mapIDs(d *config.Distribute) (ids []string, mapped int) {
	base := len(s.sp.Bodies)
	gen := d.IDs()
	ids = hugepage.Make[string](d.Quantity, d.Quantity)
	mapped = len(ids)
	for k := range ids {
		ids[k] = gen.Next()
		if k >= mapped {
			continue
		}
		// a map that did not grow held the id (one look-up, not two)
		n := len(s.byID)
		s.byID[ids[k]] = base + k
		if len(s.byID) == n {
			for h := base - 1; h >= 0; h-- {
				if s.sp.Bodies[h].ID == ids[k] {
					s.byID[ids[k]] = h
					break
				}
			}
			mapped = k
		}
	}
	return ids, mapped
}

// pageOf returns how many items of size bytes lie within 4 KiB, at least
// one: writing every pageOf-th item of a slice writes to each of its
// pages.
func pageOf(size uintptr) int { return max(1, int(4096/size)) }

// takePrefaulted makes the slab of prepareAhead the one newRobot takes from,
// once its writes are done (the caller waited).
func (s *Simulator) takePrefaulted() {
	if s.slab.prefaulted != nil {
		s.slab.robots, s.slab.prefaulted = s.slab.prefaulted, nil
	}
}

// robotSlab is how many robots are made at once.
const robotSlab = 1024

// newRobot returns a zero robot from the slab.
func (s *Simulator) newRobot() *robot {
	if len(s.slab.robots) == 0 {
		s.slab.robots = make([]robot, robotSlab)
	}
	r := &s.slab.robots[0]
	s.slab.robots = s.slab.robots[1:]
	return r
}

// growRobots makes room for n more robots in the robot lists.
func (s *Simulator) growRobots(n int) {
	s.robots = hugepage.Grow(s.robots, n)
	s.world.Robots = hugepage.Grow(s.world.Robots, n)
}

// engineFor returns the engine that takes the body (physics.EngineFor:
// the first engine whose region holds the body's position, an engine
// that models its kind before the generic ones), or -1.
func (s *Simulator) engineFor(b *space.Body) int {
	return physics.EngineFor(s.engines, b)
}

func (s *Simulator) assignEngines() error {
	s.growEngines() // assign.go
	for i := range s.sp.Bodies {
		if err := s.assignEngine(i); err != nil {
			return err
		}
	}
	return s.checkOwnership()
}

// assignEngine gives body i to the engine that lists it or contains it (a
// mobile body), or to every engine that lists it or whose region it
// touches (a static body); see assign.go.
func (s *Simulator) assignEngine(i int) error {
	b := &s.sp.Bodies[i]
	if !b.Movable {
		for _, k := range s.staticEngines(i) {
			if err := s.engines[k].AddStatic(i); err != nil {
				return err
			}
		}
		return nil
	}
	k, pinned, err := s.engineOf(b.ID, b)
	if err != nil {
		return err
	}
	if k < 0 {
		return fmt.Errorf("simulator: %s %q at (%g, %g, %g) lies in no physics engine; add an engine or widen its <boundaries>",
			b.Type, b.ID, b.Pos.X, b.Pos.Y, b.Z)
	}
	s.pin(i, pinned)
	return s.engines[k].Add(i)
}

// buildControllers builds every robot's devices and controller. The
// robots of one controller entry share a tracked copy of its params;
// after every Init, a parameter none of them asked for is an error.
//
// It works in three passes, with the results and errors of building the
// robots one after the other: the devices made by their factories, robot
// after robot (devicePlan); then the clones of the first robot's
// devices.Cloner devices that the others get, on the run's threads, each
// robot's written into its own lists; then the controllers, robot after
// robot, and their Init (on the run's threads for ci.ConcurrentInit
// controllers, see initConcurrent; robot after robot for the others). A
// robot whose devices cannot be made stops the
// first pass; the robots before it still get their controllers first, so
// that the error reported is the first robot's, as when robots were built
// one by one.
func (s *Simulator) buildControllers(ctx context.Context) error {
	tracked := map[string]ci.Params{}
	plans := map[planKey]*devicePlan{}
	built, devErr := len(s.robots), error(nil)
	var last *devicePlan // the plan of the robot before, which the next one most often shares
	for k, r := range s.robots {
		if k%1024 == 0 {
			if err := interrupted(ctx); err != nil {
				return err
			}
		}
		if last == nil || last.key != (planKey{r.entry, r.Model}) {
			last = plans[planKey{r.entry, r.Model}]
		}
		if last != nil && last.cloneAll {
			continue // every device a clone: made by cloneDevices
		}
		if err := s.buildDevices(r, plans); err != nil {
			built, devErr = k, err
			break
		}
	}
	if err := s.cloneDevices(s.robots[:built], plans); err != nil {
		return err
	}
	// The controllers are made in robot order on this goroutine (a
	// factory or a medium hosting controllers promises nothing about
	// concurrency), then Init'ed: on the run's threads for controllers
	// that are ci.ConcurrentInit, one after the other in robot order for
	// the others.
	concurrent := false
	last = nil
	for k, r := range s.robots[:built] {
		if k%1024 == 0 {
			if err := interrupted(ctx); err != nil {
				return err
			}
		}
		c := r.entry
		if last == nil || last.key != (planKey{c, r.Model}) {
			last = plans[planKey{c, r.Model}]
			if _, ok := tracked[c.ID]; !ok {
				tracked[c.ID] = c.Params.Track()
			}
		}
		r.ctrl = s.hostedController(r, c, last.factory) // media_remote.go
		_, ok := r.ctrl.(ci.ConcurrentInit)
		concurrent = concurrent || ok
	}
	initErr, first := error(nil), built // the first robot whose Init failed
	if concurrent {
		first, initErr = s.initConcurrent(ctx, s.robots[:built], tracked)
	}
	for k, r := range s.robots[:first] {
		if _, ok := r.ctrl.(ci.ConcurrentInit); ok {
			continue
		}
		if err := s.startController(r, tracked[r.entry.ID]); err != nil {
			first, initErr = k, err
			break
		}
	}
	if initErr != nil {
		// Close destroys the controllers whose Init ran, and only those.
		for _, r := range s.robots[first:built] {
			if _, ok := r.ctrl.(ci.ConcurrentInit); !ok {
				r.ctrl = nil
			}
		}
		return initErr
	}
	if devErr != nil {
		return devErr
	}
	for _, c := range s.exp.Controllers {
		if p, ok := tracked[c.ID]; ok {
			if err := p.CheckUnread(); err != nil {
				return fmt.Errorf("%s: simulator: controller %q (%s): %w", c.Node.Where(), c.ID, c.Label, err)
			}
		}
	}
	return nil
}

// planKey names the robots that share a devicePlan: their controller
// entry and model.
type planKey struct {
	entry *config.Controller
	model *entity.RobotModel
}

// devicePlan is how the devices of the robots of one controller entry and
// model are made: the first robot's with their factories, and, for the
// others, a clone of the first robot's device where that is a
// devices.Cloner (acts[i], sens[i]; nil: made by the factory for every
// robot, in the first pass).
type devicePlan struct {
	key        planKey
	acts, sens []devices.Cloner
	clones     bool // some device is cloned
	// cloneAll: every device is cloned (and there is one); the robots
	// after first get their device lists with their clones, on the
	// run's threads, not in the first pass
	cloneAll bool
	first    *robot
	factory  func() ci.Controller
}

// initConcurrent calls the Init of the robots' controllers that are
// ci.ConcurrentInit, in chunks on the run's threads (a chunk stops at its
// first error). It returns the error of the first robot, in robot order,
// whose Init failed, and that robot's position in robots (len(robots) if
// none failed).
func (s *Simulator) initConcurrent(ctx context.Context, robots []*robot, tracked map[string]ci.Params) (int, error) {
	const chunk = 1024
	type failure struct {
		err error
		at  int
	}
	bad := make([]failure, (len(robots)+chunk-1)/chunk)
	s.pool.Run(len(bad), func(j int) {
		end := min((j+1)*chunk, len(robots))
		k := j * chunk
		if err := interrupted(ctx); err != nil {
			bad[j] = failure{err, k}
		}
		for ; k < end && bad[j].err == nil; k++ {
			r := robots[k]
			if _, ok := r.ctrl.(ci.ConcurrentInit); !ok {
				continue
			}
			if err := s.startController(r, tracked[r.entry.ID]); err != nil {
				bad[j] = failure{err, k}
			}
		}
		// Close destroys the controllers whose Init ran, and only those.
		for ; k < end; k++ {
			if _, ok := robots[k].ctrl.(ci.ConcurrentInit); ok {
				robots[k].ctrl = nil
			}
		}
	})
	for _, f := range bad {
		if f.err != nil {
			return f.at, f.err
		}
	}
	return len(robots), nil
}

// buildController builds the devices of robot r and its controller, and
// calls the controller's Init with params (the controller entry's own when
// they are empty).
func (s *Simulator) buildController(r *robot, params ci.Params) error {
	plans := map[planKey]*devicePlan{}
	if err := s.buildDevices(r, plans); err != nil {
		return err
	}
	r.ctrl = s.hostedController(r, r.entry, plans[planKey{r.entry, r.Model}].factory) // media_remote.go
	return s.startController(r, params)
}

// buildDevices finds robot r's controller entry and makes the devices of
// r that plans (by entry and model) does not clone: all of them for the
// first robot of an entry and model, whose plan it records. The cloned
// ones stay nil until cloneDevices. A robot whose devices cannot all be
// made is left without any.
func (s *Simulator) buildDevices(r *robot, plans map[planKey]*devicePlan) (err error) {
	defer func() {
		if err != nil {
			r.setDevices(nil, nil)
		}
	}()
	c := r.entry
	if c == nil {
		return r.Node.Errorf("simulator: %s %q uses controller %q, which <controllers> does not define; use one of the ids there",
			r.Model.Type, r.ID, s.ctrlID(r))
	}
	key := planKey{c, r.Model}
	plan, seen := plans[key]
	if !seen {
		factory, err := ci.Controllers.Lookup(c.Label)
		if err != nil {
			return c.Node.Errorf("simulator: %v", err)
		}
		plan = &devicePlan{key: key, acts: make([]devices.Cloner, len(c.Actuators)), sens: make([]devices.Cloner, len(c.Sensors)), factory: factory, first: r}
	}
	// newDevice makes device i of a kind, unless it is cloned (nil)
	newDevice := func(reg *ci.Registry[devices.Factory], d config.Device, proto []devices.Cloner, i int) (any, error) {
		if seen && proto[i] != nil {
			return nil, nil
		}
		dev, err := buildDevice(reg, &r.Robot, d)
		if p, ok := dev.(devices.Cloner); ok && err == nil && !seen {
			proto[i], plan.clones = p, true
		}
		return dev, err
	}
	r.entry = c
	if len(c.Sensors) > maxDevices || len(c.Actuators) > maxDevices {
		return c.Node.Errorf("simulator: controller %q declares %d sensors and %d actuators; a robot can have at most %d of each: declare fewer",
			c.ID, len(c.Sensors), len(c.Actuators), maxDevices)
	}
	r.setDevices(s.slab.sens.take(len(c.Sensors)), s.slab.acts.take(len(c.Actuators)))
	sens, acts := r.sensors(), r.actuators()
	for i, d := range c.Actuators {
		dev, err := newDevice(devices.Actuators, d, plan.acts, i)
		if err != nil {
			return err
		}
		if dev == nil {
			continue
		}
		act, ok := dev.(devices.Actuator)
		if !ok {
			return d.Node.Errorf("simulator: actuator <%s> does not act", d.Tag)
		}
		acts[i] = act
	}
	for i, d := range c.Sensors {
		dev, err := newDevice(devices.Sensors, d, plan.sens, i)
		if err != nil {
			return err
		}
		if dev == nil {
			continue
		}
		sen, ok := dev.(devices.Sensor)
		if !ok {
			return d.Node.Errorf("simulator: sensor <%s> does not sense", d.Tag)
		}
		sens[i] = sen
	}
	if !seen {
		plan.cloneAll = len(plan.acts)+len(plan.sens) > 0 && !slices.Contains(plan.acts, nil) && !slices.Contains(plan.sens, nil)
		plans[key] = plan
	}
	r.markIdle() // media_channel.go
	return nil
}

// cloneDevices gives the robots the clones of their plans' devices, on the
// run's threads: every robot's devices are written into its own lists,
// the prototypes only read. The robots of a plan that clones every device
// (but its first) get their lists here too, those of one job from one
// slab of the job's own.
func (s *Simulator) cloneDevices(robots []*robot, plans map[planKey]*devicePlan) error {
	cloning := false
	for _, p := range plans {
		cloning = cloning || p.clones
	}
	if !cloning {
		return nil
	}
	const chunk = 1024
	bad := make([]error, (len(robots)+chunk-1)/chunk) // the first of a chunk
	s.pool.Run(len(bad), func(j int) {
		job := robots[j*chunk : min((j+1)*chunk, len(robots))]
		// listless: the robot's device lists are to be made here
		var last *devicePlan
		planOf := func(r *robot) *devicePlan {
			if last == nil || last.key != (planKey{r.entry, r.Model}) {
				last = plans[planKey{r.entry, r.Model}]
			}
			return last
		}
		listless := func(r *robot, p *devicePlan) bool { return p.cloneAll && r != p.first }
		var sens slabOf[devices.Sensor]
		var acts slabOf[devices.Actuator]
		ns, na := 0, 0
		for _, r := range job {
			if p := planOf(r); listless(r, p) {
				ns, na = ns+len(p.sens), na+len(p.acts)
			}
		}
		sens.free, acts.free = make([]devices.Sensor, ns), make([]devices.Actuator, na)
		for _, r := range job {
			p := planOf(r)
			if listless(r, p) {
				r.setDevices(sens.take(len(p.sens)), acts.take(len(p.acts)))
			}
			if err := cloneFor(r, p); err != nil {
				bad[j] = err
				return
			}
		}
	})
	for _, err := range bad {
		if err != nil {
			return err
		}
	}
	return nil
}

// cloneFor fills robot r's devices that plan clones.
func cloneFor(r *robot, plan *devicePlan) error {
	sens, acts := r.sensors(), r.actuators()
	for i, p := range plan.acts {
		if p != nil && acts[i] == nil {
			act, ok := p.CloneFor(&r.Robot).(devices.Actuator)
			if !ok {
				return r.entry.Actuators[i].Node.Errorf("simulator: actuator <%s> cloned into something that does not act", r.entry.Actuators[i].Tag)
			}
			acts[i] = act
		}
	}
	for i, p := range plan.sens {
		if p != nil && sens[i] == nil {
			sen, ok := p.CloneFor(&r.Robot).(devices.Sensor)
			if !ok {
				return r.entry.Sensors[i].Node.Errorf("simulator: sensor <%s> cloned into something that does not sense", r.entry.Sensors[i].Tag)
			}
			sens[i] = sen
		}
	}
	r.markIdle()
	return nil
}

// startController calls the Init of robot r's controller, made already,
// with params (the controller entry's own when they are empty); a robot
// whose Init fails is left without a controller.
func (s *Simulator) startController(r *robot, params ci.Params) error {
	c := r.entry
	if params.Name == "" {
		params = c.Params
	}
	if err := s.initController(r, params); err != nil {
		r.ctrl = nil
		return fmt.Errorf("%s: simulator: controller %q of %s %q: %w", c.Node.Where(), c.ID, r.Model.Type, r.ID, err)
	}
	return nil
}

// initController calls the controller's Init; a panic becomes an error
// naming the controller's line that panicked (the stack goes to the
// debug log).
func (s *Simulator) initController(r *robot, params ci.Params) (err error) {
	defer func() {
		if p := recover(); p != nil {
			cp := caught(p)
			s.log.Debugf("controller %q of %s %q panicked in Init:\n%s", s.ctrlID(r), r.Model.Type, r.ID, cp.stack)
			err = fmt.Errorf("Init panicked: %v", cp)
		}
	}()
	return r.ctrl.Init(handle{r}, params)
}

// slabOf hands out short slices of one long one, so that the small lists
// of many robots (their devices) lie together and cost no allocation
// each.
type slabOf[T any] struct{ free []T }

// take returns a slice of n elements whose capacity is n.
func (sl *slabOf[T]) take(n int) []T {
	if n > len(sl.free) {
		sl.free = make([]T, max(n, 4096))
	}
	out := sl.free[:n:n]
	sl.free = sl.free[n:]
	return out
}

func buildDevice(reg *ci.Registry[devices.Factory], r *entity.Robot, d config.Device) (any, error) {
	f, err := reg.Lookup(devices.Key(d.Tag, d.Implementation))
	if err != nil {
		return nil, d.Node.Errorf("simulator: %v", err)
	}
	return f(r, d.Node)
}

var errStopped = errors.New("simulator: closed")
