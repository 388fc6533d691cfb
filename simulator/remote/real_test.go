package remote_test

import (
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/attach"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/remote"
)

type captureLog struct {
	mu    sync.Mutex
	warns []string
}

func (l *captureLog) Infof(string, ...any) {}
func (l *captureLog) Warnf(f string, a ...any) {
	l.mu.Lock()
	l.warns = append(l.warns, fmt.Sprintf(f, a...))
	l.mu.Unlock()
}
func (l *captureLog) Debugf(string, ...any) {}

func (l *captureLog) has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range l.warns {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}

func mixed(t *testing.T) (*simulator.Simulator, *remote.Server, *captureLog) {
	t.Helper()
	exp, err := config.Load("testdata/mixed.argos")
	if err != nil {
		t.Fatal(err)
	}
	sim := newSim(t, exp)
	srv := server(t, sim)
	log := &captureLog{}
	srv.Bind(sim, log)
	return sim, srv, log
}

func sendPose(t *testing.T, addr string, p remote.Pose) {
	t.Helper()
	c, err := net.Dial("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write(remote.AppendPose(nil, p)); err != nil {
		t.Fatal(err)
	}
}

// waitPose steps until the real robot is at (x, y).
func waitPose(t *testing.T, sim *simulator.Simulator, x, y float64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		if b := sim.Robot(0).B(); math.Abs(b.Pos.X-x) < 1e-9 && math.Abs(b.Pos.Y-y) < 1e-9 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the real robot never reached (%g, %g): it is at %v", x, y, sim.Robot(0).B().Pos)
}

// A real robot's body goes where the pose stream says, only with the
// token and newer poses; a stale stream freezes it with a warning.
func TestRealRobotPoseStream(t *testing.T) {
	sim, srv, log := mixed(t)
	if srv.PoseAddr() == "" || !strings.HasPrefix(srv.PoseAddr(), "127.0.0.1:") {
		t.Fatalf("pose stream at %q: want loopback", srv.PoseAddr())
	}
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb0", Seq: 10, X: 0.5, Y: 0.25, Yaw: 1})
	waitPose(t, sim, 0.5, 0.25)
	if yaw := math.Atan2(sim.Robot(0).B().Sin, sim.Robot(0).B().Cos); math.Abs(yaw-1) > 1e-9 {
		t.Errorf("yaw %g, want 1", yaw)
	}
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: "wrong", ID: "fb0", Seq: 11, X: -1, Y: -1})
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb0", Seq: 9, X: -1, Y: -1})  // older
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb1", Seq: 12, X: -1, Y: -1}) // not real
	for range 10 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
	}
	if p := sim.Robot(0).B().Pos; p.X != 0.5 || p.Y != 0.25 {
		t.Errorf("a pose with a wrong token or an old seq moved the robot to %v", p)
	}
	if p := sim.Robot(1).B().Pos; math.Abs(p.X-1) > 0.2 {
		t.Errorf("a pose moved the simulated robot fb1 to %v", p)
	}
	if !log.has("wrong token") || !log.has("no robot marked real") {
		t.Errorf("warnings: %q", log.warns)
	}
	if !log.has("no pose for") {
		t.Errorf("no stale warning after 300 ms without a pose: %q", log.warns)
	}
}

