package web

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/space"
)

// command is a message from a browser (or from Do) to the loop goroutine.
type command struct {
	Cmd   string   `json:"cmd"`
	ID    string   `json:"id"`
	X     float64  `json:"x"`
	Y     float64  `json:"y"`
	Yaw   *float64 `json:"yaw"` // radians; nil keeps the heading
	Value float64  `json:"value"`
	Rays  bool     `json:"rays"`
	RAB   bool     `json:"rab"`

	c    *client
	fn   func(*simulator.Simulator)
	done chan struct{}
}

// sceneSig changes when entities are added or removed: the browsers then
// get a new scene.
type sceneSig struct{ bodies, removed, lights, robots int }

// loopState is owned by the goroutine that runs the simulator.
type loopState struct {
	playing     bool
	speed       float64
	runErr      error
	notice      string
	lastPub     time.Time
	minInterval time.Duration
	sig         sceneSig
	ver         int
	raysDefault bool
	floor       *jsonFloor // last sampled, nil for a white floor
	floorAt     time.Time

	bodies  []int          // body handles in scene order
	movable []int          // handles of the movable bodies, in scene order
	robots  []int          // robot indices in scene order
	robotOf map[string]int // robot id -> robot index
	prox    []ci.Proximity // per scene robot, nil without one
	rab     []ci.RangeAndBearingSensor
	buf     []byte
	clients []*client
}

func (ls *loopState) init(sim *simulator.Simulator, opt Options) {
	ls.playing = opt.Autoplay
	ls.speed = opt.Speed
	ls.minInterval = time.Second / time.Duration(opt.FPS)
	for _, c := range sim.Experiment().Controllers {
		for _, d := range c.Sensors {
			if on, _ := d.Node.BoolOr("show_rays", false); on {
				ls.raysDefault = true
			}
		}
	}
}

func signature(sim *simulator.Simulator) sceneSig {
	sp := sim.Space()
	sig := sceneSig{bodies: len(sp.Bodies), lights: len(sim.Lights()), robots: sim.NumRobots()}
	for i := range sp.Bodies {
		if sp.Bodies[i].Removed {
			sig.removed++
		}
	}
	return sig
}

// publish sends the state to the browsers: at most FPS times a second
// unless forced (after a command), and only when someone watches.
func (v *Viewer) publish(sim *simulator.Simulator, force bool) {
	ls := &v.loop
	now := time.Now()
	if !force && now.Sub(ls.lastPub) < ls.minInterval {
		return
	}
	v.mu.Lock()
	if len(v.clients) == 0 {
		v.mu.Unlock()
		return
	}
	ls.lastPub = now
	// loop functions may repaint the floor (foraging): look again every
	// second, and send a new scene when it changed
	if sim.World().Floor != nil && now.Sub(ls.floorAt) >= time.Second {
		ls.floorAt = now
		if f := sampleFloor(sim); ls.floor == nil || f.Data != ls.floor.Data {
			ls.floor = f
			ls.sig = sceneSig{}
		}
	} else if sim.World().Floor == nil && ls.floor != nil {
		ls.floor = nil
		ls.sig = sceneSig{}
	}
	if sig := signature(sim); sig != ls.sig || v.lastScene == nil {
		ls.sig = sig
		ls.ver++
		v.lastScene = v.buildScene(sim)
		for c := range v.clients {
			c.enqueue(v.lastScene)
		}
	}
	frame := v.buildFrame(sim)
	v.lastFrame = frame
	ls.clients = ls.clients[:0]
	for c := range v.clients {
		ls.clients = append(ls.clients, c)
	}
	v.mu.Unlock()

	var overlay []byte
	inspected := map[string][]byte{}
	for _, c := range ls.clients {
		c.offer(slotFrame, frame)
		if c.rays || c.rab {
			if overlay == nil {
				overlay = v.buildOverlay(sim)
			}
			c.offer(slotOverlay, overlay)
		}
		if c.selected != "" {
			m, ok := inspected[c.selected]
			if !ok {
				m = v.buildInspect(sim, c.selected)
				inspected[c.selected] = m
			}
			c.offer(slotInspect, m)
		}
	}
	clear(ls.clients)
}

