package web

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
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
	X     *float64 `json:"x"`   // nil keeps the position
	Y     *float64 `json:"y"`   //
	Yaw   *float64 `json:"yaw"` // radians; nil keeps the heading
	Value float64  `json:"value"`
	Rays  bool     `json:"rays"`
	RAB   bool     `json:"rab"`
	Key   string   `json:"key"`
	Down  bool     `json:"down"`
	Seq   int      `json:"seq"` // echoed in the answer to "check"

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

	bodies     []int          // body handles in scene order
	movable    []int          // handles of the movable bodies, in scene order
	robots     []int          // robot indices in scene order
	robotOf    map[string]int // robot id -> robot index
	sceneRobot map[string]int // robot id -> index in the scene's robots
	prox       []ci.Proximity // per scene robot, nil without one
	rab        []ci.RangeAndBearingSensor
	clients    []*client

	quant       Quant
	ledOff      []int32   // offsets of each scene robot's LEDs in snapshots
	ledScratch  []uint32  // reused when the LEDs did not change
	prev        *snapshot // the last snapshot published
	canvas      simulator.Canvas
	drawing     []byte // the user functions' last drawing, encoded
	drawScratch []byte
	drawSeq     uint64

	// start poses of the movable bodies (the viewer's own record: a
	// body the viewer moved goes back there on reset)
	start map[int]startPose
	moved map[int]bool
}

type startPose struct {
	pos ci.Vector3
	yaw float64
}

