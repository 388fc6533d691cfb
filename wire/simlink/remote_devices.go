package simlink

import (
	"encoding/binary"
	"fmt"

	"github.com/argosgo/argos/ci"
)

// The devices below are the controller's side of the link: they
// implement the ci interfaces with what the last Sense carried, and
// collect what the controller sets for the next Act.

// Sensor is a sensor filled from Sense payloads.
type Sensor interface {
	// Decode replaces the readings with a payload's.
	Decode(data []byte) error
}

// Actuator is an actuator whose values go out in Acts.
type Actuator interface {
	// AppendPayload appends what the controller set; messages are
	// sent once.
	AppendPayload(buf []byte) []byte
	// Stop puts the actuator in its safe state (wheels at zero).
	Stop()
}

// NewSensor returns the controller's side of a sensor of kind k.
func NewSensor(k Kind) (Sensor, error) {
	switch k {
	case KindProximity:
		return &ProximitySensor{}, nil
	case KindLight:
		return &LightSensor{}, nil
	case KindGround:
		return &GroundSensor{}, nil
	case KindPositioning:
		return &PositioningSensor{}, nil
	case KindSteeringSensor:
		return &SteeringSensor{}, nil
	case KindMessagingSensor:
		return &MessagingSensor{}, nil
	case KindRABSensor:
		return &RABSensor{}, nil
	case KindCamera:
		return &CameraSensor{}, nil
	}
	return nil, fmt.Errorf("simlink: kind %d is no sensor", k)
}

// NewActuator returns the controller's side of an actuator of kind k;
// param is the Welcome's parameter (the number of LEDs).
func NewActuator(k Kind, param int) (Actuator, error) {
	switch k {
	case KindSteering:
		return &SteeringActuator{}, nil
	case KindLEDs:
		return &LEDsActuator{colors: make([]ci.Color, param)}, nil
	case KindMessaging:
		return &MessagingActuator{}, nil
	case KindRAB:
		return &RABActuator{}, nil
	}
	return nil, fmt.Errorf("simlink: kind %d is no actuator", k)
}

// ProximitySensor is a ring of proximity readings (ci.Proximity).
type ProximitySensor struct{ r []ci.ProximityReading }

// Readings returns the last readings.
func (s *ProximitySensor) Readings() []ci.ProximityReading { return s.r }

// Decode implements Sensor.
func (s *ProximitySensor) Decode(data []byte) error {
	r := reader{b: data}
	n := r.count("readings", 1<<16)
	s.r = s.r[:0]
	for i := 0; i < n && r.err == nil; i++ {
		s.r = append(s.r, ci.ProximityReading{Value: r.float("value"), Angle: r.float("angle")})
	}
	return r.end("proximity")
}

// LightSensor is a ring of light readings (ci.Light).
type LightSensor struct{ r []ci.LightReading }

// Readings returns the last readings.
func (s *LightSensor) Readings() []ci.LightReading { return s.r }

// Decode implements Sensor.
func (s *LightSensor) Decode(data []byte) error {
	r := reader{b: data}
	n := r.count("readings", 1<<16)
	s.r = s.r[:0]
	for i := 0; i < n && r.err == nil; i++ {
		s.r = append(s.r, ci.LightReading{Value: r.float("value"), Angle: r.float("angle")})
	}
	return r.end("light")
}

// GroundSensor is a set of ground readings (ci.Ground).
type GroundSensor struct{ r []ci.GroundReading }

// Readings returns the last readings.
func (s *GroundSensor) Readings() []ci.GroundReading { return s.r }

// Decode implements Sensor.
func (s *GroundSensor) Decode(data []byte) error {
	r := reader{b: data}
	n := r.count("readings", 1<<16)
	s.r = s.r[:0]
	for i := 0; i < n && r.err == nil; i++ {
		v := r.float("value")
		s.r = append(s.r, ci.GroundReading{Value: v, Offset: ci.Vector2{X: r.float("x"), Y: r.float("y")}})
	}
	return r.end("ground")
}

// PositioningSensor is the pose (ci.Positioning).
type PositioningSensor struct{ p ci.PositioningReading }

// Reading returns the last pose.
func (s *PositioningSensor) Reading() ci.PositioningReading { return s.p }

