package simlink

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Kind is the ci interface a device travels as.
type Kind uint8

// Device kinds.
const (
	KindNone Kind = iota
	KindProximity
	KindLight
	KindGround
	KindPositioning
	KindSteeringSensor
	KindMessagingSensor
	KindSteering
	KindLEDs
	KindMessaging
	KindRABSensor
	KindRAB
	KindCamera
)

// SensorKindOf returns how the sensor with the tag travels, or KindNone
// when the link cannot carry it.
func SensorKindOf(tag string) Kind {
	switch tag {
	case ci.TagProximity, ci.TagFootBotProximity, ci.TagEPuckProximity, ci.TagEyeBotProximity:
		return KindProximity
	case ci.TagLight, ci.TagFootBotLight, ci.TagEPuckLight, ci.TagEyeBotLight:
		return KindLight
	case ci.TagGround, ci.TagFootBotMotorGround, ci.TagFootBotBaseGround, ci.TagEPuckGround:
		return KindGround
	case ci.TagPositioning:
		return KindPositioning
	case ci.TagDifferentialSteering:
		return KindSteeringSensor
	case ci.TagMessaging:
		return KindMessagingSensor
	case ci.TagRangeAndBearing:
		return KindRABSensor
	case ci.TagOmnidirectionalCamera, ci.TagPerspectiveCamera:
		return KindCamera
	}
	return KindNone
}

// ActuatorKindOf returns how the actuator with the tag travels, or
// KindNone when the link cannot carry it.
func ActuatorKindOf(tag string) Kind {
	switch tag {
	case ci.TagDifferentialSteering:
		return KindSteering
	case ci.TagLEDs:
		return KindLEDs
	case ci.TagMessaging:
		return KindMessaging
	case ci.TagRangeAndBearing:
		return KindRAB
	}
	return KindNone
}

// Supported lists the tags the link carries, for error messages.
const Supported = "sensors: proximity, footbot_proximity, epuck_proximity, eyebot_proximity, light, footbot_light, epuck_light, eyebot_light, " +
	"ground, footbot_motor_ground, footbot_base_ground, epuck_ground, positioning, differential_steering, messaging, range_and_bearing, " +
	"colored_blob_omnidirectional_camera, colored_blob_perspective_camera; " +
	"actuators: differential_steering, leds, messaging, range_and_bearing"

// AppendSensor appends the payload of sensor dev (the simulator's
// device, read through its ci interface).
func AppendSensor(buf []byte, k Kind, dev any) ([]byte, error) {
	switch k {
	case KindProximity:
		d, ok := dev.(ci.Proximity)
		if !ok {
			return buf, wrongType(k, dev)
		}
		rs := d.Readings()
		buf = binary.AppendUvarint(buf, uint64(len(rs)))
		for _, r := range rs {
			buf = appendFloat(appendFloat(buf, r.Value), r.Angle)
		}
	case KindLight:
		d, ok := dev.(ci.Light)
		if !ok {
			return buf, wrongType(k, dev)
		}
		rs := d.Readings()
		buf = binary.AppendUvarint(buf, uint64(len(rs)))
		for _, r := range rs {
			buf = appendFloat(appendFloat(buf, r.Value), r.Angle)
		}
	case KindGround:
		d, ok := dev.(ci.Ground)
		if !ok {
			return buf, wrongType(k, dev)
		}
		rs := d.Readings()
		buf = binary.AppendUvarint(buf, uint64(len(rs)))
		for _, r := range rs {
			buf = appendFloat(appendFloat(appendFloat(buf, r.Value), r.Offset.X), r.Offset.Y)
		}
	case KindPositioning:
		d, ok := dev.(ci.Positioning)
		if !ok {
			return buf, wrongType(k, dev)
		}
		p := d.Reading()
		for _, f := range [...]float64{p.Position.X, p.Position.Y, p.Position.Z, p.Orientation.W, p.Orientation.X, p.Orientation.Y, p.Orientation.Z} {
			buf = appendFloat(buf, f)
		}
	case KindSteeringSensor:
		d, ok := dev.(ci.DifferentialSteeringSensor)
		if !ok {
			return buf, wrongType(k, dev)
		}
		s := d.Reading()
		for _, f := range [...]float64{s.VelocityLeft, s.VelocityRight, s.CoveredDistanceLeft, s.CoveredDistanceRight, s.WheelAxisLength} {
			buf = appendFloat(buf, f)
		}
	case KindMessagingSensor:
		d, ok := dev.(ci.MessagingSensor)
		if !ok {
			return buf, wrongType(k, dev)
		}
		buf = AppendMessages(buf, d.Inbox())
	case KindCamera:
		d, ok := dev.(ci.ColoredBlobCamera)
		if !ok {
			return buf, wrongType(k, dev)
		}
		d.Enable() // the attached controller enables and disables its own copy
		bs := d.Blobs()
		buf = binary.AppendUvarint(buf, uint64(len(bs)))
		for _, b := range bs {
			buf = append(buf, b.Color.R, b.Color.G, b.Color.B, b.Color.A)
			buf = appendFloat(appendFloat(appendFloat(appendFloat(buf, b.Angle), b.Distance), b.X), b.Y)
		}
	case KindRABSensor:
		d, ok := dev.(ci.RangeAndBearingSensor)
		if !ok {
			return buf, wrongType(k, dev)
		}
		ps := d.Packets()
		buf = binary.AppendUvarint(buf, uint64(len(ps)))
		for _, p := range ps {
			buf = appendFloat(appendFloat(appendFloat(buf, p.Range), p.HorizontalBearing), p.VerticalBearing)
			buf = binary.AppendUvarint(buf, uint64(len(p.Data)))
			buf = append(buf, p.Data...)
		}
	default:
		return buf, fmt.Errorf("simlink: kind %d is no sensor", k)
	}
	return buf, nil
}