type jsonBody struct {
	ID      string  `json:"id"`
	Type    string  `json:"type"`
	Shape   string  `json:"shape"`
	R       float64 `json:"r"`
	HX      float64 `json:"hx"`
	HY      float64 `json:"hy"`
	H       float64 `json:"h"`
	Movable bool    `json:"movable"`
	Robot   int     `json:"robot"` // index in scene robots, -1 for objects
	// Pose of a static body: x, y, z, yaw. Frames carry the poses of
	// the movable ones, in scene order.
	Pose *[4]float64 `json:"pose,omitempty"`
}

type jsonRobot struct {
	ID    string  `json:"id"`
	Type  string  `json:"type"`
	Body  int     `json:"body"` // index in scene bodies
	Range float64 `json:"range"`
}

type jsonLight struct {
	ID        string     `json:"id"`
	P         [3]float64 `json:"p"`
	Color     string     `json:"color"`
	Intensity float64    `json:"intensity"`
}

type jsonFloor struct {
	W    int    `json:"w"`
	H    int    `json:"h"`
	Data string `json:"data"` // base64 RGB, rows from the top (max y)
}

type jsonScene struct {
	T           string      `json:"t"`
	V           int         `json:"v"`
	Experiment  string      `json:"experiment"`
	Center      [3]float64  `json:"center"`
	Size        [3]float64  `json:"size"`
	TPS         float64     `json:"tps"`
	MaxTicks    int         `json:"max_ticks"`
	Bodies      []jsonBody  `json:"bodies"`
	Robots      []jsonRobot `json:"robots"`
	Lights      []jsonLight `json:"lights"`
	Floor       *jsonFloor  `json:"floor"`
	RaysDefault bool        `json:"rays_default"`
}

func (v *Viewer) buildScene(sim *simulator.Simulator) []byte {
	ls := &v.loop
	sp := sim.Space()
	robotOfBody := map[int]int{}
	ls.robotOf = map[string]int{}
	for i := 0; i < sim.NumRobots(); i++ {
		if _, _, active := sim.RobotController(i); active {
			robotOfBody[sim.Robot(i).Body] = i
			ls.robotOf[sim.Robot(i).ID] = i
		}
	}
	sc := jsonScene{T: "scene", V: ls.ver, Experiment: sim.Experiment().File,
		Center: vec3(sp.Center), Size: vec3(sp.Size), TPS: 1 / sim.TickLength(), MaxTicks: sim.MaxTicks(),
		RaysDefault: ls.raysDefault, Bodies: []jsonBody{}, Robots: []jsonRobot{}, Lights: []jsonLight{}}
	ls.bodies, ls.movable, ls.robots, ls.prox, ls.rab = ls.bodies[:0], ls.movable[:0], ls.robots[:0], ls.prox[:0], ls.rab[:0]
	for h := range sp.Bodies {
		b := &sp.Bodies[h]
		if b.Removed {
			continue
		}
		jb := jsonBody{ID: b.ID, Type: b.Type, Shape: "disc", R: b.Radius, HX: b.Half.X, HY: b.Half.Y, H: b.Height, Movable: b.Movable, Robot: -1}
		if b.Shape == space.Box {
			jb.Shape = "box"
		}
		if b.Movable {
			ls.movable = append(ls.movable, h)
		} else {
			jb.Pose = &[4]float64{b.Pos.X, b.Pos.Y, b.Z, b.Yaw}
		}
		if ri, ok := robotOfBody[h]; ok {
			jb.Robot = len(ls.robots)
			rb := sim.Robot(ri)
			jr := jsonRobot{ID: rb.ID, Type: b.Type, Body: len(ls.bodies)}
			if rb.Model != nil {
				jr.Range = rb.Model.Proximity.Range
			}
			var prox ci.Proximity
			var rab ci.RangeAndBearingSensor
			for _, d := range sim.RobotDevices(ri) {
				if p, ok := d.Impl.(ci.Proximity); ok && prox == nil && !d.Actuator {
					prox = p
				}
				if r, ok := d.Impl.(ci.RangeAndBearingSensor); ok && rab == nil && !d.Actuator {
					rab = r
				}
			}
			ls.robots = append(ls.robots, ri)
			ls.prox = append(ls.prox, prox)
			ls.rab = append(ls.rab, rab)
			sc.Robots = append(sc.Robots, jr)
		}
		ls.bodies = append(ls.bodies, h)
		sc.Bodies = append(sc.Bodies, jb)
	}
	for _, l := range sim.Lights() {
		sc.Lights = append(sc.Lights, jsonLight{ID: l.ID, P: vec3(l.Position), Color: devices.HexColor(l.Color), Intensity: l.Intensity})
	}
	if sim.World().Floor != nil {
		if ls.floor == nil {
			ls.floor, ls.floorAt = sampleFloor(sim), time.Now()
		}
		sc.Floor = ls.floor
	}
	b, _ := json.Marshal(sc)
	return b
}

