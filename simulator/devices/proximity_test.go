package devices_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"math/rand/v2"
	"runtime"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

func TestKey(t *testing.T) {
	tests := []struct{ tag, impl, want string }{
		{"leds", "default", "leds"},
		{"leds", "", "leds"},
		{"proximity", "fancy", "proximity:fancy"},
	}
	for _, tt := range tests {
		if got := devices.Key(tt.tag, tt.impl); got != tt.want {
			t.Errorf("Key(%q, %q) = %q, want %q", tt.tag, tt.impl, got, tt.want)
		}
	}
}

func TestRegistered(t *testing.T) {
	for _, tag := range []string{ci.TagDifferentialSteering, ci.TagFootBotProximity, ci.TagEPuckProximity, ci.TagProximity, ci.TagPositioning} {
		if _, err := devices.Sensors.Lookup(tag); err != nil {
			t.Errorf("sensor %q: %v", tag, err)
		}
	}
	for _, tag := range []string{ci.TagDifferentialSteering, ci.TagLEDs} {
		if _, err := devices.Actuators.Lookup(tag); err != nil {
			t.Errorf("actuator %q: %v", tag, err)
		}
	}
	if _, err := devices.Sensors.Lookup(devices.Key(ci.TagProximity, "nonexistent")); err == nil {
		t.Error("an unknown implementation was found")
	}
}

// wallAhead is the distance from sensor a (radians from the front) of a
// robot of radius r to a wall perpendicular to its heading, g in front of
// its body: the ray starts at the body's edge.
func wallAhead(r, g, a float64) float64 { return (r+g)/math.Cos(a) - r }

// A robot faces a long wall g metres in front of its body: every sensor
// that points at the wall reads the response to the distance along its
// ray; the others read 0. The robot and the wall are turned together to
// check the frames.
func TestProximityFacingWall(t *testing.T) {
	tests := []struct {
		name   string
		m      *entity.RobotModel
		tag    string
		gap    float64
		yawDeg float64
		x, y   float64
	}{
		{"e-puck, 3 cm", entity.EPuck, "epuck_proximity", 0.03, 0, 0, 0},
		{"e-puck, 3 cm, turned and moved", entity.EPuck, "epuck_proximity", 0.03, 123, 1.5, -0.7},
		{"e-puck, 1 cm", entity.EPuck, "epuck_proximity", 0.01, -90, 0, 0},
		{"e-puck, touching", entity.EPuck, "epuck_proximity", 0, 180, -1, 1},
		{"e-puck, generic sensor", entity.EPuck, "proximity", 0.02, 45, 0, 0},
		{"foot-bot, 2 cm", entity.FootBot, "footbot_proximity", 0.02, 0, 0, 0},
		{"foot-bot, 5 mm, turned", entity.FootBot, "footbot_proximity", 0.005, 200, 0.3, 0.3},
		{"foot-bot, 9 cm", entity.FootBot, "proximity", 0.09, 90, 0, 0},
		{"foot-bot, out of range", entity.FootBot, "footbot_proximity", 0.11, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newArena(10)
			r := addRobot(s, tt.m, "me", tt.x, tt.y, tt.yawDeg, 1)
			// The wall's near face is gap in front of the body.
			h := ci.Vector2{X: tt.x, Y: tt.y}.Add(ci.FromPolar(tt.m.Radius+tt.gap+0.05, ci.Radians(tt.yawDeg)))
			addBox(s, h.X, h.Y, 0.1, 4, 0.5, tt.yawDeg)
			s.Reindex()
			p := proximitySensor(t, r, `<`+tt.tag+` implementation="default" show_rays="true" />`)
			p.Update()
			got := p.Readings()
			if len(got) != len(tt.m.Proximity.Angles) {
				t.Fatalf("%d readings, want %d", len(got), len(tt.m.Proximity.Angles))
			}
			seen := 0
			for i, rd := range got {
				a := tt.m.Proximity.Angles[i]
				if rd.Angle != a {
					t.Errorf("reading %d: Angle %v, want %v", i, rd.Angle, a)
				}
				want := 0.0
				if math.Cos(a) > 0 {
					if d := wallAhead(tt.m.Radius, tt.gap, a); d <= tt.m.Proximity.Range {
						want = tt.m.Proximity.Response(d)
						if tt.tag == "proximity" { // ARGoS's generic curve
							want = math.Exp(-d)
						}
					}
				}
				if math.Abs(rd.Value-want) > 1e-9 {
					t.Errorf("sensor %d at %.1f deg: %v, want %v", i, ci.Degrees(a), rd.Value, want)
				}
				if rd.Value > 0 {
					seen++
				}
			}
			if tt.gap <= 0.05 && seen == 0 {
				t.Error("no sensor sees the wall")
			}
		})
	}
}