// AppendMessages appends a count and the messages, each as its length
// and its ci wire encoding.
func AppendMessages(buf []byte, ms []ci.Message) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(ms)))
	for _, m := range ms {
		at := len(buf)
		buf = ci.AppendMessage(append(buf, 0, 0, 0, 0), m)
		binary.LittleEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// ParseMessages decodes what AppendMessages wrote, appending to ms.
func ParseMessages(data []byte, ms []ci.Message) ([]ci.Message, error) {
	r := reader{b: data}
	n := r.count("messages", 1<<16)
	for i := 0; i < n && r.err == nil; i++ {
		lb := r.take(4, "message length")
		if lb == nil {
			break
		}
		l := int(binary.LittleEndian.Uint32(lb))
		body := r.take(l, "message")
		if r.err != nil {
			break
		}
		m, used, err := ci.ReadMessage(body)
		if err != nil {
			return ms, fmt.Errorf("simlink: message %d: %w: %w", i, err, ErrMalformed)
		}
		if used != len(body) {
			r.fail("message %d: %d trailing bytes", i, len(body)-used)
			break
		}
		ms = append(ms, m)
	}
	return ms, r.end("messages")
}

func wrongType(k Kind, dev any) error {
	return fmt.Errorf("simlink: device of kind %d is a %T, which does not have the kind's ci interface", k, dev)
}

// ApplyActuator decodes an actuator payload and sets it on dev (the
// simulator's device, through its ci interface).
func ApplyActuator(k Kind, dev any, data []byte) error {
	r := reader{b: data}
	switch k {
	case KindSteering:
		d, ok := dev.(ci.DifferentialSteeringActuator)
		if !ok {
			return wrongType(k, dev)
		}
		l, rr := r.float("left"), r.float("right")
		if err := r.end("differential_steering"); err != nil {
			return err
		}
		d.SetLinearVelocity(l, rr)
	case KindLEDs:
		d, ok := dev.(ci.LEDs)
		if !ok {
			return wrongType(k, dev)
		}
		n := r.count("leds", 1<<16)
		for i := 0; i < n && r.err == nil; i++ {
			c := r.take(4, "colour")
			if c != nil {
				d.SetSingleColor(i, ci.Color{R: c[0], G: c[1], B: c[2], A: c[3]})
			}
		}
		return r.end("leds")
	case KindMessaging:
		d, ok := dev.(ci.MessagingActuator)
		if !ok {
			return wrongType(k, dev)
		}
		ms, err := ParseMessages(data, nil)
		if err != nil {
			return err
		}
		var topics []string
		if l, ok := dev.(ci.TopicLister); ok {
			topics = l.Topics()
		}
		for _, m := range ms {
			if len(topics) > 0 && !slices.Contains(topics, m.Topic) {
				return fmt.Errorf("simlink: a message on topic %q, which the robot's messaging actuator does not carry (%s)", m.Topic, strings.Join(topics, ", "))
			}
		}
		for _, m := range ms {
			d.Send(m.Topic, m.To, m.Payload)
		}
	case KindRAB:
		d, ok := dev.(ci.RangeAndBearingActuator)
		if !ok {
			return wrongType(k, dev)
		}
		data := r.take(r.count("range_and_bearing data", MaxRABData), "range_and_bearing data")
		if err := r.end("range_and_bearing"); err != nil {
			return err
		}
		return setRAB(d, data)
	default:
		return fmt.Errorf("simlink: kind %d is no actuator", k)
	}
	return nil
}

// MaxRABData is the largest range-and-bearing payload the link carries.
const MaxRABData = 1024

// setRAB sets the payload; a payload longer than the robot's
// rab_data_size (the device panics) is an error.
func setRAB(d ci.RangeAndBearingActuator, data []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("simlink: range_and_bearing: %v", p)
		}
	}()
	d.ClearData()
	d.SetData(data)
	return nil
}