func vec3(v ci.Vector3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

// sampleFloor samples the floor colour on a grid of at most 256 cells
// along the arena's longer side.
func sampleFloor(sim *simulator.Simulator) *jsonFloor {
	lo, hi := sim.Space().Bounds()
	sx, sy := hi.X-lo.X, hi.Y-lo.Y
	n := 256.0
	w := max(1, int(math.Round(n*sx/math.Max(sx, sy))))
	h := max(1, int(math.Round(n*sy/math.Max(sx, sy))))
	data := make([]byte, 0, 3*w*h)
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			c := sim.World().FloorColor(ci.Vector2{X: lo.X + (float64(i)+0.5)*sx/float64(w), Y: hi.Y - (float64(j)+0.5)*sy/float64(h)})
			data = append(data, c.R, c.G, c.B)
		}
	}
	return &jsonFloor{W: w, H: h, Data: base64.StdEncoding.EncodeToString(data)}
}

func appendFloat(b []byte, f float64, prec int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	b = strconv.AppendFloat(b, f, 'f', prec, 64)
	// trim trailing zeros: "1.5000" -> "1.5", "2.0000" -> "2"
	if prec > 0 {
		i := len(b)
		for b[i-1] == '0' {
			i--
		}
		if b[i-1] == '.' {
			i--
		}
		if i > 0 && !(i == 1 && b[0] == '-') {
			b = b[:i]
		}
	}
	return b
}

// buildFrame encodes the moving state: every movable body's pose, every
// robot's LEDs, the laser spots, and the run's status.
func (v *Viewer) buildFrame(sim *simulator.Simulator) []byte {
	ls := &v.loop
	sp := sim.Space()
	b := append(ls.buf[:0], `{"t":"frame","v":`...)
	b = strconv.AppendInt(b, int64(ls.ver), 10)
	b = append(b, `,"tick":`...)
	b = strconv.AppendInt(b, int64(sim.Tick()), 10)
	b = append(b, `,"time":`...)
	b = appendFloat(b, float64(sim.Tick())*sim.TickLength(), 3)
	b = append(b, `,"playing":`...)
	b = strconv.AppendBool(b, ls.playing)
	b = append(b, `,"speed":`...)
	b = appendFloat(b, ls.speed, 3)
	b = append(b, `,"finished":`...)
	b = strconv.AppendBool(b, sim.Finished())
	b = append(b, `,"driven":`...)
	b = strconv.AppendBool(b, v.driving.Load())
	msg := ls.notice
	if ls.runErr != nil {
		msg = ls.runErr.Error()
	}
	m, _ := json.Marshal(msg)
	b = append(b, `,"message":`...)
	b = append(b, m...)
	b = append(b, `,"p":[`...)
	for k, h := range ls.movable {
		bd := &sp.Bodies[h]
		if k > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, bd.Pos.X, 4)
		b = append(b, ',')
		b = appendFloat(b, bd.Pos.Y, 4)
		b = append(b, ',')
		b = appendFloat(b, bd.Z, 4)
		b = append(b, ',')
		b = appendFloat(b, bd.Yaw, 4)
	}
	b = append(b, `],"l":[`...)
	for k, ri := range ls.robots {
		leds := sim.Robot(ri).LEDs
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(len(leds)), 10)
		for _, c := range leds {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(c.R)<<16|int64(c.G)<<8|int64(c.B), 10)
		}
	}
	b = append(b, `],"s":[`...)
	for k, s := range sim.World().Spots {
		if k > 0 {
			b = append(b, ',')
		}
		for _, f := range [...]float64{s.Pos.X, s.Pos.Y, s.Pos.Z, s.Radius} {
			b = appendFloat(b, f, 4)
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s.Color.R)<<16|int64(s.Color.G)<<8|int64(s.Color.B), 10)
	}
	// the lit LEDs of boxes and cylinders: x, y, z, colour each
	b = append(b, `],"o":[`...)
	first := true
	for _, o := range sim.World().ObjectLEDs {
		bd := &sp.Bodies[o.Body]
		if bd.Removed {
			continue
		}
		for k, l := range o.LEDs {
			if l.Color == ci.Black || l.Color.A == 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			p := o.Position(bd, k)
			for _, f := range [...]float64{p.X, p.Y, p.Z} {
				b = appendFloat(b, f, 4)
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(l.Color.R)<<16|int64(l.Color.G)<<8|int64(l.Color.B), 10)
		}
	}
	b = append(b, "]}"...)
	ls.buf = b
	return append([]byte(nil), b...)
}

