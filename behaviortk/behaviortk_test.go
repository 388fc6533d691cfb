package behaviortk_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
)

func wheels(l, r float64) behaviortk.Behavior {
	return behaviortk.Func(func(s *behaviortk.State) { s.SetWheels(l, r) })
}

func TestSequenceLaterOverridesEarlier(t *testing.T) {
	s := &behaviortk.State{}
	behaviortk.Sequence{wheels(1, 1), wheels(2, 3)}.Step(s)
	if s.Out.Left != 2 || s.Out.Right != 3 {
		t.Fatalf("wheels %g,%g; the later behaviour must win", s.Out.Left, s.Out.Right)
	}
	// a behaviour that does not set the wheels leaves the earlier choice
	s = &behaviortk.State{}
	behaviortk.Sequence{wheels(5, 5), behaviortk.Func(func(s *behaviortk.State) { s.SetLEDs(ci.Red) })}.Step(s)
	if s.Out.Left != 5 || !s.Out.LEDsSet || s.Out.LEDColor != ci.Red {
		t.Fatalf("outputs %+v", s.Out)
	}
}

func TestParallelChildrenWorkOnIndependentCopies(t *testing.T) {
	s := &behaviortk.State{Proximity: []ci.ProximityReading{{Value: 0.5}}, Memory: map[string]float64{"x": 1}}
	var seen []float64
	a := behaviortk.Func(func(c *behaviortk.State) {
		c.Proximity[0].Value = 9 // must not leak into the other child or the original
		c.Memory["x"] = 42
		c.SetWheels(10, 0)
	})
	b := behaviortk.Func(func(c *behaviortk.State) {
		seen = append(seen, c.Proximity[0].Value, c.Memory["x"], c.Out.Left)
		c.SetWheels(0, 10)
	})
	p := behaviortk.NewParallel(behaviortk.AverageWheels, a, b)
	p.Step(s)
	if seen[0] != 0.5 || seen[1] != 1 || seen[2] != 0 {
		t.Fatalf("the second child saw proximity %g, memory %g, left %g: the first child's writes leaked", seen[0], seen[1], seen[2])
	}
	if s.Proximity[0].Value != 0.5 || s.Memory["x"] != 1 {
		t.Fatal("a child changed the original state's readings")
	}
	if s.Out.Left != 5 || s.Out.Right != 5 {
		t.Fatalf("merged wheels %g,%g, want the average 5,5", s.Out.Left, s.Out.Right)
	}
}

func TestStateCopyDoesNotAlias(t *testing.T) {
	s := &behaviortk.State{
		Proximity: []ci.ProximityReading{{Value: 1}},
		Light:     []ci.LightReading{{Value: 1}},
		Ground:    []ci.GroundReading{{Value: 1}},
		Blobs:     []ci.Blob{{Distance: 1}},
		Memory:    map[string]float64{"k": 1},
	}
	s.Out.RAB = []byte{1}
	c := s.Clone()
	c.Proximity[0].Value, c.Light[0].Value, c.Ground[0].Value, c.Blobs[0].Distance = 2, 2, 2, 2
	c.Memory["k"], c.Out.RAB[0] = 2, 2
	if s.Proximity[0].Value != 1 || s.Light[0].Value != 1 || s.Ground[0].Value != 1 || s.Blobs[0].Distance != 1 ||
		s.Memory["k"] != 1 || s.Out.RAB[0] != 1 {
		t.Fatalf("writing the copy changed the original: %+v", s)
	}
	// packets: payloads live in the copy's own storage
	bind := behaviortk.Bind(citest.NewRobot("r", 1).AddSensor(ci.TagRangeAndBearing, &rab{packets: []ci.RABPacket{{Range: 10, Data: []byte{7, 8}}}}))
	bind.Sense(s)
	c = s.Clone()
	c.Packets[0].Data[0] = 99
	if s.Packets[0].Data[0] != 7 {
		t.Fatal("a packet payload is shared between a state and its copy")
	}
}

type rab struct{ packets []ci.RABPacket }

func (r *rab) Packets() []ci.RABPacket { return r.packets }

func TestCopyToReusesBuffers(t *testing.T) {
	s := &behaviortk.State{Proximity: make([]ci.ProximityReading, 24), Light: make([]ci.LightReading, 24), Memory: map[string]float64{"a": 1}}
	dst := &behaviortk.State{}
	s.CopyTo(dst)
	if n := testing.AllocsPerRun(100, func() { s.CopyTo(dst) }); n != 0 {
		t.Fatalf("CopyTo into a used state allocates %g times", n)
	}
}