// Decode implements Sensor.
func (s *PositioningSensor) Decode(data []byte) error {
	r := reader{b: data}
	p := ci.PositioningReading{
		Position:    ci.Vector3{X: r.float("x"), Y: r.float("y"), Z: r.float("z")},
		Orientation: ci.Quaternion{W: r.float("w"), X: r.float("x"), Y: r.float("y"), Z: r.float("z")},
	}
	if err := r.end("positioning"); err != nil {
		return err
	}
	s.p = p
	return nil
}

// SteeringSensor is the wheel encoders (ci.DifferentialSteeringSensor).
type SteeringSensor struct {
	s ci.DifferentialSteeringReading
}

// Reading returns the last reading.
func (s *SteeringSensor) Reading() ci.DifferentialSteeringReading { return s.s }

// Decode implements Sensor.
func (s *SteeringSensor) Decode(data []byte) error {
	r := reader{b: data}
	v := ci.DifferentialSteeringReading{VelocityLeft: r.float("v"), VelocityRight: r.float("v"),
		CoveredDistanceLeft: r.float("d"), CoveredDistanceRight: r.float("d"), WheelAxisLength: r.float("axis")}
	if err := r.end("differential_steering"); err != nil {
		return err
	}
	s.s = v
	return nil
}

// MessagingSensor is the inbox (ci.MessagingSensor).
type MessagingSensor struct{ in []ci.Message }

// Inbox returns the messages of the last Sense.
func (s *MessagingSensor) Inbox() []ci.Message { return s.in }

// Decode implements Sensor.
func (s *MessagingSensor) Decode(data []byte) error {
	var err error
	s.in, err = ParseMessages(data, s.in[:0])
	return err
}

// SteeringActuator holds the wheel speeds (ci.DifferentialSteeringActuator).
type SteeringActuator struct{ Left, Right float64 }

// SetLinearVelocity implements ci.DifferentialSteeringActuator.
func (a *SteeringActuator) SetLinearVelocity(left, right float64) { a.Left, a.Right = left, right }

// AppendPayload implements Actuator.
func (a *SteeringActuator) AppendPayload(buf []byte) []byte {
	return appendFloat(appendFloat(buf, a.Left), a.Right)
}

// Stop implements Actuator.
func (a *SteeringActuator) Stop() { a.Left, a.Right = 0, 0 }

// LEDsActuator holds LED colours (ci.LEDs).
type LEDsActuator struct{ colors []ci.Color }

// Len implements ci.LEDs.
func (a *LEDsActuator) Len() int { return len(a.colors) }

// SetSingleColor implements ci.LEDs.
func (a *LEDsActuator) SetSingleColor(i int, c ci.Color) {
	if i >= 0 && i < len(a.colors) {
		a.colors[i] = c
	}
}

// SetAllColors implements ci.LEDs.
func (a *LEDsActuator) SetAllColors(c ci.Color) {
	for i := range a.colors {
		a.colors[i] = c
	}
}

// Colors returns the colours set.
func (a *LEDsActuator) Colors() []ci.Color { return a.colors }

// AppendPayload implements Actuator.
func (a *LEDsActuator) AppendPayload(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(a.colors)))
	for _, c := range a.colors {
		buf = append(buf, c.R, c.G, c.B, c.A)
	}
	return buf
}

// Stop implements Actuator: LEDs keep their colours.
func (a *LEDsActuator) Stop() {}

// MessagingActuator queues messages (ci.MessagingActuator).
type MessagingActuator struct {
	// From is the sender's id written into the messages.
	From string
	out  []ci.Message
}

// Send implements ci.MessagingActuator.
func (a *MessagingActuator) Send(topic, to string, payload []byte) {
	if len(payload) > ci.MaxPayload {
		panic(fmt.Sprintf("simlink: a payload of %d bytes on topic %q is over ci.MaxPayload (%d)", len(payload), topic, ci.MaxPayload))
	}
	a.out = append(a.out, ci.Message{Topic: topic, From: a.From, To: to, Payload: append([]byte(nil), payload...)})
}

// Pending returns the messages queued since the last AppendPayload.
func (a *MessagingActuator) Pending() []ci.Message { return a.out }

// AppendPayload implements Actuator: the queued messages go out once.
func (a *MessagingActuator) AppendPayload(buf []byte) []byte {
	buf = AppendMessages(buf, a.out)
	clear(a.out)
	a.out = a.out[:0]
	return buf
}

