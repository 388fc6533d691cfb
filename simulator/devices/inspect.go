package devices

import "github.com/argosgo/argos/ci"

// Inspector is an optional interface of a device: Inspect describes what
// the device read at the last tick (a sensor) or what it applies (an
// actuator), for a viewer's robot panel. The value must encode with
// encoding/json (structs with json tags, maps, slices, numbers, strings)
// and must not share memory the device writes later. Inspect is called
// between ticks, never during Update or Apply.
//
// Every device should implement it; a viewer shows devices without it by
// their type only.
type Inspector interface {
	Inspect() any
}

// Inspection shapes shared by devices of the same kind, so that a viewer
// can draw them (a bar per reading) without knowing the device.

// RingInspection is a ring of readings (proximity, light, ground...):
// one value per sensor and the sensor's angle in degrees,
// counter-clockwise from the robot's front.
type RingInspection struct {
	Values    []float64 `json:"values"`
	AnglesDeg []float64 `json:"angles_deg"`
}

// WheelsInspection is what the differential steering actuator applies.
type WheelsInspection struct {
	// Set by the controller, cm/s.
	LeftCmS  float64 `json:"left_cm_s"`
	RightCmS float64 `json:"right_cm_s"`
	// Applied at the last tick, noise included, cm/s.
	AppliedLeftCmS  float64 `json:"applied_left_cm_s"`
	AppliedRightCmS float64 `json:"applied_right_cm_s"`
}

// EncodersInspection is the differential steering sensor's reading.
type EncodersInspection struct {
	VelocityLeftCmS  float64 `json:"velocity_left_cm_s"`
	VelocityRightCmS float64 `json:"velocity_right_cm_s"`
	DistanceLeftCm   float64 `json:"distance_left_cm"`
	DistanceRightCm  float64 `json:"distance_right_cm"`
	AxleCm           float64 `json:"axle_cm"`
}

// PoseInspection is a position in metres and a yaw in degrees.
type PoseInspection struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Z      float64 `json:"z"`
	YawDeg float64 `json:"yaw_deg"`
}

// LEDsInspection is the colours an LED actuator sets, as "#rrggbb".
type LEDsInspection struct {
	Colors []string `json:"colors"`
}

// HexColor formats c as "#rrggbb".
func HexColor(c ci.Color) string {
	const digits = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, v := range [3]uint8{c.R, c.G, c.B} {
		b[1+2*i], b[2+2*i] = digits[v>>4], digits[v&15]
	}
	return string(b)
}

func (w *wheels) Inspect() any {
	return WheelsInspection{LeftCmS: w.left, RightCmS: w.right,
		AppliedLeftCmS: w.r.Wheels[0] * 100, AppliedRightCmS: w.r.Wheels[1] * 100}
}

func (e *encoders) Inspect() any {
	r := e.reading
	return EncodersInspection{VelocityLeftCmS: r.VelocityLeft, VelocityRightCmS: r.VelocityRight,
		DistanceLeftCm: r.CoveredDistanceLeft, DistanceRightCm: r.CoveredDistanceRight, AxleCm: r.WheelAxisLength}
}

func (p *proximity) Inspect() any {
	rd := p.readings()
	out := RingInspection{Values: make([]float64, len(rd)), AnglesDeg: make([]float64, len(rd))}
	for i, r := range rd {
		out.Values[i], out.AnglesDeg[i] = r.Value, ci.Degrees(r.Angle)
	}
	return out
}

func (p *positioning) Inspect() any {
	r := p.reading
	return PoseInspection{X: r.Position.X, Y: r.Position.Y, Z: r.Position.Z, YawDeg: ci.Degrees(r.Orientation.Yaw())}
}

func (l *leds) Inspect() any {
	out := LEDsInspection{Colors: make([]string, len(l.colors))}
	for i, c := range l.colors {
		out.Colors[i] = HexColor(c)
	}
	return out
}

var (
	_ Inspector = (*wheels)(nil)
	_ Inspector = (*encoders)(nil)
	_ Inspector = (*proximity)(nil)
	_ Inspector = (*positioning)(nil)
	_ Inspector = (*leds)(nil)
)
