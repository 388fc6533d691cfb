package devices

import (
	"fmt"
	"math"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
)

func init() {
	sensor := "The range-and-bearing receiver (ci.RangeAndBearingSensor), ARGoS's range_and_bearing (medium) sensor: one packet per robot the " +
		"medium lets it hear this tick (see the range_and_bearing medium), in robot order, with the range in cm from emitter to emitter, the " +
		"horizontal bearing (radians from the robot's front) and the vertical bearing (elevation), and the sender's payload. Attributes: medium " +
		"(required, the id of a <range_and_bearing> medium), noise_std_dev (metres, as ARGoS: the sender's position is moved by a Gaussian length " +
		"in a random direction), packet_drop_prob (each packet is lost with this probability), show_rays. Noise and losses come from the robot's " +
		"random stream."
	for _, impl := range []string{"", "medium"} {
		Sensors.MustRegister(Key(ci.TagRangeAndBearing, impl), sensor, newRABSensor)
	}
	Actuators.MustRegister(ci.TagRangeAndBearing,
		"The range-and-bearing emitter (ci.RangeAndBearingActuator): the payload the robot broadcasts from the next tick on, of the robot's "+
			"rab_data_size bytes (10 on a foot-bot, 2 on an e-puck; its range is rab_range: 3 m and 0.8 m). Attribute: medium (optional when "+
			"<media> holds a single <range_and_bearing>).",
		newRABActuator)
}

// rabSensor turns what the medium routed to the robot into packets.
type rabSensor struct {
	r        *entity.Robot
	m        *media.RAB
	me       *media.RABMember
	noise    float64
	drop     float64
	ShowRays bool
	packets  []ci.RABPacket
	data     []byte
}

func newRABSensor(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "medium", "noise_std_dev", "packet_drop_prob", "show_rays"); err != nil {
		return nil, err
	}
	s := &rabSensor{r: r}
	var err error
	if s.noise, err = n.FloatOr("noise_std_dev", 0); err != nil {
		return nil, err
	}
	if s.noise < 0 {
		return nil, n.AttrErrorf("noise_std_dev", "must not be negative")
	}
	if s.drop, err = n.FloatOr("packet_drop_prob", 0); err != nil {
		return nil, err
	}
	if s.drop < 0 || s.drop > 1 {
		return nil, n.AttrErrorf("packet_drop_prob", "is a probability: write a number between 0 and 1")
	}
	if s.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
		return nil, err
	}
	id, err := mediumID(n, true)
	if err != nil {
		return nil, err
	}
	if s.m, err = findMedium[*media.RAB](r, n, id, "range_and_bearing"); err != nil {
		return nil, err
	}
	if s.me, err = s.m.Join(r); err != nil {
		return nil, n.Errorf("%w", err)
	}
	return s, nil
}

var _ ci.RangeAndBearingSensor = (*rabSensor)(nil)

func (s *rabSensor) Packets() []ci.RABPacket { return s.packets }

func (s *rabSensor) Update() {
	s.packets = s.packets[:0]
	heard := s.me.Heard()
	size := len(s.me.Payload)
	// room for every payload, so that the packets' Data stay valid
	s.data = slices.Grow(s.data[:0], len(heard)*size)
	b := s.r.B()
	here := s.me.Position()
	for _, j := range heard {
		if s.drop > 0 && s.r.Rand.Float64() < s.drop {
			continue
		}
		there, payload := s.m.Message(j)
		v := there.Sub(here)
		if s.noise > 0 {
			// ARGoS adds CVector3(Gaussian(sd), Uniform(inclination in
			// [0, pi]), Uniform(azimuth in [0, 2 pi])): a vector of
			// Gaussian length in a random direction.
			l := s.noise * s.r.Rand.NormFloat64()
			si, ci_ := math.Sincos(math.Pi * s.r.Rand.Float64())
			sa, ca := math.Sincos(2 * math.Pi * s.r.Rand.Float64())
			v = v.Add(ci.Vector3{X: l * si * ca, Y: l * si * sa, Z: l * ci_})
		}
		lx := v.X*b.Cos + v.Y*b.Sin
		ly := -v.X*b.Sin + v.Y*b.Cos
		vb := 0.0 // emitters at the same height, the common case
		if v.Z != 0 {
			vb = math.Atan2(v.Z, math.Hypot(lx, ly))
		}
		start := len(s.data)
		s.data = append(s.data, payload...)
		s.packets = append(s.packets, ci.RABPacket{
			Range:             100 * math.Sqrt(lx*lx+ly*ly+v.Z*v.Z),
			HorizontalBearing: math.Atan2(ly, lx),
			VerticalBearing:   vb,
			Data:              s.data[start:len(s.data):len(s.data)],
		})
	}
}

func (s *rabSensor) Reset() { s.packets = s.packets[:0] }

// PacketsInspection is what a range-and-bearing sensor received.
type PacketsInspection struct {
	Packets []PacketRecord `json:"packets"`
}

// PacketRecord is one packet: range in cm, bearings in degrees, payload.
type PacketRecord struct {
	RangeCm      float64 `json:"range_cm"`
	BearingDeg   float64 `json:"bearing_deg"`
	ElevationDeg float64 `json:"elevation_deg"`
	Data         []byte  `json:"data"`
}

func (s *rabSensor) Inspect() any {
	out := PacketsInspection{Packets: make([]PacketRecord, len(s.packets))}
	for i, p := range s.packets {
		out.Packets[i] = PacketRecord{RangeCm: p.Range, BearingDeg: ci.Degrees(p.HorizontalBearing),
			ElevationDeg: ci.Degrees(p.VerticalBearing), Data: append([]byte(nil), p.Data...)}
	}
	return out
}

// rabActuator sets the payload the robot broadcasts.
type rabActuator struct {
	r    *entity.Robot
	me   *media.RABMember
	data []byte
}

func newRABActuator(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "medium"); err != nil {
		return nil, err
	}
	id, err := mediumID(n, false)
	if err != nil {
		return nil, err
	}
	m, err := findMedium[*media.RAB](r, n, id, "range_and_bearing")
	if err != nil {
		return nil, err
	}
	a := &rabActuator{r: r}
	if a.me, err = m.Join(r); err != nil {
		return nil, n.Errorf("%w", err)
	}
	a.data = make([]byte, len(a.me.Payload))
	return a, nil
}

var _ ci.RangeAndBearingActuator = (*rabActuator)(nil)

func (a *rabActuator) SetData(data []byte) {
	if len(data) > len(a.data) {
		panic(fmt.Sprintf("devices: range_and_bearing of robot %q: SetData with %d bytes, but the payload holds %d (rab_data_size)", a.r.ID, len(data), len(a.data)))
	}
	copy(a.data, data)
}

func (a *rabActuator) SetByte(i int, b byte) {
	if i < 0 || i >= len(a.data) {
		panic(fmt.Sprintf("devices: range_and_bearing of robot %q: SetByte(%d): the payload holds %d bytes (rab_data_size)", a.r.ID, i, len(a.data)))
	}
	a.data[i] = b
}

func (a *rabActuator) ClearData() { clear(a.data) }

func (a *rabActuator) Apply() { copy(a.me.Payload, a.data) }

func (a *rabActuator) Reset() { clear(a.data) }

// PayloadInspection is the payload a range-and-bearing actuator sends.
type PayloadInspection struct {
	Data []byte `json:"data"`
}

func (a *rabActuator) Inspect() any { return PayloadInspection{Data: append([]byte(nil), a.data...)} }