// After lost seconds without a pose the run stops with an error.
func TestRealRobotLost(t *testing.T) {
	sim, _, _ := mixed(t)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := sim.Step(); err != nil {
			if !strings.Contains(err.Error(), "no pose for more than 1s") {
				t.Fatalf("error %v; want the lost pose", err)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the run went on for 5 s without a pose (lost=1)")
}

// The real robot's controller, attached over the link, senses the
// simulated robot fb1 with its virtual proximity sensor when the pose
// stream puts it next to fb1, and its wheel speeds do not move the body.
func TestRealRobotVirtualReadings(t *testing.T) {
	sim, srv, _ := mixed(t)
	devs := realrobot.Devices{Sensors: []string{ci.TagFootBotProximity}, Actuators: []string{ci.TagDifferentialSteering}}
	drv, err := attach.Dial(attach.Options{Addr: srv.Addr(), Token: token, RobotID: "fb0", Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	maxProx := func() float64 {
		d, _ := drv.Sensor(ci.TagFootBotProximity)
		m := 0.0
		for _, r := range d.(ci.Proximity).Readings() {
			m = max(m, r.Value)
		}
		return m
	}
	step := func() {
		errc := make(chan error, 1)
		go func() { errc <- sim.Step() }()
		if err := drv.Sense(); err != nil {
			t.Fatal(err)
		}
		w, _ := drv.Actuator(ci.TagDifferentialSteering)
		w.(ci.DifferentialSteeringActuator).SetLinearVelocity(20, 20)
		if err := drv.Act(); err != nil && !errors.Is(err, realrobot.ErrSuperseded) {
			t.Fatal(err)
		}
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb0", Seq: 1, X: -2, Y: 2})
	for range 5 {
		step()
	}
	far := maxProx()
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb0", Seq: 2, X: 0.8, Y: 0})
	time.Sleep(20 * time.Millisecond)
	for range 3 {
		step()
	}
	near := maxProx()
	if far != 0 || near < 0.1 {
		t.Errorf("virtual proximity far from fb1 %g (want 0), next to it %g (want > 0.1)", far, near)
	}
	if p := sim.Robot(0).B().Pos; p.X != 0.8 || p.Y != 0 {
		t.Errorf("the real robot's body moved to %v with its wheels: only poses move it", p)
	}
}

// A robot marked real needs a <remote>.
func TestRealNeedsRemote(t *testing.T) {
	exp := experiment(t, "")
	exp.Arena.Children[len(exp.Arena.Children)-1].Attrs = append(exp.Arena.Children[len(exp.Arena.Children)-1].Attrs, config.Attr{Name: "real", Value: "true"})
	_, err := simulator.New(exp, simulator.Options{})
	if err == nil || !strings.Contains(err.Error(), "no <remote>") {
		t.Fatalf("%v", err)
	}
}

func FuzzParsePose(f *testing.F) {
	f.Add([]byte("POSE1 tok fb0 12 0.5 -0.25 3.14"))
	f.Fuzz(func(t *testing.T, line []byte) {
		p, err := remote.ParsePose(line)
		if err != nil {
			return
		}
		q, err := remote.ParsePose(remote.AppendPose(nil, p))
		if err != nil || q != p {
			t.Fatalf("%+v encodes to %+v, %v", p, q, err)
		}
	})
}

// proxProbe keeps the largest proximity reading it saw.
type proxProbe struct {
	prox ci.Proximity
	mu   sync.Mutex
	max  float64
}

func (p *proxProbe) Init(r ci.Robot, _ ci.Params) (err error) {
	p.prox, err = ci.GetSensor[ci.Proximity](r, ci.TagFootBotProximity)
	return err
}

func (p *proxProbe) ControlStep() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.prox.Readings() {
		p.max = max(p.max, r.Value)
	}
}
func (p *proxProbe) Reset()         {}
func (p *proxProbe) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("remote_test_probe", "Tests of simulator/remote: records its largest proximity reading.", func() ci.Controller { return &proxProbe{} })
}

// A simulated robot senses the body of a real robot where the pose
// stream puts it.
func TestSimulatedRobotSensesRealOne(t *testing.T) {
	data, err := os.ReadFile("testdata/mixed.argos")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), `<foot-bot id="fb1">
      <body position="1,0,0" orientation="180,0,0" />
      <controller config="fdc" />`, `<foot-bot id="fb1">
      <body position="1,0,0" orientation="180,0,0" />
      <controller config="probe" />`, 1)
	s = strings.Replace(s, `</controllers>`, `<remote_test_probe id="probe"><actuators/><sensors><footbot_proximity implementation="default" /></sensors></remote_test_probe>
  </controllers>`, 1)
	sim := newSim(t, loadText(t, "probe.argos", s))
	srv := server(t, sim)
	probe := sim.Controller(1).(*proxProbe)
	seen := func() float64 {
		probe.mu.Lock()
		defer probe.mu.Unlock()
		m := probe.max
		probe.max = 0
		return m
	}
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb0", Seq: 1, X: -2, Y: 2})
	waitPose(t, sim, -2, 2)
	seen()
	for range 3 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	far := seen()
	sendPose(t, srv.PoseAddr(), remote.Pose{Token: token, ID: "fb0", Seq: 2, X: 0.8, Y: 0})
	waitPose(t, sim, 0.8, 0)
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	near := seen()
	if far != 0 || near < 0.1 {
		t.Errorf("fb1's proximity with the real robot far: %g (want 0), next to it: %g (want > 0.1)", far, near)
	}
}