// buildOverlay encodes the proximity readings (robot, count, then angle
// and value pairs) and the range-and-bearing links (segments from a
// receiver to where it heard a sender).
func (v *Viewer) buildOverlay(sim *simulator.Simulator) []byte {
	ls := &v.loop
	b := []byte(`{"t":"overlay","v":`)
	b = strconv.AppendInt(b, int64(ls.ver), 10)
	b = append(b, `,"rays":[`...)
	first := true
	for k, p := range ls.prox {
		if p == nil {
			continue
		}
		rd := p.Readings()
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(len(rd)), 10)
		for _, r := range rd {
			b = append(b, ',')
			b = appendFloat(b, r.Angle, 4)
			b = append(b, ',')
			b = appendFloat(b, r.Value, 3)
		}
	}
	b = append(b, `],"rab":[`...)
	first = true
	for k, r := range ls.rab {
		if r == nil {
			continue
		}
		body := sim.Robot(ls.robots[k]).B()
		for _, p := range r.Packets() {
			to := body.Pos.Add(ci.FromPolar(p.Range/100, body.Yaw+p.HorizontalBearing))
			for _, f := range [...]float64{body.Pos.X, body.Pos.Y, to.X, to.Y} {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = appendFloat(b, f, 3)
			}
		}
	}
	return append(b, "]}"...)
}

type jsonDevice struct {
	Tag   string          `json:"tag"`
	Kind  string          `json:"kind"` // "sensor" or "actuator"
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

type jsonInspect struct {
	T          string       `json:"t"`
	ID         string       `json:"id"`
	Found      bool         `json:"found"`
	Type       string       `json:"type,omitempty"`
	Controller string       `json:"controller,omitempty"`
	Label      string       `json:"label,omitempty"`
	Tick       int          `json:"tick"`
	Pose       [4]float64   `json:"pose"` // x, y, z (m), yaw (degrees)
	Wheels     [2]float64   `json:"wheels_m_s"`
	LEDs       []string     `json:"leds"`
	Devices    []jsonDevice `json:"devices"`
}

// buildInspect describes robot id: pose, wheels, LEDs and what each of
// its devices says.
func (v *Viewer) buildInspect(sim *simulator.Simulator, id string) []byte {
	out := jsonInspect{T: "inspect", ID: id, Tick: sim.Tick(), LEDs: []string{}, Devices: []jsonDevice{}}
	ri, ok := v.loop.robotOf[id]
	if ok {
		rb := sim.Robot(ri)
		b := rb.B()
		out.Found = true
		out.Type = b.Type
		out.Controller, out.Label, _ = sim.RobotController(ri)
		out.Pose = [4]float64{b.Pos.X, b.Pos.Y, b.Z, ci.Degrees(b.Yaw)}
		out.Wheels = rb.Wheels
		for _, c := range rb.LEDs {
			out.LEDs = append(out.LEDs, devices.HexColor(c))
		}
		for _, d := range sim.RobotDevices(ri) {
			jd := jsonDevice{Tag: d.Tag, Kind: "sensor", Type: typeName(d.Impl)}
			if d.Actuator {
				jd.Kind = "actuator"
			}
			jd.Value = json.RawMessage("null")
			if in, ok := d.Impl.(devices.Inspector); ok {
				if b, err := json.Marshal(in.Inspect()); err == nil {
					jd.Value = b
				} else {
					e, _ := json.Marshal(map[string]string{"error": err.Error()})
					jd.Value = e
				}
			}
			out.Devices = append(out.Devices, jd)
		}
		if math.IsNaN(out.Pose[0] + out.Pose[1] + out.Pose[2] + out.Pose[3] + out.Wheels[0] + out.Wheels[1]) {
			out.Pose, out.Wheels = [4]float64{}, [2]float64{}
		}
	}
	b, _ := json.Marshal(out)
	return b
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
