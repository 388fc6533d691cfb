package devices_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type rabRx interface {
	devices.Sensor
	ci.RangeAndBearingSensor
}

type rabTx interface {
	devices.Actuator
	ci.RangeAndBearingActuator
}

// rabPair gives robot r a receiver (with the extra attributes) and an
// emitter that sends payload.
func rabPair(t testing.TB, r *entity.Robot, attrs string, payload ...byte) rabRx {
	t.Helper()
	tx := dev[rabTx](t, r, "actuators", `<range_and_bearing implementation="default"/>`)
	tx.SetData(payload)
	tx.Apply()
	return dev[rabRx](t, r, "sensors", `<range_and_bearing implementation="medium" medium="rab" `+attrs+`/>`)
}

// from returns the packets rx received whose payload starts with id.
func from(rx rabRx, id byte) []ci.RABPacket {
	var out []ci.RABPacket
	for _, p := range rx.Packets() {
		if len(p.Data) > 0 && p.Data[0] == id {
			out = append(out, p)
		}
	}
	return out
}

// Range (cm), horizontal and vertical bearings and payloads are right;
// a message carries as far as its sender's rab_range; boards of different
// payload sizes do not talk.
func TestRABRangeAndBearing(t *testing.T) {
	a := newWorld(t, 12, true)
	ra := a.robot(entity.FootBot, "a", 0, 0, 0, "")
	rb := a.robot(entity.FootBot, "b", 1, 1, 90, "")
	rc := a.robot(entity.FootBot, "c", -3.5, 0, 0, `<foot-bot id="c" rab_range="4"/>`)
	rd := a.robot(entity.FootBot, "d", 0, -1, 0, `<foot-bot id="d" rab_data_size="4"/>`)
	re := a.robot(entity.FootBot, "e", 0.6, -0.8, 0, "")
	a.sp.Bodies[re.Body].Z = 0.5 // standing on something: seen from below
	rxA := rabPair(t, ra, "", 'A', 1, 2, 3, 4, 5, 6, 7, 8, 9)
	rxB := rabPair(t, rb, "", 'B')
	rxC := rabPair(t, rc, "", 'C')
	rxD := rabPair(t, rd, "", 'D')
	rxE := rabPair(t, re, "", 'E')
	a.update()
	for _, rx := range []rabRx{rxA, rxB, rxC, rxD, rxE} {
		rx.Update()
	}
	check := func(name string, rx rabRx, id byte, rangeCm, hb, vb float64) {
		t.Helper()
		ps := from(rx, id)
		if len(ps) != 1 {
			t.Errorf("%s: %d packets from %c, want 1 (got %v)", name, len(ps), id, rx.Packets())
			return
		}
		p := ps[0]
		if !near(p.Range, rangeCm, 1e-9) || !near(p.HorizontalBearing, hb, 1e-9) || !near(p.VerticalBearing, vb, 1e-9) {
			t.Errorf("%s: packet from %c at %.4f cm, %.4f rad, elevation %.4f; want %.4f cm, %.4f rad, %.4f",
				name, id, p.Range, p.HorizontalBearing, p.VerticalBearing, rangeCm, hb, vb)
		}
	}
	// b (facing +y) sees a behind-left: (-1, -1) in the world, (-1, 1) in its frame
	check("b hears a", rxB, 'A', 100*math.Sqrt2, ci.Radians(135), 0)
	check("a hears b", rxA, 'B', 100*math.Sqrt2, ci.Radians(45), 0)
	if got := from(rxB, 'A')[0].Data; string(got) != "A\x01\x02\x03\x04\x05\x06\x07\x08\x09" {
		t.Errorf("payload %v", got)
	}
	// c is 3.5 m from a: its 4 m range reaches a, a's 3 m range does not reach c
	check("a hears c", rxA, 'C', 350, math.Pi, 0)
	if ps := from(rxC, 'A'); len(ps) != 0 {
		t.Errorf("c hears a at 3.5 m, beyond a's 3 m range: %v", ps)
	}
	// d has 4-byte payloads: it talks with nobody
	if len(rxD.Packets()) != 0 || len(from(rxA, 'D')) != 0 {
		t.Errorf("a board with another payload size talks: d got %v", rxD.Packets())
	}
	// e is 0.5 m higher: a sees it above, e sees a below
	d := math.Hypot(0.6, 0.8)
	check("a hears e", rxA, 'E', 100*math.Hypot(d, 0.5), math.Atan2(-0.8, 0.6), math.Atan2(0.5, d))
	check("e hears a", rxE, 'A', 100*math.Hypot(d, 0.5), math.Atan2(0.8, -0.6), -math.Atan2(0.5, d))
	if _, err := build(t, ra, "sensors", `<range_and_bearing/>`); err == nil {
		t.Error("a receiver without a medium was built")
	}
}