// Stop implements Actuator: nothing queued is dropped.
func (a *MessagingActuator) Stop() {}

// RABSensor is the range-and-bearing receiver
// (ci.RangeAndBearingSensor).
type RABSensor struct {
	p    []ci.RABPacket
	data []byte // every packet's Data, one after the other
}

// Packets returns the packets of the last Sense.
func (s *RABSensor) Packets() []ci.RABPacket { return s.p }

// Decode implements Sensor.
func (s *RABSensor) Decode(data []byte) error {
	r := reader{b: data}
	n := r.count("packets", 1<<16)
	// every packet's Data lies in s.data, reused from tick to tick
	// (Data belongs to the device until the next tick, as
	// ci.RangeAndBearingSensor says); while s.data grows, and may move,
	// a packet's Data is only as long as s.data up to its end
	s.p, s.data = s.p[:0], s.data[:0]
	for i := 0; i < n && r.err == nil; i++ {
		p := ci.RABPacket{Range: r.float("range"), HorizontalBearing: r.float("bearing"), VerticalBearing: r.float("elevation")}
		s.data = append(s.data, r.take(r.count("data", MaxRABData), "data")...)
		p.Data = s.data[:len(s.data):len(s.data)]
		s.p = append(s.p, p)
	}
	start := 0
	for i := range s.p {
		end := len(s.p[i].Data)
		s.p[i].Data = s.data[start:end:end]
		start = end
	}
	return r.end("range_and_bearing")
}

// RABActuator holds the range-and-bearing payload
// (ci.RangeAndBearingActuator); the simulation checks its size against
// the robot's rab_data_size.
type RABActuator struct{ data []byte }

// SetData implements ci.RangeAndBearingActuator.
func (a *RABActuator) SetData(data []byte) {
	if len(data) > MaxRABData {
		panic(fmt.Sprintf("simlink: range_and_bearing: %d bytes, the link carries at most %d", len(data), MaxRABData))
	}
	if len(data) > len(a.data) {
		a.data = append(a.data, make([]byte, len(data)-len(a.data))...)
	}
	copy(a.data, data)
}

// SetByte implements ci.RangeAndBearingActuator.
func (a *RABActuator) SetByte(i int, b byte) {
	if i < 0 || i >= MaxRABData {
		panic(fmt.Sprintf("simlink: range_and_bearing: SetByte(%d) beyond the %d bytes the link carries", i, MaxRABData))
	}
	if i >= len(a.data) {
		a.data = append(a.data, make([]byte, i+1-len(a.data))...)
	}
	a.data[i] = b
}

// ClearData implements ci.RangeAndBearingActuator.
func (a *RABActuator) ClearData() { clear(a.data) }

// Data returns the payload set.
func (a *RABActuator) Data() []byte { return a.data }

// AppendPayload implements Actuator.
func (a *RABActuator) AppendPayload(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(a.data)))
	return append(buf, a.data...)
}

// Stop implements Actuator: the payload stays.
func (a *RABActuator) Stop() {}

// CameraSensor is a coloured-blob camera (ci.ColoredBlobCamera). The
// simulation keeps its camera on while a controller that declares it is
// attached; Enable and Disable say whether this side reports the blobs.
type CameraSensor struct {
	on    bool
	blobs []ci.Blob
}

// Enable implements ci.ColoredBlobCamera.
func (c *CameraSensor) Enable() { c.on = true }

// Disable implements ci.ColoredBlobCamera.
func (c *CameraSensor) Disable() { c.on = false }

// Blobs returns the blobs of the last Sense, none while disabled.
func (c *CameraSensor) Blobs() []ci.Blob {
	if !c.on {
		return nil
	}
	return c.blobs
}

// Decode implements Sensor.
func (c *CameraSensor) Decode(data []byte) error {
	r := reader{b: data}
	n := r.count("blobs", 1<<16)
	c.blobs = c.blobs[:0]
	for i := 0; i < n && r.err == nil; i++ {
		col := r.take(4, "colour")
		if col == nil {
			break
		}
		b := ci.Blob{Color: ci.Color{R: col[0], G: col[1], B: col[2], A: col[3]}}
		b.Angle, b.Distance, b.X, b.Y = r.float("angle"), r.float("distance"), r.float("x"), r.float("y")
		c.blobs = append(c.blobs, b)
	}
	return r.end("camera")
}