// The case of the brief, spelled out: an e-puck 3 cm from a wall.
func TestEPuckWall3cm(t *testing.T) {
	s := newArena(2)
	r := addRobot(s, entity.EPuck, "ep", 0, 0, 0, 1)
	addBox(s, entity.EPuck.Radius+0.03+0.05, 0, 0.1, 1, 0.5, 0)
	s.Reindex()
	p := proximitySensor(t, r, `<epuck_proximity />`)
	p.Update()
	rd := p.Readings()
	rad := entity.EPuck.Radius
	for i, a := range entity.EPuck.Proximity.Angles {
		w := 0.0
		if i == 0 || i == 7 { // the two front sensors, at about 17 and -16.9 degrees
			w = entity.EPuckProximityResponse((rad+0.03)/math.Cos(a) - rad)
			if w <= 0.1 || w >= 0.3 {
				t.Fatalf("expected reading %v is implausible", w)
			}
		}
		if math.Abs(rd[i].Value-w) > 1e-9 {
			t.Errorf("sensor at %.2f deg reads %v, want %v", ci.Degrees(a), rd[i].Value, w)
		}
	}
	// ARGoS's front sensors are not symmetric: 0.29670 and -0.29578 rad
	if math.Abs(rd[0].Value-rd[7].Value) < 1e-4 {
		t.Errorf("front sensors read %v and %v: ARGoS's irregular angles make them differ", rd[0].Value, rd[7].Value)
	}
}

// An obstacle on the foot-bot's left lights up the sensors on the left,
// most the one pointing at it.
func TestFootBotObstacleOnTheLeft(t *testing.T) {
	tests := []struct {
		name   string
		yawDeg float64
		dirDeg float64 // direction of the obstacle, relative to the front
		peak   []int   // the sensors that read the most
	}{
		{"at 90 deg", 0, 90, []int{5, 6}},
		{"at sensor 6 (97.5 deg)", 0, 97.5, []int{6}},
		{"at sensor 5 (82.5 deg), robot turned", 150, 82.5, []int{5}},
		{"at sensor 7 (112.5 deg), robot turned back", -170, 112.5, []int{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newArena(4)
			r := addRobot(s, entity.FootBot, "fb", 0.2, -0.1, tt.yawDeg, 1)
			const cr = 0.05
			c := r.B().Pos.Add(ci.FromPolar(entity.FootBot.Radius+0.03+cr, ci.Radians(tt.yawDeg+tt.dirDeg)))
			addCylinder(s, c.X, c.Y, cr, 0.2)
			s.Reindex()
			p := proximitySensor(t, r, `<footbot_proximity />`)
			p.Update()
			rd := p.Readings()
			best := 0.0
			for _, x := range rd {
				best = math.Max(best, x.Value)
			}
			for _, i := range tt.peak {
				if math.Abs(rd[i].Value-best) > 1e-12 || best == 0 {
					t.Errorf("sensor %d reads %v, the maximum is %v", i, rd[i].Value, best)
				}
			}
			// The obstacle is 3 cm from the body: the sensor pointing at it
			// reads about the response at 3 cm.
			if want := entity.FootBotProximityResponse(0.03); len(tt.peak) == 1 && math.Abs(best-want) > 1e-9 {
				t.Errorf("peak %v, want %v", best, want)
			}
			for i, x := range rd {
				if x.Angle <= 0 && x.Value != 0 {
					t.Errorf("sensor %d on the right (%.1f deg) reads %v", i, ci.Degrees(x.Angle), x.Value)
				}
			}
		})
	}
}

