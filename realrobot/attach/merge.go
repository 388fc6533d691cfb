package attach

import (
	"errors"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
)

// Merged is a real robot's driver combined with its link to a
// simulation, for a robot marked real="true" in a mixed experiment: the
// controller gets the robot's own sensors, the simulation's virtual
// readings, or both merged, tag by tag (the merge rules of <remote>,
// simlink.ParseMerge); its actuators are the robot's, and those the
// board lacks (messaging) go through the simulation, whose channel
// models carry the messages. LEDs declared on both sides are set on
// both: the robot's, and its body's, which simulated cameras see.
type Merged struct {
	real  realrobot.Driver
	link  *Driver
	rules map[string]string
	sens  map[string]any
	leds  *teeLEDs // the robot's LEDs, shown on its simulated body too
}

var _ realrobot.Driver = (*Merged)(nil)

// Merge combines the real robot's driver and the link; rules map a
// sensor tag to "max", "virtual" or "real".
func Merge(real realrobot.Driver, link *Driver, rules map[string]string) *Merged {
	m := &Merged{real: real, link: link, rules: rules, sens: map[string]any{}}
	for tag, rule := range rules {
		if rule != "max" {
			continue
		}
		r, ok1 := real.Sensor(tag)
		v, ok2 := link.Sensor(tag)
		if !ok1 || !ok2 {
			continue
		}
		if rp, ok := r.(ci.Proximity); ok {
			if vp, ok := v.(ci.Proximity); ok {
				m.sens[tag] = &maxProximity{real: rp, virtual: vp}
			}
		}
		if rl, ok := r.(ci.Light); ok {
			if vl, ok := v.(ci.Light); ok {
				m.sens[tag] = &maxLight{real: rl, virtual: vl}
			}
		}
	}
	if r, ok := real.Actuator(ci.TagLEDs); ok {
		if v, ok := link.Actuator(ci.TagLEDs); ok {
			rl, ok1 := r.(ci.LEDs)
			vl, ok2 := v.(ci.LEDs)
			if ok1 && ok2 {
				m.leds = &teeLEDs{real: rl, virtual: vl}
			}
		}
	}
	return m
}

// teeLEDs sets the robot's LEDs and those of its simulated body, which
// the cameras of simulated robots see.
type teeLEDs struct{ real, virtual ci.LEDs }

func (t *teeLEDs) Len() int { return t.real.Len() }
func (t *teeLEDs) SetSingleColor(i int, c ci.Color) {
	t.real.SetSingleColor(i, c)
	t.virtual.SetSingleColor(i, c)
}
func (t *teeLEDs) SetAllColors(c ci.Color) {
	t.real.SetAllColors(c)
	t.virtual.SetAllColors(c)
}

// Done is closed when the simulation said bye or the link dropped.
func (m *Merged) Done() <-chan struct{} { return m.link.Done() }

// Err says why Done closed.
func (m *Merged) Err() error { return m.link.Err() }

// Sense reads the robot's sensors, then the simulation's readings.
func (m *Merged) Sense() error {
	if err := m.real.Sense(); err != nil {
		return err
	}
	return m.link.Sense()
}

// Act sends the commands to the robot, then the rest to the
// simulation.
func (m *Merged) Act() error {
	err := m.real.Act()
	if errors.Is(err, realrobot.ErrSuperseded) {
		// The stop that superseded it may have reached the link before
		// the link sensed this tick, and answered the tick before: a
		// stop answers this one, or the simulation in lockstep would
		// wait for it (a second stop of a tick changes nothing).
		m.link.Stop()
		return err
	}
	return errors.Join(err, m.link.Act())
}

// Stop stops the robot's wheels (and tells the simulation).
func (m *Merged) Stop() error {
	err := m.real.Stop()
	m.link.Stop() // the simulation does not move a real robot
	return err
}

// Sensor returns the merged, virtual or real sensor of the tag.
func (m *Merged) Sensor(tag string) (any, bool) {
	if d, ok := m.sens[tag]; ok {
		return d, true
	}
	if m.rules[tag] == "virtual" {
		return m.link.Sensor(tag)
	}
	if d, ok := m.real.Sensor(tag); ok {
		return d, true
	}
	return m.link.Sensor(tag)
}

// Actuator returns the robot's actuator of the tag, or the simulation's
// when the board has none (messaging).
func (m *Merged) Actuator(tag string) (any, bool) {
	if tag == ci.TagLEDs && m.leds != nil {
		return m.leds, true
	}
	if d, ok := m.real.Actuator(tag); ok {
		return d, true
	}
	return m.link.Actuator(tag)
}

// Close closes both.
func (m *Merged) Close() error { return errors.Join(m.link.Close(), m.real.Close()) }

// maxProximity is a ring whose readings are, one by one, the larger of
// the robot's and the simulation's.
type maxProximity struct {
	real, virtual ci.Proximity
	out           []ci.ProximityReading
}

func (p *maxProximity) Readings() []ci.ProximityReading {
	r, v := p.real.Readings(), p.virtual.Readings()
	p.out = append(p.out[:0], r...)
	for i := range min(len(r), len(v)) {
		p.out[i].Value = max(p.out[i].Value, v[i].Value)
	}
	return p.out
}

// maxLight is maxProximity for light rings.
type maxLight struct {
	real, virtual ci.Light
	out           []ci.LightReading
}

func (p *maxLight) Readings() []ci.LightReading {
	r, v := p.real.Readings(), p.virtual.Readings()
	p.out = append(p.out[:0], r...)
	for i := range min(len(r), len(v)) {
		p.out[i].Value = max(p.out[i].Value, v[i].Value)
	}
	return p.out
}