func (ls *loopState) init(sim *simulator.Simulator, opt Options) {
	ls.playing = opt.Autoplay
	ls.speed = opt.Speed
	ls.minInterval = time.Second / time.Duration(opt.FPS)
	ls.start, ls.moved = map[int]startPose{}, map[int]bool{}
	if sim.Tick() == 0 {
		sp := sim.Space()
		for h := range sp.Bodies {
			if b := &sp.Bodies[h]; b.Movable && !b.Removed {
				ls.start[h] = startPose{ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}, b.Yaw}
			}
		}
	}
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
	frame := v.buildSnapshot(sim)
	v.lastFrame = frame
	ls.clients = ls.clients[:0]
	for c := range v.clients {
		ls.clients = append(ls.clients, c)
	}
	v.mu.Unlock()

	var overlay []byte
	inspected := map[string][]byte{}
	for _, c := range ls.clients {
		c.offerFrame(frame)
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
	LEDs  int     `json:"leds"` // how many LEDs it has
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

type jsonModel struct {
	// LEDs: angle (radians from the front), radius and height of each
	// LED, as the robot's LEDs are ordered
	LEDs    [][3]float64 `json:"leds"`
	Turret  bool         `json:"turret"`  // LEDs turn with the turret
	Wheels  bool         `json:"wheels"`  // a wheeled robot
	Gripper bool         `json:"gripper"` // has a gripper
}

type jsonCamera struct {
	Index    int        `json:"index"`
	Position [3]float64 `json:"position"`
	LookAt   [3]float64 `json:"look_at"`
	Up       [3]float64 `json:"up"`
	FovY     float64    `json:"fovy"` // degrees
}

type jsonScene struct {
	T           string               `json:"t"`
	V           int                  `json:"v"`
	Experiment  string               `json:"experiment"`
	Title       string               `json:"title,omitempty"`
	Quant       [5]float64           `json:"quant"` // x0, y0, w, h, zmax (frame.go)
	Models      map[string]jsonModel `json:"models"`
	Cameras     []jsonCamera         `json:"cameras"`
	View        string               `json:"view"`        // the view to open: "top" or "3d"
	UserDraw    bool                 `json:"user_draw"`   // the run has user functions
	UserKeys    bool                 `json:"user_keys"`   // they take keys
	UserSelect  bool                 `json:"user_select"` // they react to the selection
	Center      [3]float64           `json:"center"`
	Size        [3]float64           `json:"size"`
	TPS         float64              `json:"tps"`
	MaxTicks    int                  `json:"max_ticks"`
	Bodies      []jsonBody           `json:"bodies"`
	Robots      []jsonRobot          `json:"robots"`
	Lights      []jsonLight          `json:"lights"`
	Floor       *jsonFloor           `json:"floor"`
	RaysDefault bool                 `json:"rays_default"`
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
	sc := jsonScene{T: "scene", V: ls.ver, Experiment: sim.Experiment().File, Title: v.opt.Title,
		Center: vec3(sp.Center), Size: vec3(sp.Size), TPS: 1 / sim.TickLength(), MaxTicks: sim.MaxTicks(),
		RaysDefault: ls.raysDefault, Bodies: []jsonBody{}, Robots: []jsonRobot{}, Lights: []jsonLight{},
		Models: map[string]jsonModel{}, Cameras: []jsonCamera{}, View: "top"}
	lo, hi := sp.Bounds()
	ls.quant = Quant{X0: lo.X, Y0: lo.Y, W: math.Max(hi.X-lo.X, 1e-3), H: math.Max(hi.Y-lo.Y, 1e-3),
		ZMax: math.Max(math.Max(sp.Center.Z+sp.Size.Z/2, sp.Size.Z), 1e-3)}
	sc.Quant = [5]float64{ls.quant.X0, ls.quant.Y0, ls.quant.W, ls.quant.H, ls.quant.ZMax}
	for _, c := range v.opt.Cameras {
		sc.Cameras = append(sc.Cameras, jsonCamera{Index: c.Index, Position: vec3(c.Position), LookAt: vec3(c.LookAt), Up: vec3(c.Up), FovY: c.FovY})
	}
	if v.opt.View3D {
		sc.View = "3d"
	}
	if uf := sim.UserFunctions(); uf != nil {
		sc.UserDraw = true
		_, sc.UserKeys = uf.(simulator.KeyHandler)
		_, sc.UserSelect = uf.(simulator.EntitySelector)
	}
	ls.bodies, ls.movable, ls.robots, ls.prox, ls.rab = ls.bodies[:0], ls.movable[:0], ls.robots[:0], ls.prox[:0], ls.rab[:0]
	ls.sceneRobot = map[string]int{}
	ls.ledOff = []int32{0}
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
			jr := jsonRobot{ID: rb.ID, Type: b.Type, Body: len(ls.bodies), LEDs: len(rb.LEDs)}
			if m := rb.Model; m != nil {
				jr.Range = m.Proximity.Range
				if _, ok := sc.Models[m.Type]; !ok {
					jm := jsonModel{LEDs: [][3]float64{}, Turret: m.LEDsOnTurret, Wheels: m.WheelRadius > 0, Gripper: m.Gripper != nil}
					for _, l := range m.LEDMounts {
						jm.LEDs = append(jm.LEDs, [3]float64{l.Angle, l.Radius, l.Height})
					}
					sc.Models[m.Type] = jm
				}
			}
			ls.sceneRobot[rb.ID] = len(ls.robots)
			ls.ledOff = append(ls.ledOff, ls.ledOff[len(ls.ledOff)-1]+int32(len(rb.LEDs)))
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

// buildSnapshot takes the moving state: every movable body's pose, every
// robot's LEDs, the laser spots, the lit LEDs of objects, the user
// functions' drawing and the run's status.
func (v *Viewer) buildSnapshot(sim *simulator.Simulator) *snapshot {
	ls := &v.loop
	sp := sim.Space()
	q := ls.quant
	s := &snapshot{ver: ls.ver, tick: sim.Tick(), speed: float32(ls.speed), message: ls.notice, ledOff: ls.ledOff}
	if ls.runErr != nil {
		s.message = ls.runErr.Error()
	}
	if ls.playing {
		s.flags |= flagPlaying
	}
	if sim.Finished() {
		s.flags |= flagFinished
	}
	if v.driving.Load() {
		s.flags |= flagDriven
	}
	n := len(ls.movable)
	s.xy, s.yaw, s.z = make([]uint16, 2*n), make([]uint16, n), make([]uint16, n)
	for k, h := range ls.movable {
		b := &sp.Bodies[h]
		s.xy[2*k], s.xy[2*k+1] = q.X(b.Pos.X), q.Y(b.Pos.Y)
		s.yaw[k] = q.Yaw(b.Yaw)
		s.z[k] = q.Z(b.Z)
	}
	// the LEDs: the previous snapshot's slice when none changed
	leds := ls.ledScratch[:0]
	for _, ri := range ls.robots {
		for _, c := range sim.Robot(ri).LEDs {
			leds = append(leds, rgb24(c))
		}
	}
	if ls.prev != nil && ls.prev.ver == s.ver && slices.Equal(ls.prev.leds, leds) {
		s.leds = ls.prev.leds
		ls.ledScratch = leds
	} else {
		s.leds = leds
		ls.ledScratch = nil
	}
	if len(s.leds) != int(ls.ledOff[len(ls.ledOff)-1]) {
		// a robot's LED count changed under the viewer: a new scene fixes it
		ls.sig = sceneSig{}
		s.leds = make([]uint32, ls.ledOff[len(ls.ledOff)-1])
	}
	// laser spots and the lit LEDs of boxes and cylinders
	b := binary.LittleEndian.AppendUint16(nil, 0)
	ns := 0
	for _, sp := range sim.World().Spots {
		if ns == 65535 || !finite(sp.Pos.X, sp.Pos.Y, sp.Pos.Z, sp.Radius) {
			continue
		}
		ns++
		b = appendF32(b, sp.Pos.X)
		b = appendF32(b, sp.Pos.Y)
		b = appendF32(b, sp.Pos.Z)
		b = appendF32(b, sp.Radius)
		b = append(b, sp.Color.R, sp.Color.G, sp.Color.B)
	}
	binary.LittleEndian.PutUint16(b, uint16(ns))
	s.spots = b
	b = binary.LittleEndian.AppendUint16(nil, 0)
	no := 0
	for _, o := range sim.World().ObjectLEDs {
		bd := &sp.Bodies[o.Body]
		if bd.Removed {
			continue
		}
		for k, l := range o.LEDs {
			if l.Color == ci.Black || l.Color.A == 0 || no == 65535 {
				continue
			}
			p := o.Position(bd, k)
			if !finite(p.X, p.Y, p.Z) {
				continue
			}
			no++
			b = appendF32(b, p.X)
			b = appendF32(b, p.Y)
			b = appendF32(b, p.Z)
			b = append(b, l.Color.R, l.Color.G, l.Color.B)
		}
	}
	binary.LittleEndian.PutUint16(b, uint16(no))
	s.objLEDs = b
	// the user functions' drawing, sent again only when it changed
	if sim.DrawUser(&ls.canvas) {
		d := encodeDrawing(ls.drawScratch[:0], ls.canvas.Items(), func(id string) (int, bool) {
			k, ok := ls.sceneRobot[id]
			return k, ok
		})
		if ls.drawing != nil && bytes.Equal(d, ls.drawing) {
			ls.drawScratch = d
		} else {
			ls.drawSeq++
			ls.drawing = d
			ls.drawScratch = nil
		}
		s.drawing, s.drawSeq = ls.drawing, ls.drawSeq
	}
	ls.prev = s
	return s
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
	Pose       [4]float64   `json:"pose"`                 // x, y, z (m), yaw (degrees)
	Wheels     *[2]float64  `json:"wheels_m_s,omitempty"` // wheeled robots only
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
		if rb.Model != nil && rb.Model.WheelRadius > 0 {
			w := rb.Wheels
			if math.IsNaN(w[0] + w[1]) {
				w = [2]float64{}
			}
			out.Wheels = &w
		}
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
		if math.IsNaN(out.Pose[0] + out.Pose[1] + out.Pose[2] + out.Pose[3]) {
			out.Pose = [4]float64{}
		}
	}
	b, _ := json.Marshal(out)
	return b
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