// With occlusions on, no message passes through a wall or another robot;
// with them off, they do.
func TestRABOcclusion(t *testing.T) {
	for _, occ := range []bool{true, false} {
		t.Run(fmt.Sprint("check_occlusions=", occ), func(t *testing.T) {
			a := newWorld(t, 12, occ)
			ra := a.robot(entity.FootBot, "a", 0, 0, 0, "")
			rb := a.robot(entity.FootBot, "b", 2, 0, 0, "")
			rc := a.robot(entity.FootBot, "c", 0, 2, 0, "")
			a.robot(entity.FootBot, "blocker", 0, 1, 0, "") // a robot between a and c, without a board
			addBox(a.sp, 1, 0, 0.05, 1, 0.3, 0)             // a wall between a and b
			rxA := rabPair(t, ra, "", 'A')
			rxB := rabPair(t, rb, "", 'B')
			rxC := rabPair(t, rc, "", 'C')
			a.update()
			for _, rx := range []rabRx{rxA, rxB, rxC} {
				rx.Update()
			}
			walls := len(from(rxA, 'B')) + len(from(rxB, 'A'))
			robots := len(from(rxA, 'C')) + len(from(rxC, 'A'))
			free := len(from(rxB, 'C')) + len(from(rxC, 'B'))
			if free != 2 {
				t.Errorf("b and c, in plain sight, exchanged %d messages, want 2", free)
			}
			want := 0
			if !occ {
				want = 2
			}
			if walls != want || robots != want {
				t.Errorf("%d messages through the wall and %d through the robot, want %d each", walls, robots, want)
			}
		})
	}
}

// Noise (noise_std_dev, metres) keeps range and bearing within a few
// standard deviations and has about the requested spread; packets are
// dropped at packet_drop_prob within statistical bounds; the same seed
// gives the same packets.
func TestRABNoiseAndDrop(t *testing.T) {
	a := newWorld(t, 12, true)
	rx := a.robot(entity.FootBot, "rx", 0, 0, 0, "")
	const senders = 6
	for k := 0; k < senders; k++ {
		ang := 2 * math.Pi * float64(k) / senders
		rabPair(t, a.robot(entity.FootBot, fmt.Sprint("tx", k), 1.5*math.Cos(ang), 1.5*math.Sin(ang), 0, ""), "", byte(k))
	}
	const sd = 0.05
	noisy := rabPair(t, rx, fmt.Sprintf(`noise_std_dev="%g"`, sd))
	a.update()
	var sq float64
	var n int
	for tick := 0; tick < 300; tick++ {
		noisy.Update()
		if len(noisy.Packets()) != senders {
			t.Fatalf("%d packets, want %d", len(noisy.Packets()), senders)
		}
		for _, p := range noisy.Packets() {
			ang := 2 * math.Pi * float64(p.Data[0]) / senders
			dr := p.Range - 150
			db := math.Abs(ci.NormalizeAngle(p.HorizontalBearing - ang))
			if math.Abs(dr) > 100*5*sd || db > math.Asin(5*sd/1.5) || math.Abs(p.VerticalBearing) > math.Asin(5*sd/1.5) {
				t.Fatalf("packet at %.2f cm, bearing off by %.3f rad, elevation %.3f: beyond 5 standard deviations", p.Range, db, p.VerticalBearing)
			}
			sq += dr * dr
			n++
		}
	}
	// the displacement has a Gaussian length l in a direction of uniform
	// inclination i and azimuth a: its component along a horizontal line,
	// l sin(i) cos(a), has mean square sd^2 E[sin^2 i] E[cos^2 a] = sd^2/4
	if rms := math.Sqrt(sq / float64(n)); rms < 100*sd*0.4 || rms > 100*sd*0.6 {
		t.Errorf("range error RMS %.2f cm, want about %.2f cm", rms, 100*sd/2)
	}

	const p = 0.3
	for _, seed := range []uint64{1, 2} {
		lossy := rabPair(t, rx, fmt.Sprintf(`packet_drop_prob="%g"`, p))
		rx.Rand = seeded(seed)
		got, sent := 0, 0
		var first []int
		for tick := 0; tick < 500; tick++ {
			lossy.Update()
			got += len(lossy.Packets())
			sent += senders
			if tick < 5 {
				first = append(first, len(lossy.Packets()))
			}
		}
		mean := float64(sent) * (1 - p)
		sdev := math.Sqrt(float64(sent) * p * (1 - p))
		if math.Abs(float64(got)-mean) > 4*sdev {
			t.Errorf("seed %d: %d of %d packets arrived, want %.0f +- %.0f (4 standard deviations)", seed, got, sent, mean, 4*sdev)
		}
		rx.Rand = seeded(seed)
		for tick := 0; tick < 5; tick++ {
			lossy.Update()
			if len(lossy.Packets()) != first[tick] {
				t.Fatalf("seed %d, tick %d: %d packets, then %d with the same seed", seed, tick, first[tick], len(lossy.Packets()))
			}
		}
	}
	for _, bad := range []string{`medium="rab" packet_drop_prob="1.5"`, `medium="rab" noise_std_dev="-1"`, `medium="leds"`, `medium="nope"`} {
		if _, err := build(t, rx, "sensors", `<range_and_bearing `+bad+`/>`); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }
