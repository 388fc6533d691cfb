package simulator_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// chatter steers by what its noisy sensors tell it: the packets of its
// range-and-bearing receiver, its light sensors and its camera; it sends
// its own tick and lights its beacon. Any difference in what it senses
// changes its path.
type chatter struct {
	w     ci.DifferentialSteeringActuator
	tx    ci.RangeAndBearingActuator
	rx    ci.RangeAndBearingSensor
	light ci.Light
	cam   ci.ColoredBlobCamera
	leds  ci.LEDs
	tick  byte
}

func (c *chatter) Init(r ci.Robot, _ ci.Params) error {
	var err error
	if c.w, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	if c.tx, err = ci.GetActuator[ci.RangeAndBearingActuator](r, ci.TagRangeAndBearing); err != nil {
		return err
	}
	if c.rx, err = ci.GetSensor[ci.RangeAndBearingSensor](r, ci.TagRangeAndBearing); err != nil {
		return err
	}
	if c.light, err = ci.GetSensor[ci.Light](r, ci.TagFootBotLight); err != nil {
		return err
	}
	if c.leds, err = ci.GetActuator[ci.LEDs](r, ci.TagLEDs); err != nil {
		return err
	}
	if c.cam, err = ci.GetSensor[ci.ColoredBlobCamera](r, ci.TagOmnidirectionalCamera); err != nil {
		return err
	}
	c.cam.Enable()
	return nil
}

func (c *chatter) ControlStep() {
	c.tick++
	c.tx.SetByte(0, c.tick)
	c.leds.SetSingleColor(12, ci.Red)
	turn := 0.0
	for _, p := range c.rx.Packets() {
		turn += math.Sin(p.HorizontalBearing) * p.Range / 100
	}
	for _, l := range c.light.Readings() {
		turn += l.Value * math.Sin(l.Angle)
	}
	for _, b := range c.cam.Blobs() {
		turn -= b.Distance * math.Sin(b.Angle)
	}
	turn = math.Max(-5, math.Min(5, turn))
	c.w.SetLinearVelocity(8-turn, 8+turn)
}
func (c *chatter) Reset()         { c.tick = 0 }
func (c *chatter) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_chatter", "test: steers by noisy RAB, light and camera", func() ci.Controller { return &chatter{} })
}

const chatterController = `
    <test_chatter id="chat">
      <actuators><differential_steering implementation="default"/><range_and_bearing implementation="default"/>
        <leds implementation="default" medium="leds"/></actuators>
      <sensors><range_and_bearing implementation="medium" medium="rab" noise_std_dev="0.02" packet_drop_prob="0.2"/>
        <footbot_light implementation="rot_z_only" noise_level="0.05"/>
        <colored_blob_omnidirectional_camera implementation="rot_z_only" medium="leds" noise_std_dev="0.01"/></sensors>
    </test_chatter>`

const chatterMedia = `<media><led id="leds"/><range_and_bearing id="rab" check_occlusions="true"/></media>`

// Media and noisy devices give the same run for any number of threads.
func TestMediaDeterministicAcrossThreads(t *testing.T) {
	var arena strings.Builder
	arena.WriteString(`<light id="l0" position="1.5,1.5,0.5" color="yellow" intensity="3"/>
    <box id="wall" size="0.1,2,0.3" movable="false"><body position="0.45,0,0"/></box>`)
	for k := 0; k < 150; k++ { // chunks of 64 robots: 3 chunks
		fmt.Fprintf(&arena, `<foot-bot id="fb%d"><body position="%g,%g,0" orientation="%d,0,0"/><controller config="chat"/></foot-bot>`,
			k, -1.8+0.3*float64(k%13), -1.8+0.3*float64(k/13), 7*k)
	}
	xml := experiment("0", chatterController, arena.String(), chatterMedia)
	xml = strings.Replace(xml, `size="4,4,1"`, `size="5,5,1"`, 1)
	run := func(threads int) []ci.Vector2 {
		sim := build(t, xml, simulator.Options{Threads: intp(threads)})
		for sim.Tick() < 30 {
			if err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		var out []ci.Vector2
		for i := 0; i < sim.NumRobots(); i++ {
			out = append(out, sim.Robot(i).B().Pos)
		}
		return out
	}
	a, b := run(0), run(3)
	moved := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("robot %d at %v with 0 threads, %v with 3", i, a[i], b[i])
		}
		if a[i].Sub(ci.Vector2{X: -1.8 + 0.3*float64(i%13), Y: -1.8 + 0.3*float64(i/13)}).Length() > 0.05 {
			moved++
		}
	}
	if moved < 100 {
		t.Errorf("only %d of %d robots moved", moved, len(a))
	}
}

// rabDiffusion is the diffusion controller plus range-and-bearing traffic
// when the robot has the devices: it broadcasts its tick and its heading
// and reads every packet it gets.
type rabDiffusion struct {
	ci.Controller
	tx    ci.RangeAndBearingActuator
	rx    ci.RangeAndBearingSensor
	tick  byte
	heard int
	buf   [2]byte
}

func (c *rabDiffusion) Init(r ci.Robot, p ci.Params) error {
	inner, err := ci.Controllers.Lookup("epuck_diffusion_controller")
	if err != nil {
		return err
	}
	c.Controller = inner()
	if err := c.Controller.Init(r, p); err != nil {
		return err
	}
	if _, ok := r.Sensor(ci.TagRangeAndBearing); ok {
		if c.rx, err = ci.GetSensor[ci.RangeAndBearingSensor](r, ci.TagRangeAndBearing); err != nil {
			return err
		}
		if c.tx, err = ci.GetActuator[ci.RangeAndBearingActuator](r, ci.TagRangeAndBearing); err != nil {
			return err
		}
	}
	return nil
}

func (c *rabDiffusion) ControlStep() {
	c.Controller.ControlStep()
	if c.rx == nil {
		return
	}
	c.tick++
	c.buf = [2]byte{c.tick, byte(c.heard)}
	c.tx.SetData(c.buf[:])
	for _, p := range c.rx.Packets() {
		if p.Range > 0 && len(p.Data) == 2 {
			c.heard++
		}
	}
}

func init() {
	ci.Controllers.MustRegister("test_rab_diffusion", "test: diffusion plus range-and-bearing traffic", func() ci.Controller { return &rabDiffusion{} })
}

// BenchmarkRAB runs the scalability experiment (10,000 e-pucks, diffusion,
// dynamics2d, 40 m arena with walls) without and with range-and-bearing
// traffic: every robot sends 2 bytes at every tick and reads what it
// hears within the e-puck's 0.8 m range, line of sight checked. Both runs
// are built side by side and stepped in turn, so that they share the
// machine's load: it reports each one's time per tick, their ratio, and
// the packets received per robot and tick.
func BenchmarkRAB(b *testing.B) {
	data, err := os.ReadFile(repoFile("experiments", "scalability", "scalability_10000_e1.argos"))
	if err != nil {
		b.Fatal(err)
	}
	base := strings.Replace(string(data), "<epuck_diffusion_controller ", "<test_rab_diffusion ", 1)
	base = strings.Replace(base, "</epuck_diffusion_controller>", "</test_rab_diffusion>", 1)
	withRAB := strings.Replace(base, "</actuators>", `<range_and_bearing implementation="default"/></actuators>`, 1)
	withRAB = strings.Replace(withRAB, "</sensors>", `<range_and_bearing implementation="medium" medium="rab"/></sensors>`, 1)
	withRAB = strings.Replace(withRAB, "<media />", `<media><range_and_bearing id="rab" check_occlusions="true"/></media>`, 1)
	heard := func(sim *simulator.Simulator) int {
		n := 0
		for i := 0; i < sim.NumRobots(); i++ {
			n += sim.Controller(i).(*rabDiffusion).heard
		}
		return n
	}
	for _, threads := range []int{0, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			var sims [2]*simulator.Simulator
			for k, xml := range []string{base, withRAB} {
				exp, err := config.Parse("bench.argos", []byte(xml))
				if err != nil {
					b.Fatal(err)
				}
				exp.LoopFunctions = nil
				exp.Framework.Length = 0
				if sims[k], err = simulator.New(exp, simulator.Options{Threads: intp(threads)}); err != nil {
					b.Fatal(err)
				}
				defer sims[k].Close()
				for i := 0; i < 10; i++ {
					if err := sims[k].Step(); err != nil {
						b.Fatal(err)
					}
				}
			}
			heard0 := heard(sims[1])
			var spent [2]time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k, sim := range sims {
					start := time.Now()
					if err := sim.Step(); err != nil {
						b.Fatal(err)
					}
					spent[k] += time.Since(start)
				}
			}
			b.StopTimer()
			n := float64(sims[1].NumRobots())
			b.ReportMetric(float64(spent[0].Nanoseconds())/float64(b.N), "ns/tick-no-rab")
			b.ReportMetric(float64(spent[1].Nanoseconds())/float64(b.N), "ns/tick-rab")
			b.ReportMetric(float64(spent[1])/float64(spent[0]), "rab/no-rab")
			b.ReportMetric(float64(heard(sims[1])-heard0)/n/float64(b.N), "packets/robot/tick")
		})
	}
}