func TestFSM(t *testing.T) {
	var log []string
	m := behaviortk.NewFSM("explore").
		State("explore", wheels(5, 5)).
		State("return", wheels(-5, -5)).
		State("rest", nil).
		Transition("explore", "found", "return").
		Transition("return", "home", "rest").
		Transition("rest", "rested", "explore").
		When("found", func(s *behaviortk.State) bool { return s.Memory["food"] > 0 }).
		OnChange(func(from, to, in string) { log = append(log, from+">"+to+":"+in) })
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	s := &behaviortk.State{Memory: map[string]float64{}}
	m.Step(s)
	if m.Current() != "explore" || s.Out.Left != 5 {
		t.Fatalf("state %s, wheels %g", m.Current(), s.Out.Left)
	}
	s.Memory["food"] = 1
	m.Step(s)
	if m.Current() != "return" || s.Out.Left != -5 {
		t.Fatalf("condition did not move the machine: state %s, wheels %g", m.Current(), s.Out.Left)
	}
	// an input the current state does not react to: no move, no error
	if moved, err := m.Fire("rested"); moved || err != nil {
		t.Fatalf("Fire(rested) in state return: moved=%v err=%v", moved, err)
	}
	// an input nobody knows: an error
	if _, err := m.Fire("hom"); !errors.Is(err, behaviortk.ErrUnknownInput) {
		t.Fatalf("Fire(hom): %v, want ErrUnknownInput", err)
	}
	if moved, _ := m.Fire("home"); !moved || m.Current() != "rest" {
		t.Fatalf("Fire(home): state %s", m.Current())
	}
	m.Reset()
	if m.Current() != "explore" {
		t.Fatal("Reset must go back to the start state")
	}
	if len(log) != 2 || log[0] != "explore>return:found" || log[1] != "return>rest:home" {
		t.Fatalf("transitions logged: %v", log)
	}
}

func TestFSMValidate(t *testing.T) {
	cases := map[string]*behaviortk.FSM{
		"start undefined":     behaviortk.NewFSM("a").State("b", nil),
		"target undefined":    behaviortk.NewFSM("a").State("a", nil).Transition("a", "go", "b"),
		"source undefined":    behaviortk.NewFSM("a").State("a", nil).Transition("z", "go", "a"),
		"state twice":         behaviortk.NewFSM("a").State("a", nil).State("a", nil),
		"conflicting targets": behaviortk.NewFSM("a").State("a", nil).State("b", nil).Transition("a", "go", "a").Transition("a", "go", "b"),
		"unused condition":    behaviortk.NewFSM("a").State("a", nil).When("never", func(*behaviortk.State) bool { return true }),
	}
	for name, m := range cases {
		if m.Validate() == nil {
			t.Errorf("%s: Validate accepted the machine", name)
		}
	}
}

func TestControllerSensesStepsActs(t *testing.T) {
	w := &citest.Wheels{}
	prox := citest.NewFootBotProximity()
	leds := citest.NewLEDs(13)
	robot := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, w).AddActuator(ci.TagLEDs, leds).
		AddSensor(ci.TagFootBotProximity, prox)
	c := behaviortk.NewController(func(r ci.Robot, b *behaviortk.Binding, p ci.Params) (behaviortk.Behavior, error) {
		speed, err := p.FloatOr("speed", 10)
		if err != nil {
			return nil, err
		}
		return behaviortk.Sequence{
			&behaviortk.RandomWalk{Speed: speed, Rand: r.Rand()},
			behaviortk.AvoidObstacles{Speed: speed, Threshold: 0.1},
			behaviortk.Func(func(s *behaviortk.State) { s.SetLEDs(ci.Blue) }),
		}, nil
	})
	if err := c.Init(robot, ci.NewParams("speed", "10")); err != nil {
		t.Fatal(err)
	}
	prox.Set(0, 0.9) // obstacle just left of the front
	c.ControlStep()
	if !(w.Left > w.Right) {
		t.Fatalf("obstacle on the front-left: wheels %g,%g, want a right turn", w.Left, w.Right)
	}
	if leds.Colors[0] != ci.Blue || leds.Colors[12] != ci.Blue {
		t.Fatalf("LEDs %v", leds.Colors)
	}
	citest.TestController(t, func() ci.Controller {
		return behaviortk.NewController(func(r ci.Robot, _ *behaviortk.Binding, _ ci.Params) (behaviortk.Behavior, error) {
			return &behaviortk.RandomWalk{Speed: 5, TurnProb: 0.1, MaxTurnSteps: 5, Rand: r.Rand()}, nil
		})
	}, robot, ci.Params{}, 20)
}

func TestControllerNeedsAMotor(t *testing.T) {
	c := behaviortk.NewController(func(ci.Robot, *behaviortk.Binding, ci.Params) (behaviortk.Behavior, error) { return wheels(0, 0), nil })
	err := c.Init(citest.NewRobot("x", 1), ci.Params{})
	if !errors.Is(err, ci.ErrNotDeclared) {
		t.Fatalf("Init without wheels: %v", err)
	}
}