// A robot sees other robots but not its own body; a low object under the
// sensors' height is not seen.
func TestProximitySeesOthersNotItself(t *testing.T) {
	for _, m := range []*entity.RobotModel{entity.EPuck, entity.FootBot} {
		t.Run(m.Type, func(t *testing.T) {
			s := newArena(4)
			me := addRobot(s, m, "me", 0, 0, 0, 1)
			p := proximitySensor(t, me, `<proximity />`)
			s.Reindex()
			p.Update()
			for i, x := range p.Readings() {
				if x.Value != 0 {
					t.Errorf("alone: sensor %d reads %v (its own body?)", i, x.Value)
				}
			}
			// A low box on its left, below the sensors.
			addBox(s, 0, m.Radius+0.02, 0.5, 0.02, m.Proximity.Height-0.01, 0)
			s.Reindex()
			p.Update()
			for i, x := range p.Readings() {
				if x.Value != 0 {
					t.Errorf("low box: sensor %d reads %v", i, x.Value)
				}
			}
			// Another robot 1 cm in front of it, facing it.
			other := addRobot(s, m, "other", 2*m.Radius+0.01, 0, 180, 2)
			s.Reindex()
			p.Update()
			front := 0
			for i, x := range p.Readings() {
				if math.Cos(x.Angle) > 0.9 && x.Value > 0 {
					front++
				} else if math.Cos(x.Angle) < 0 && x.Value != 0 {
					t.Errorf("other robot in front: back sensor %d reads %v", i, x.Value)
				}
			}
			if front == 0 {
				t.Error("the other robot is not seen")
			}
			// Once it has gone, every reading is back to zero.
			s.Bodies[other.Body].Pos.X += 1
			s.Reindex()
			p.Update()
			for i, x := range p.Readings() {
				if x.Value != 0 {
					t.Errorf("other robot gone: sensor %d still reads %v", i, x.Value)
				}
			}
			s.Bodies[other.Body].Pos.X -= 1
			s.Reindex()
			// And the other robot sees this one, but not itself.
			q := proximitySensor(t, other, `<proximity />`)
			q.Update()
			for i, x := range q.Readings() {
				if seen := x.Value > 0; seen != (math.Cos(x.Angle) > 0.9) && math.Abs(math.Cos(x.Angle)) > 0.5 {
					t.Errorf("other robot's sensor %d at %.1f deg reads %v", i, ci.Degrees(x.Angle), x.Value)
				}
			}
		})
	}
}

func TestProximityNoise(t *testing.T) {
	const noise = 0.05
	build := func(seed uint64) (*entity.Robot, interface {
		devices.Sensor
		ci.Proximity
	}) {
		s := newArena(2)
		r := addRobot(s, entity.EPuck, "ep", 0, 0, 0, seed)
		addBox(s, entity.EPuck.Radius+0.01+0.05, 0, 0.1, 1, 0.5, 0)
		s.Reindex()
		return r, proximitySensor(t, r, `<epuck_proximity noise_level="0.05" />`)
	}
	clean := func() []float64 {
		s := newArena(2)
		r := addRobot(s, entity.EPuck, "ep", 0, 0, 0, 1)
		addBox(s, entity.EPuck.Radius+0.01+0.05, 0, 0.1, 1, 0.5, 0)
		s.Reindex()
		p := proximitySensor(t, r, `<epuck_proximity />`)
		p.Update()
		var v []float64
		for _, x := range p.Readings() {
			v = append(v, x.Value)
		}
		return v
	}()
	if clean[0] < 0.3 || clean[0] > 0.9 || clean[3] != 0 {
		t.Fatalf("noiseless readings %v: want a middle value in front and 0 behind", clean)
	}
	_, a := build(42)
	_, b := build(42)
	_, c := build(43)
	const n = 2000
	sum, lo, hi := 0.0, 1.0, 0.0
	differs, varies := false, false
	prev := -1.0
	for range n {
		a.Update()
		b.Update()
		c.Update()
		ra, rb, rc := a.Readings(), b.Readings(), c.Readings()
		for i := range ra {
			if ra[i] != rb[i] {
				t.Fatalf("same seed, different readings: %v vs %v", ra[i], rb[i])
			}
			differs = differs || ra[i] != rc[i]
			v := ra[i].Value
			if v < 0 || v > 1 || math.Abs(v-clean[i]) > noise+1e-12 {
				t.Fatalf("sensor %d reads %v, clean %v, noise_level %v", i, v, clean[i], noise)
			}
		}
		v := ra[0].Value
		sum += v - clean[0]
		lo, hi = math.Min(lo, v-clean[0]), math.Max(hi, v-clean[0])
		varies = varies || (prev >= 0 && v != prev)
		prev = v
	}
	if !differs || !varies {
		t.Errorf("noise does not depend on the seed (%v) or does not vary (%v)", differs, varies)
	}
	// Uniform in [-noise, noise]: mean near 0, extremes near the bounds.
	if mean := sum / n; math.Abs(mean) > 0.005 || lo > -0.9*noise || hi < 0.9*noise {
		t.Errorf("noise mean %v, range [%v, %v]; want about 0 in [-%v, %v]", mean, lo, hi, noise, noise)
	}
}

