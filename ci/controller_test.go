package ci

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// fakeRobot is a minimal Robot; citest has the full one, but package ci
// cannot import it from its internal tests.
type fakeRobot struct {
	sensors, actuators map[string]any
}

func (r fakeRobot) ID() string       { return "fb7" }
func (r fakeRobot) Rand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
func (r fakeRobot) Sensor(tag string) (any, bool) {
	d, ok := r.sensors[tag]
	return d, ok
}
func (r fakeRobot) Actuator(tag string) (any, bool) {
	d, ok := r.actuators[tag]
	return d, ok
}

type wheels struct{ l, r float64 }

func (w *wheels) SetLinearVelocity(l, r float64) { w.l, w.r = l, r }

type ring []ProximityReading

func (p ring) Readings() []ProximityReading { return p }

func TestGetDevice(t *testing.T) {
	w := &wheels{}
	p := ring{{Value: 0.5, Angle: 1}}
	r := fakeRobot{
		sensors:   map[string]any{TagFootBotProximity: p, TagPositioning: 42},
		actuators: map[string]any{TagDifferentialSteering: w, TagLEDs: "not leds"},
	}

	gotW, err := GetActuator[DifferentialSteeringActuator](r, TagDifferentialSteering)
	if err != nil {
		t.Fatalf("GetActuator: %v", err)
	}
	gotW.SetLinearVelocity(1, 2)
	if w.l != 1 || w.r != 2 {
		t.Errorf("GetActuator returned another device than the declared one")
	}
	gotP, err := GetSensor[Proximity](r, TagFootBotProximity)
	if err != nil {
		t.Fatalf("GetSensor: %v", err)
	}
	if rd := gotP.Readings(); len(rd) != 1 || rd[0].Value != 0.5 {
		t.Errorf("GetSensor returned readings %v, want %v", rd, p)
	}

	for _, tc := range []struct {
		name      string
		get       func() error
		wrapped   error
		fragments []string
	}{
		{
			name: "undeclared sensor",
			get: func() error {
				_, err := GetSensor[Proximity](r, TagEPuckProximity)
				return err
			},
			wrapped: ErrNotDeclared,
			fragments: []string{`robot "fb7"`, `sensor "epuck_proximity"`,
				`<epuck_proximity implementation="default"/>`, "under <sensors>"},
		},
		{
			name: "undeclared actuator",
			get: func() error {
				_, err := GetActuator[LEDs](r, "beacon")
				return err
			},
			wrapped: ErrNotDeclared,
			fragments: []string{`robot "fb7"`, `actuator "beacon"`,
				`<beacon implementation="default"/>`, "under <actuators>"},
		},
		{
			name: "sensor of another type",
			get: func() error {
				_, err := GetSensor[Positioning](r, TagPositioning)
				return err
			},
			wrapped:   ErrWrongType,
			fragments: []string{`robot "fb7"`, `sensor "positioning"`, "is a int", "ci.Positioning"},
		},
		{
			name: "actuator of another type",
			get: func() error {
				_, err := GetActuator[LEDs](r, TagLEDs)
				return err
			},
			wrapped:   ErrWrongType,
			fragments: []string{`actuator "leds"`, "is a string", "ci.LEDs"},
		},
		{
			name: "a sensor tag is not an actuator",
			get: func() error {
				_, err := GetActuator[Proximity](r, TagFootBotProximity)
				return err
			},
			wrapped:   ErrNotDeclared,
			fragments: []string{`actuator "footbot_proximity"`, "under <actuators>"},
		},
	} {
		err := tc.get()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !errors.Is(err, tc.wrapped) {
			t.Errorf("%s: error %q does not wrap %v", tc.name, err, tc.wrapped)
		}
		other := ErrWrongType
		if tc.wrapped == ErrWrongType {
			other = ErrNotDeclared
		}
		if errors.Is(err, other) {
			t.Errorf("%s: error %q also wraps %v", tc.name, err, other)
		}
		if !strings.HasPrefix(err.Error(), "ci: ") {
			t.Errorf("%s: error %q does not start with the package name", tc.name, err)
		}
		for _, f := range tc.fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, f)
			}
		}
	}
}