func TestLibrary(t *testing.T) {
	t.Run("phototaxis turns toward a light on the left", func(t *testing.T) {
		s := &behaviortk.State{Light: []ci.LightReading{{Value: 0.8, Angle: math.Pi / 2}, {Value: 0.1, Angle: -math.Pi / 2}}}
		behaviortk.Phototaxis{Speed: 10}.Step(s)
		if !(s.Out.Right > s.Out.Left) {
			t.Fatalf("wheels %g,%g, want a left turn", s.Out.Left, s.Out.Right)
		}
	})
	t.Run("avoidance leaves free robots alone", func(t *testing.T) {
		s := &behaviortk.State{Proximity: []ci.ProximityReading{{Value: 0.01, Angle: 0}}}
		s.SetWheels(3, 3)
		behaviortk.AvoidObstacles{Speed: 10, Threshold: 0.1}.Step(s)
		if s.Out.Left != 3 || s.Out.Right != 3 {
			t.Fatalf("wheels changed to %g,%g below the threshold", s.Out.Left, s.Out.Right)
		}
	})
	t.Run("go to blob stops close", func(t *testing.T) {
		s := &behaviortk.State{Blobs: []ci.Blob{{Color: ci.Green, Angle: 0.3, Distance: 0.5}, {Color: ci.Red, Angle: -1, Distance: 0.05}}}
		behaviortk.GoToBlob{Color: ci.Red, Speed: 10, StopDistance: 0.1}.Step(s)
		if s.Out.Left != 0 || s.Out.Right != 0 || !s.Out.Camera {
			t.Fatalf("close to the red blob: wheels %g,%g camera %v", s.Out.Left, s.Out.Right, s.Out.Camera)
		}
		behaviortk.GoToBlob{Color: ci.Green, Speed: 10}.Step(s)
		if !(s.Out.Right > s.Out.Left) {
			t.Fatalf("green blob on the left: wheels %g,%g", s.Out.Left, s.Out.Right)
		}
	})
	t.Run("grip when something is in front", func(t *testing.T) {
		s := &behaviortk.State{Proximity: []ci.ProximityReading{{Value: 0.9, Angle: 0.1}}}
		behaviortk.Grip{Threshold: 0.5}.Step(s)
		if s.Out.Grip != behaviortk.GripLock {
			t.Fatal("no lock with an object in front")
		}
		s = &behaviortk.State{Proximity: []ci.ProximityReading{{Value: 0.9, Angle: 2}}}
		behaviortk.Grip{Threshold: 0.5}.Step(s)
		if s.Out.Grip != behaviortk.GripKeep {
			t.Fatal("locked on an object behind")
		}
	})
	t.Run("nest", func(t *testing.T) {
		s := &behaviortk.State{Ground: []ci.GroundReading{{Value: 0.5}, {Value: 0.5}, {Value: 0.5}, {Value: 1}}}
		behaviortk.GoToNest{Speed: 10, NestLo: 0.4, NestHi: 0.6, StopInNest: true}.Step(s)
		if s.Out.Left != 0 || s.Out.Right != 0 {
			t.Fatal("in the nest but still driving")
		}
	})
	t.Run("random walk is reproducible", func(t *testing.T) {
		run := func() []float64 {
			w := &behaviortk.RandomWalk{Speed: 5, TurnProb: 0.3, MaxTurnSteps: 4, Rand: rand.New(rand.NewPCG(1, 2))}
			var out []float64
			s := &behaviortk.State{}
			for i := 0; i < 50; i++ {
				w.Step(s)
				out = append(out, s.Out.Left)
			}
			return out
		}
		a, b := run(), run()
		turns := 0
		for i := range a {
			if a[i] != b[i] {
				t.Fatal("same seed, different walk")
			}
			if a[i] < 0 || a[i] != 5 {
				turns++
			}
		}
		if turns == 0 {
			t.Fatal("a walk with turn probability 0.3 never turned")
		}
	})
}

func BenchmarkControlStep(b *testing.B) {
	robot := citest.NewRobot("fb0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
		AddSensor(ci.TagFootBotProximity, citest.NewFootBotProximity())
	c := behaviortk.NewController(func(r ci.Robot, _ *behaviortk.Binding, _ ci.Params) (behaviortk.Behavior, error) {
		return behaviortk.Sequence{
			&behaviortk.RandomWalk{Speed: 5, TurnProb: 0.1, MaxTurnSteps: 5, Rand: r.Rand()},
			behaviortk.NewParallel(behaviortk.AverageWheels, behaviortk.AvoidObstacles{Speed: 5, Threshold: 0.1}, behaviortk.Phototaxis{Speed: 5}),
		}, nil
	})
	if err := c.Init(robot, ci.Params{}); err != nil {
		b.Fatal(err)
	}
	c.ControlStep()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.ControlStep()
	}
}