func TestProximityErrors(t *testing.T) {
	tests := []struct {
		name  string
		m     *entity.RobotModel
		xml   string
		words []string
	}{
		{"foot-bot sensor on an e-puck", entity.EPuck, `<footbot_proximity implementation="default" />`,
			[]string{"<footbot_proximity>", "foot-bot", `robot "r"`, "e-puck", "<epuck_proximity>", "<proximity>"}},
		{"e-puck sensor on a foot-bot", entity.FootBot, `<epuck_proximity />`,
			[]string{"<epuck_proximity>", "e-puck", `robot "r"`, "foot-bot", "<footbot_proximity>"}},
		{"negative noise", entity.EPuck, `<proximity noise_level="-0.1" />`,
			[]string{"noise_level=-0.1", "negative"}},
		{"non-numeric noise", entity.FootBot, `<footbot_proximity noise_level="lots" />`,
			[]string{`noise_level="lots"`, "not a number"}},
		{"bad show_rays", entity.EPuck, `<epuck_proximity show_rays="1" />`,
			[]string{`show_rays="1"`, "not a boolean"}},
		{"unknown attribute", entity.EPuck, `<epuck_proximity range="0.2" />`,
			[]string{`unknown attribute "range"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newArena(1)
			r := addRobot(s, tt.m, "r", 0, 0, 0, 1)
			v, err := build(t, r, "sensors", tt.xml)
			if err == nil {
				t.Fatalf("no error; built %T", v)
			}
			checkError(t, err, tt.words)
		})
	}
}

// checkError checks that err points at the device's line and says what
// is wrong.
func checkError(t *testing.T, err error, words []string) {
	t.Helper()
	var ce *config.Error
	if !errors.As(err, &ce) || ce.File != "exp.argos" || ce.Line != firstDeviceLine {
		t.Errorf("error %q is not at exp.argos:%d", err, firstDeviceLine)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "exp.argos:"+strconv.Itoa(firstDeviceLine)+": ") {
		t.Errorf("error %q does not start with its position", msg)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not mention %q", msg, w)
		}
	}
}

// Sensors of many robots update at the same time in the sense phase: the
// results do not depend on it (and -race finds no write).
func TestProximityConcurrent(t *testing.T) {
	s := newArena(4)
	var robots []*entity.Robot
	for i := range 64 {
		x, y := -1.5+float64(i%8)*0.4, -1.5+float64(i/8)*0.4
		robots = append(robots, addRobot(s, entity.FootBot, "fb"+strconv.Itoa(i), x, y, float64(i)*37, uint64(i)))
	}
	addBox(s, 0, 0, 3, 0.05, 0.5, 30)
	s.Reindex()
	type prox interface {
		devices.Sensor
		ci.Proximity
	}
	seq := make([]prox, len(robots))
	par := make([]prox, len(robots))
	for i, r := range robots {
		seq[i] = proximitySensor(t, r, `<footbot_proximity />`)
		par[i] = proximitySensor(t, r, `<footbot_proximity />`)
		seq[i].Update()
	}
	var wg sync.WaitGroup
	for _, p := range par {
		wg.Go(p.Update)
	}
	wg.Wait()
	seen := 0
	for i := range robots {
		for k, x := range par[i].Readings() {
			if x != seq[i].Readings()[k] {
				t.Fatalf("robot %d sensor %d: %v in parallel, %v alone", i, k, x, seq[i].Readings()[k])
			}
			if x.Value > 0 {
				seen++
			}
		}
	}
	if seen == 0 {
		t.Fatal("no robot sees anything")
	}
}

// BenchmarkProximityUpdate updates the 8 sensors of e-pucks: "noise",
// among 10,000 bodies, the scalability benchmark's 40 m arena with walls
// and e-pucks at random positions (docs/benchmarks.md), with noise; and
// "crowded", without noise, e-pucks placed at random over a third of a
// 2 m square, as they gather late in a diffusion run (most rings meet a
// neighbour, some only beyond the 5 cm where the e-puck's curve reads
// anything).
func BenchmarkProximityUpdate(b *testing.B) {
	type prox interface {
		devices.Sensor
		ci.Proximity
	}
	b.Run("noise", func(b *testing.B) {
		s := newArena(41)
		for _, w := range [][4]float64{
			{-10, -20, 20, 0.1}, {10, -20, 20, 0.1}, {-10, 20, 20, 0.1}, {10, 20, 20, 0.1},
			{-20, -10, 0.1, 20}, {-20, 10, 0.1, 20}, {20, -10, 0.1, 20}, {20, 10, 0.1, 20},
			{0, -4.5, 0.1, 9}, {-4.5, 0, 9, 0.1}, {0, 4.5, 0.1, 9}, {4.5, 0, 9, 0.1},
			{0, -15.5, 0.1, 9}, {-15.5, 0, 9, 0.1}, {0, 15.5, 0.1, 9}, {15.5, 0, 9, 0.1},
		} {
			addBox(s, w[0], w[1], w[2], w[3], 0.5, 0)
		}
		robots := placeEPucks(s, 10000, 39.8, rand.New(rand.NewPCG(5, 6)))
		sensors := make([]prox, 256)
		for i := range sensors {
			sensors[i] = proximitySensor(b, robots[i*37], `<epuck_proximity noise_level="0.01" />`)
		}
		b.ReportAllocs()
		for k := 0; b.Loop(); k++ {
			sensors[k%len(sensors)].Update()
		}
	})
	b.Run("crowded", func(b *testing.B) {
		s := newArena(4)
		robots := placeEPucks(s, 400, math.Sqrt(400*math.Pi*entity.EPuck.Radius*entity.EPuck.Radius*3), rand.New(rand.NewPCG(7, 8)))
		sensors := make([]prox, len(robots))
		for i, r := range robots {
			sensors[i] = proximitySensor(b, r, `<epuck_proximity implementation="default" />`)
		}
		// the least CPU time of a pass over the sensors, on this thread:
		// what other processes' load changes least
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var least threadcpu.Least
		b.ReportAllocs()
		for b.Loop() {
			least.Start()
			for _, p := range sensors {
				p.Update()
			}
			least.Stop()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(sensors)), "ns/update")
		if ns, ok := least.Per(float64(len(sensors))); ok {
			b.ReportMetric(ns, "min-cpu-ns/update")
		}
	})
}

// placeEPucks adds e-pucks at random positions in a side-wide square
// around the origin, overlapping nothing, until s holds n bodies, and
// reindexes s.
func placeEPucks(s *space.Space, n int, side float64, rng *rand.Rand) []*entity.Robot {
	place := space.NewPlacement(s)
	for i := range s.Bodies {
		place.Insert(i)
	}
	var robots []*entity.Robot
	for len(s.Bodies) < n {
		x, y := (rng.Float64()-0.5)*side, (rng.Float64()-0.5)*side
		if b := (space.Body{Shape: space.Disc, Radius: entity.EPuck.Radius, Height: entity.EPuck.Height, Pos: ci.Vector2{X: x, Y: y}}); !place.Fits(&b) {
			continue
		}
		r := addRobot(s, entity.EPuck, "ep"+strconv.Itoa(len(robots)), x, y, rng.Float64()*360, uint64(len(robots)))
		place.Insert(r.Body)
		robots = append(robots, r)
	}
	s.Reindex()
	return robots
}

func TestProximityUpdateDoesNotAllocate(t *testing.T) {
	s := newArena(2)
	r := addRobot(s, entity.FootBot, "fb", 0, 0, 0, 1)
	addBox(s, 0.15, 0, 0.1, 1, 0.5, 0)
	s.Reindex()
	p := proximitySensor(t, r, `<footbot_proximity noise_level="0.1" />`)
	if allocs := testing.AllocsPerRun(100, p.Update); allocs != 0 {
		t.Errorf("Update allocates %v times, want 0", allocs)
	}
}

// A foot-bot's proximity rays meet another foot-bot's gripper, a 1 cm disc
// on its body's edge straight ahead of its turret (ARGoS's dynamics2d
// shape), as ARGoS 3's footbot_proximity_robot sweep shows.
func TestFootBotSeesTheGripper(t *testing.T) {
	s := newArena(2)
	// as at tick 659 of the sweep: fb1 at bearing 210 degrees, 0.17 m
	other := addRobot(s, entity.FootBot, "fb1", 0, 0, 0, 1) // gripper toward +x
	at := ci.FromPolar(0.17, ci.Radians(30))
	me := addRobot(s, entity.FootBot, "fb0", at.X, at.Y, 0, 2)
	s.Reindex()
	p := proximitySensor(t, me, `<footbot_proximity />`)
	m := entity.FootBot
	// the distance along the ray of sensor i to a disc c, r
	along := func(i int, c ci.Vector2, r float64) float64 {
		a := m.Proximity.Angles[i]
		from := at.Add(ci.FromPolar(m.Radius, a))
		d := ci.FromPolar(1, a)
		f := from.Sub(c)
		b, cc := f.Dot(d), f.Dot(f)-r*r
		if disc := b*b - cc; disc >= 0 && -b-math.Sqrt(disc) >= 0 {
			return -b - math.Sqrt(disc)
		}
		return math.Inf(1)
	}
	reading := func(d float64) float64 {
		if d > m.Proximity.Range {
			return 0
		}
		return m.Proximity.Response(d)
	}
	p.Update()
	differs := 0
	for _, i := range []int{14, 15, 16} { // toward fb1
		body := along(i, ci.Vector2{}, m.Radius)
		grip := along(i, ci.Vector2{X: m.Radius}, m.Gripper.Disc)
		want := reading(math.Min(body, grip))
		if got := p.Readings()[i].Value; math.Abs(got-want) > 1e-12 {
			t.Errorf("sensor %d reads %v, want %v (body at %.4f m, gripper at %.4f m)", i, got, want, body, grip)
		}
		if want != reading(body) {
			differs++
		}
	}
	if differs == 0 {
		t.Fatal("the gripper changes no reading here: the test proves little")
	}
	// with fb1's turret turned around, its gripper points away: the body
	// alone
	other.B().SetNubAngle(math.Pi)
	s.Reindex()
	p.Update()
	for _, i := range []int{14, 15, 16} {
		if got, want := p.Readings()[i].Value, reading(along(i, ci.Vector2{}, m.Radius)); math.Abs(got-want) > 1e-12 {
			t.Errorf("gripper turned away: sensor %d reads %v, want %v", i, got, want)
		}
	}
}

// The directions a proximity sensor offers controllers (diffusion's
// cache) are those of its readings' angles, and the clones of one sensor
// share them.
func TestProximityDirectionsMatchReadings(t *testing.T) {
	type ring interface {
		ci.Proximity
		Directions() ([]float64, []ci.Vector2)
	}
	s := newArena(4)
	for _, tc := range []struct {
		m   *entity.RobotModel
		xml string
	}{
		{entity.EPuck, `<epuck_proximity implementation="default"/>`},
		{entity.FootBot, `<footbot_proximity implementation="default"/>`},
		{entity.EPuck, `<proximity implementation="default"/>`},
	} {
		r := addRobot(s, tc.m, "r"+strconv.Itoa(len(s.Bodies)), 0, 0, 0, 1)
		p, ok := any(proximitySensor(t, r, tc.xml)).(ring)
		if !ok {
			t.Fatalf("%s: the sensor offers no Directions", tc.xml)
		}
		r2 := addRobot(s, tc.m, "r"+strconv.Itoa(len(s.Bodies)), 1, 1, 0, 2)
		c := p.(devices.Cloner).CloneFor(r2).(ring)
		angles, dirs := p.Directions()
		angles2, dirs2 := c.Directions()
		if len(angles) != len(p.Readings()) || len(dirs) != len(angles) {
			t.Fatalf("%s: %d angles and %d directions for %d readings", tc.xml, len(angles), len(dirs), len(p.Readings()))
		}
		for i, rd := range p.Readings() {
			if angles[i] != rd.Angle || dirs[i] != ci.FromPolar(1, rd.Angle) {
				t.Errorf("%s: sensor %d: direction (%v, %v), want the reading's angle %v and its unit vector", tc.xml, i, angles[i], dirs[i], rd.Angle)
			}
		}
		if &angles2[0] != &angles[0] || &dirs2[0] != &dirs[0] {
			t.Errorf("%s: a clone has directions of its own, want the prototype's", tc.xml)
		}
	}
}

// AllZero says whether the last Update found nothing in reach: true for a
// robot alone, false once a box is in reach, false with noise (whose
// readings need not be zero), and false before any Update.
func TestProximityAllZero(t *testing.T) {
	type zeroer interface{ AllZero() bool }
	s := newArena(4)
	r := addRobot(s, entity.EPuck, "alone", -1, -1, 0, 1)
	near := addRobot(s, entity.EPuck, "near", 1, 1, 0, 2)
	addBox(s, 1.06, 1, 0.02, 0.2, 0.1, 0)
	noisy := addRobot(s, entity.EPuck, "noisy", -1, 1, 0, 3)
	s.Reindex()
	p := proximitySensor(t, r, `<epuck_proximity implementation="default"/>`)
	if p.(zeroer).AllZero() {
		t.Errorf("AllZero before any Update, want false")
	}
	p.Update()
	if !p.(zeroer).AllZero() {
		t.Errorf("alone: AllZero false, want true")
	}
	for i, rd := range p.Readings() {
		if rd.Value != 0 {
			t.Errorf("alone: reading %d is %v, want 0", i, rd.Value)
		}
	}
	q := p.(devices.Cloner).CloneFor(near).(devices.Sensor)
	q.Update()
	sum := 0.0
	for _, rd := range q.(ci.Proximity).Readings() {
		sum += rd.Value
	}
	if q.(zeroer).AllZero() || sum == 0 {
		t.Errorf("a box in reach: AllZero %v with readings summing to %v, want false and more than 0", q.(zeroer).AllZero(), sum)
	}
	n := proximitySensor(t, noisy, `<epuck_proximity implementation="default" noise_level="0.1"/>`)
	n.Update()
	if n.(zeroer).AllZero() {
		t.Errorf("with noise: AllZero true, want false")
	}
}

// AllZero is true exactly when every reading is +0, also when a ray met
// something at a distance where the response curve reads nothing (an
// e-puck's reads 0 beyond 5 cm of its 10 cm range): e-pucks crowded at
// random, some rings meeting nothing, some meeting only far bodies, most
// reading something.
func TestProximityAllZeroWhenTheCurveReadsNothing(t *testing.T) {
	s := newArena(4)
	robots := placeEPucks(s, len(s.Bodies)+300, 2.6, rand.New(rand.NewPCG(9, 10)))
	type zeroer interface{ AllZero() bool }
	dirs := make([]ci.Vector2, len(entity.EPuck.Proximity.Angles))
	for k, a := range entity.EPuck.Proximity.Angles {
		dirs[k] = ci.FromPolar(1, a)
	}
	tt := make([]float64, len(dirs))
	var none, far, near int
	for _, r := range robots {
		p := proximitySensor(t, r, `<epuck_proximity implementation="default"/>`)
		for range 2 { // from the zero readings of a new sensor, then from its own
			p.Update()
			zero := true
			for _, rd := range p.Readings() {
				if math.Float64bits(rd.Value) != 0 {
					zero = false
				}
			}
			if got := p.(zeroer).AllZero(); got != zero {
				t.Fatalf("robot %s: AllZero %v, readings %v", r.ID, got, p.Readings())
			}
		}
		b := r.B()
		hits := s.CastRing(r.Body, dirs, b.Radius, b.Radius+entity.EPuck.Proximity.Range, b.Z+entity.EPuck.Proximity.Height, tt)
		switch zero := p.(zeroer).AllZero(); {
		case hits == 0:
			none++
			if !zero {
				t.Fatalf("robot %s: nothing in reach, AllZero false", r.ID)
			}
		case zero:
			far++
		default:
			near++
		}
	}
	t.Logf("%d rings meet nothing, %d only what reads zero, %d read something", none, far, near)
	if none == 0 || far == 0 || near == 0 {
		t.Errorf("the test proves little")
	}
}

// A sensor whose response reads nothing beyond some distance (an
// e-puck's, beyond 5 cm) gathers only the bodies within it: its readings
// must stay, bit for bit, those of the full rays (space.CastRing) through
// the curve, for e-pucks crowded at random (some at about 5 cm of a
// sensor), with the model's curve and with the generic one.
func TestProximityReadsAsTheFullRays(t *testing.T) {
	s := newArena(4)
	robots := placeEPucks(s, len(s.Bodies)+300, 2.4, rand.New(rand.NewPCG(11, 12)))
	ring := &entity.EPuck.Proximity
	if ring.ZeroBeyond <= 0 || ring.ZeroBeyond >= ring.Range {
		t.Fatalf("the e-puck's ZeroBeyond %v: the test needs one within its range %v", ring.ZeroBeyond, ring.Range)
	}
	dirs := make([]ci.Vector2, len(ring.Angles))
	for k, a := range ring.Angles {
		dirs[k] = ci.FromPolar(1, a)
	}
	tt := make([]float64, len(dirs))
	var far int
	for _, tag := range []string{"epuck_proximity", "proximity"} {
		response := ring.Response
		if tag == "proximity" {
			response = devices.GenericProximityResponse
		}
		for _, r := range robots {
			p := proximitySensor(t, r, "<"+tag+` implementation="default"/>`)
			p.Update()
			b := r.B()
			s.CastRing(r.Body, dirs, b.Radius, b.Radius+ring.Range, b.Z+ring.Height, tt)
			for k, rd := range p.Readings() {
				want := 0.0
				if tt[k] >= 0 {
					want = response(tt[k] * ring.Range)
					if tt[k]*ring.Range > ring.ZeroBeyond {
						far++
					}
				}
				if math.Float64bits(rd.Value) != math.Float64bits(want) {
					t.Fatalf("<%s> of robot %s, sensor %d: reads %v, the full ray %v (hit at %v)", tag, r.ID, k, rd.Value, want, tt[k]*ring.Range)
				}
			}
		}
	}
	if far == 0 {
		t.Error("no ray met a body beyond ZeroBeyond: the test proves little")
	}
}

// A sensor that keeps its readings while nothing its ring meets moves
// (a robot stuck among stuck robots) reads, tick after tick, what the
// full rays read: when the robot turns in place, rises, or a neighbour
// moves by the least of moves, it casts again. It says Unchanged exactly
// when it reads what it read the tick before. Most robots rest, as in a
// jam.
func TestProximityKeepsReadingsOnlyWhileSettled(t *testing.T) {
	s := newArena(4)
	rng := rand.New(rand.NewPCG(13, 14))
	robots := placeEPucks(s, len(s.Bodies)+300, 1.6, rng)
	ring := &entity.EPuck.Proximity
	dirs := make([]ci.Vector2, len(ring.Angles))
	for k, a := range ring.Angles {
		dirs[k] = ci.FromPolar(1, a)
	}
	sensors := make([]interface {
		devices.Sensor
		ci.Proximity
	}, len(robots))
	for i, r := range robots {
		sensors[i] = proximitySensor(t, r, `<epuck_proximity implementation="default"/>`)
	}
	tt := make([]float64, len(dirs))
	sensed, unchanged := 0, 0
	type steady interface{ Unchanged() bool }
	before := make([][]float64, len(robots)) // each sensor's readings of the tick before
	for tick := range 25 {
		for _, r := range robots {
			b := r.B()
			switch k := rng.IntN(100); {
			case k < 85: // resting
			case k < 92:
				b.Pos = b.Pos.Add(ci.FromPolar(0.002, b.Yaw))
			case k < 97:
				b.SetYaw(b.Yaw + 0.05) // in place
			case k < 99:
				b.Pos.X = math.Nextafter(b.Pos.X, math.Inf(1))
			default:
				b.Z = 0.001 * float64(tick%2)
			}
		}
		s.Reindex()
		for i, r := range robots {
			sensors[i].Update()
			// Unchanged: the readings of the tick before, bit for bit
			// (never at the first Update), and those are Unchanged
			alike := tick > 0
			for k, rd := range sensors[i].Readings() {
				alike = alike && math.Float64bits(rd.Value) == math.Float64bits(before[i][k])
			}
			if alike && !sensors[i].(steady).Unchanged() {
				t.Fatalf("tick %d, robot %s: reads what it read the tick before, but not Unchanged", tick, r.ID)
			}
			if sensors[i].(steady).Unchanged() {
				if tick == 0 {
					t.Fatalf("robot %s: Unchanged at the first Update", r.ID)
				}
				for k, rd := range sensors[i].Readings() {
					if math.Float64bits(rd.Value) != math.Float64bits(before[i][k]) {
						t.Fatalf("tick %d, robot %s, sensor %d: Unchanged, but reads %v after %v", tick, r.ID, k, rd.Value, before[i][k])
					}
				}
				unchanged++
			}
			before[i] = before[i][:0]
			for _, rd := range sensors[i].Readings() {
				before[i] = append(before[i], rd.Value)
			}
			b := r.B()
			s.CastRing(r.Body, dirs, b.Radius, b.Radius+ring.Range, b.Z+ring.Height, tt)
			for k, rd := range sensors[i].Readings() {
				want := 0.0
				if tt[k] >= 0 {
					want = ring.Response(tt[k] * ring.Range)
				}
				if math.Float64bits(rd.Value) != math.Float64bits(want) {
					t.Fatalf("tick %d, robot %s, sensor %d: reads %v, the full ray %v", tick, r.ID, k, rd.Value, want)
				}
				if want > 0 {
					sensed++
				}
			}
		}
	}
	if sensed < 5000 || unchanged < 500 {
		t.Errorf("%d readings above zero, %d updates unchanged: the test proves little", sensed, unchanged)
	}
}

// A ring of more sensors than a proximity sensor can hold is refused,
// with the robot and the count.
func TestProximityTooManyRays(t *testing.T) {
	m := *entity.EPuck
	m.Proximity.Angles = make([]float64, 1<<16)
	r := addRobot(newArena(2), &m, "ep1", 0, 0, 0, 1)
	_, err := build(t, r, "sensors", `<proximity implementation="default"/>`)
	checkError(t, err, []string{"ep1", "65536", "65535"})
}
