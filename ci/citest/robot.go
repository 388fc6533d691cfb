package citest

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/argosgo/argos/ci"
)

// Robot is a fake [ci.Robot]: an id, a deterministic random stream and the
// devices the test added under their XML tags.
type Robot struct {
	id        string
	rng       *rand.Rand
	sensors   map[string]any
	actuators map[string]any
}

var _ ci.Robot = (*Robot)(nil)

// NewRobot returns a robot without devices. Its random stream is a PCG
// seeded from seed and id, so the same seed and id give the same stream.
func NewRobot(id string, seed uint64) *Robot {
	h := fnv.New64a()
	h.Write([]byte(id))
	return &Robot{
		id:        id,
		rng:       rand.New(rand.NewPCG(seed, h.Sum64())),
		sensors:   map[string]any{},
		actuators: map[string]any{},
	}
}

// AddSensor declares dev under <sensors> with the given tag and returns r.
// Adding a nil device or a tag twice is a mistake in the test and panics.
func (r *Robot) AddSensor(tag string, dev any) *Robot {
	add(r.sensors, "sensor", tag, dev)
	return r
}

// AddActuator declares dev under <actuators> with the given tag and
// returns r. Adding a nil device or a tag twice panics.
func (r *Robot) AddActuator(tag string, dev any) *Robot {
	add(r.actuators, "actuator", tag, dev)
	return r
}

func add(devices map[string]any, kind, tag string, dev any) {
	if dev == nil {
		panic(fmt.Sprintf("citest: %s %q: device is nil", kind, tag))
	}
	if _, dup := devices[tag]; dup {
		panic(fmt.Sprintf("citest: %s %q added twice", kind, tag))
	}
	devices[tag] = dev
}

// ID returns the id given to NewRobot.
func (r *Robot) ID() string { return r.id }

// Rand returns the robot's random stream; every call returns the same
// *rand.Rand.
func (r *Robot) Rand() *rand.Rand { return r.rng }

// Sensor returns the sensor added under tag.
func (r *Robot) Sensor(tag string) (any, bool) {
	d, ok := r.sensors[tag]
	return d, ok
}

// Actuator returns the actuator added under tag.
func (r *Robot) Actuator(tag string) (any, bool) {
	d, ok := r.actuators[tag]
	return d, ok
}
