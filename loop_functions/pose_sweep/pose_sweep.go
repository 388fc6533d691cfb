// Package pose_sweep holds loop functions that put a robot at a list of
// poses, one per tick, and tabulate what its sensors read at each: a
// sensor's response to a wall, to another robot or to a floor, for
// calibration and plots. They are the loop functions ARGoS 3's sensor
// sweeps were made with (registered as pose_sweep_loop_functions), so the
// same experiment files run unchanged and give comparable tables.
//
// The robot under test runs the sensor probe (package
// controllers/sensor_probe, sensor_probe_controller). The pose list is a
// grid in polar coordinates around a centre, configured by a <sweep>
// child of <loop_functions>:
//
//	<loop_functions label="pose_sweep_loop_functions">
//	  <sweep robot="fb0" output="sweep.tsv" format="readings" center="0,0"
//	         dist_min="0.086" dist_step="0.002" dist_count="83"
//	         dir_min_deg="180" dir_step_deg="0" dir_count="1"
//	         yaw_min_deg="0" yaw_step_deg="15" yaw_count="24"
//	         ignore_collisions="false"/>
//	  <floor_ramp x_black="-0.2" x_white="0.2"/>
//	</loop_functions>
//
// Distances d = dist_min + i dist_step (i < dist_count, rounded to the
// nearest nanometre), directions dir = dir_min_deg + j dir_step_deg
// (j < dir_count) and yaws yaw_min_deg + l yaw_step_deg (l < yaw_count)
// give pose p = (l dir_count + j) dist_count + i at (cx + d cos dir,
// cy + d sin dir) facing yaw: the yaw outermost, the distance innermost.
// The counts default to 1 and the other numbers to 0; robot and output
// are required. With ignore_collisions="false" (the default) a pose that
// overlaps another body stops the run with an error; "true" places the
// robot anyway.
//
// Pose p is sensed in tick p + 1. It is set at the end of tick p (in
// PostStep, pose 0 in Init), so that the media (range and bearing) see it
// in tick p + 1, and set again in PreStep of tick p + 1, after the
// physics step, when every other robot is also put back at its starting
// pose: at sensing time the robots are exactly at the listed poses. The
// run ends after the last pose. Before writing a tick's rows the loop
// functions check that the robot is at the pose (within 1e-12 m and
// 1e-12 rad) and that its controller ran exactly tick control steps.
//
// The optional <floor_ramp> colours the floor (declare <floor
// source="loop_functions">) grey level g = floor(255 clamp((x - x_black) /
// (x_white - x_black), 0, 1) + 0.5) in red, green and blue: black where x
// <= x_black, white where x >= x_white, a ramp between, whatever y.
//
// The table (output; in the run folder when relative) is tab-separated
// with a header row. Numbers are the shortest decimals that read back as
// the same float64. format="readings" writes one row per reading:
//
//	tick  x  y  yaw_rad  sensor  index  value  angle_rad
//
// (the probe's readings, see package sensor_probe; yaw_rad in [0, 2 pi)),
// and format="rab" one row per tick for a probe that declares the
// range_and_bearing sensor:
//
//	tick  x  y  yaw_rad  packets  range_cm  hbearing_rad  vbearing_rad  data
//
// where packets is how many packets the sensor holds and the rest
// describe the first one (NaN and no data without a packet), data as
// comma-separated decimal bytes.
package pose_sweep

import (
	"fmt"
	"math"
	"strconv"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/controllers/sensor_probe"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/loop"
)

// Label is the label under which the loop functions are registered.
const Label = "pose_sweep_loop_functions"

// The table headers.
const (
	ReadingsHeader = "tick\tx\ty\tyaw_rad\tsensor\tindex\tvalue\tangle_rad"
	RABHeader      = "tick\tx\ty\tyaw_rad\tpackets\trange_cm\thbearing_rad\tvbearing_rad\tdata"
)

// maxPoses bounds the length of a sweep.
const maxPoses = 100_000_000

func init() {
	simulator.LoopFunctionsTypes.MustRegister(Label,
		"Pose sweep: puts a robot running sensor_probe_controller at a list of poses, one per tick, and writes what its sensors read at each "+
			"(ARGoS 3's sensor sweeps run unchanged). Child <sweep robot=\"fb0\" output=\"t.tsv\" format=\"readings|rab\" center=\"0,0\" "+
			"dist_min dist_step dist_count dir_min_deg dir_step_deg dir_count yaw_min_deg yaw_step_deg yaw_count ignore_collisions=\"false\"/>: "+
			"pose p = (yaw index x dir_count + dir index) x dist_count + dist index, at center + d (cos dir, sin dir) facing yaw, sensed in tick "+
			"p + 1; counts default to 1, the rest to 0. readings: one row per reading (tick x y yaw_rad sensor index value angle_rad); rab: one row "+
			"per tick (tick x y yaw_rad packets range_cm hbearing_rad vbearing_rad data) about the first packet. Optional child <floor_ramp "+
			"x_black x_white/> colours a <floor source=\"loop_functions\">: black up to x_black, white from x_white, a grey ramp between.",
		func() simulator.LoopFunctions { return New() })
}

// Pose is where the robot stands: position in metres, yaw in radians in
// [0, 2 pi).
type Pose struct {
	X, Y, Yaw float64
}

// Grid is a pose list: distances, directions and yaws (degrees) around
// Center.
type Grid struct {
	Center                      ci.Vector2
	DistMin, DistStep           float64
	DistCount                   int
	DirMin, DirStep             float64
	DirCount                    int
	YawMin, YawStep             float64
	YawCount                    int
	ignoreCollisions, rabFormat bool
}

// Len returns the number of poses.
func (g *Grid) Len() int { return g.DistCount * g.DirCount * g.YawCount }

// Pose returns pose p.
func (g *Grid) Pose(p int) Pose {
	i := p % g.DistCount
	j := p / g.DistCount % g.DirCount
	l := p / (g.DistCount * g.DirCount)
	d := math.Round((g.DistMin+float64(i)*g.DistStep)*1e9) / 1e9
	c, s := cosSinDeg(g.DirMin + float64(j)*g.DirStep)
	yaw := math.Mod(g.YawMin+float64(l)*g.YawStep, 360)
	if yaw < 0 {
		yaw += 360
	}
	return Pose{X: g.Center.X + d*c, Y: g.Center.Y + d*s, Yaw: yaw * (math.Pi / 180)}
}

// cosSinDeg returns the cosine and sine of deg degrees, exact at
// multiples of 90.
func cosSinDeg(deg float64) (c, s float64) {
	m := math.Mod(deg, 360)
	if m < 0 {
		m += 360
	}
	switch m {
	case 0:
		return 1, 0
	case 90:
		return 0, 1
	case 180:
		return -1, 0
	case 270:
		return 0, -1
	}
	s, c = math.Sincos(deg * (math.Pi / 180))
	return c, s
}

// Sweep are the pose-sweep loop functions. Make them with New.
type Sweep struct {
	simulator.LoopFunctionsBase
	sim   *simulator.Simulator
	where string // the <sweep> element, for errors
	grid  Grid

	robot  int // index of the robot under test
	body   int
	probe  *sensor_probe.Controller
	others []start

	ramp           bool
	xBlack, xWhite float64

	out  loop.StatsFile
	row  []byte
	done bool
	err  error  // what stops the sweep, with where the <sweep> is
	msg  string // the same, without where
}

// start is another robot's starting pose.
type start struct {
	body int
	pos  ci.Vector3
	yaw  float64
}

// New returns loop functions that Init has still to configure.
func New() *Sweep { return &Sweep{} }

// Init reads <sweep> and <floor_ramp>, finds the robot and its probe,
// opens the table and puts the robot at pose 0.
func (l *Sweep) Init(sim *simulator.Simulator, n *config.Node) error {
	if err := n.CheckAttrs("label", "library"); err != nil {
		return err
	}
	if err := n.CheckChildren("sweep", "floor_ramp"); err != nil {
		return err
	}
	sn, err := n.Child("sweep")
	if err != nil {
		return err
	}
	*l = Sweep{sim: sim, where: sn.Where()}
	if err := l.readGrid(sn); err != nil {
		return err
	}
	id, err := sn.String("robot")
	if err != nil {
		return err
	}
	if err := l.findRobot(sn, id); err != nil {
		return err
	}
	if fn, err := n.OptionalChild("floor_ramp"); err != nil {
		return err
	} else if fn != nil {
		if err := l.readRamp(fn); err != nil {
			return err
		}
		sim.World().Floor = l.FloorColor
	}
	output, err := sn.String("output")
	if err != nil {
		return err
	}
	l.out = loop.StatsFile{Label: Label, Output: output, Header: ReadingsHeader}
	if l.grid.rabFormat {
		l.out.Header = RABHeader
	}
	if err := l.out.Open(sim); err != nil {
		return sn.AttrErrorf("output", "%v; give a file name in a folder that exists and can be written", err)
	}
	// the run stops with the sweep's errors: a recorder that reports them
	// after the tick in which they happen
	if err := sim.AddVisualization(guard{l}); err != nil {
		return err
	}
	l.place(0)
	if l.err != nil {
		// the simulator says where the loop functions are
		return fmt.Errorf("pose_sweep: %s", l.msg)
	}
	return nil
}

func (l *Sweep) readGrid(sn *config.Node) error {
	if err := sn.CheckAttrs("robot", "output", "format", "center", "dist_min", "dist_step", "dist_count", "dir_min_deg", "dir_step_deg",
		"dir_count", "yaw_min_deg", "yaw_step_deg", "yaw_count", "ignore_collisions"); err != nil {
		return err
	}
	g := &l.grid
	var err error
	switch f := sn.StringOr("format", "readings"); f {
	case "readings":
	case "rab":
		g.rabFormat = true
	default:
		return sn.AttrErrorf("format", "%q is not a table format; use \"readings\" (a row per reading) or \"rab\" (a row per tick about the first range-and-bearing packet)", f)
	}
	if g.Center, err = sn.Vector2Or("center", ci.Vector2{}); err != nil {
		return err
	}
	floats := []struct {
		name string
		v    *float64
	}{{"dist_min", &g.DistMin}, {"dist_step", &g.DistStep}, {"dir_min_deg", &g.DirMin}, {"dir_step_deg", &g.DirStep},
		{"yaw_min_deg", &g.YawMin}, {"yaw_step_deg", &g.YawStep}}
	for _, f := range floats {
		if *f.v, err = sn.FloatOr(f.name, 0); err != nil {
			return err
		}
	}
	total := 1
	for _, c := range []struct {
		name string
		v    *int
	}{{"dist_count", &g.DistCount}, {"dir_count", &g.DirCount}, {"yaw_count", &g.YawCount}} {
		if *c.v, err = sn.IntOr(c.name, 1); err != nil {
			return err
		}
		if *c.v < 1 || *c.v > maxPoses {
			return sn.AttrErrorf(c.name, "give how many values to take, from 1 to %d", maxPoses)
		}
		total *= *c.v
		if total > maxPoses {
			return sn.Errorf("pose_sweep: dist_count x dir_count x yaw_count is over %d poses; split the sweep", maxPoses)
		}
	}
	if g.ignoreCollisions, err = sn.BoolOr("ignore_collisions", false); err != nil {
		return err
	}
	return nil
}

// findRobot finds the robot under test, its probe and the other robots'
// starting poses.
func (l *Sweep) findRobot(sn *config.Node, id string) error {
	sim := l.sim
	l.robot = -1
	for i := range sim.NumRobots() {
		r := sim.Robot(i)
		if r.ID == id {
			l.robot, l.body = i, r.Body
			continue
		}
		b := r.B()
		l.others = append(l.others, start{body: r.Body, pos: ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}, yaw: b.Yaw})
	}
	if l.robot < 0 {
		return sn.AttrErrorf("robot", "no robot has id %q; name the robot under test", id)
	}
	probe, ok := sim.Controller(l.robot).(*sensor_probe.Controller)
	if !ok {
		_, label, _ := sim.RobotController(l.robot)
		return sn.AttrErrorf("robot", "robot %q runs %s; the robot under test must run %s", id, label, sensor_probe.Label)
	}
	l.probe = probe
	if l.grid.rabFormat {
		has := false
		for _, d := range sim.RobotDevices(l.robot) {
			has = has || !d.Actuator && d.Tag == ci.TagRangeAndBearing
		}
		if !has {
			return sn.AttrErrorf("format", "\"rab\" tabulates range-and-bearing packets, but robot %q declares no range_and_bearing sensor", id)
		}
	}
	return nil
}

func (l *Sweep) readRamp(fn *config.Node) error {
	if err := fn.CheckAttrs("x_black", "x_white"); err != nil {
		return err
	}
	var err error
	if l.xBlack, err = fn.Float("x_black"); err != nil {
		return err
	}
	if l.xWhite, err = fn.Float("x_white"); err != nil {
		return err
	}
	if l.xBlack == l.xWhite {
		return fn.AttrErrorf("x_white", "equals x_black; give two different abscissas (m), like x_black=\"-0.2\" x_white=\"0.2\"")
	}
	l.ramp = true
	return nil
}

// FloorColor is the colour of the floor ramp at p (white without a
// ramp).
func (l *Sweep) FloorColor(p ci.Vector2) ci.Color {
	if !l.ramp {
		return ci.White
	}
	f := max(0, min(1, (p.X-l.xBlack)/(l.xWhite-l.xBlack)))
	g := uint8(math.Floor(255*f + 0.5))
	return ci.Color{R: g, G: g, B: g, A: 255}
}

// Grid returns the pose list.
func (l *Sweep) Grid() *Grid { return &l.grid }

// Err returns the error that stopped the sweep, if any.
func (l *Sweep) Err() error { return l.err }

// place puts the robot under test at pose p.
func (l *Sweep) place(p int) {
	if l.err != nil || p >= l.grid.Len() {
		return
	}
	q := l.grid.Pose(p)
	if err := l.sim.MoveBody(l.body, ci.Vector3{X: q.X, Y: q.Y}, q.Yaw); err != nil {
		l.fail("pose %d (%g, %g, %g rad): %v", p, q.X, q.Y, q.Yaw, err)
		return
	}
	if !l.grid.ignoreCollisions {
		if j, ok := l.sim.Space().Overlapping(l.body, 0); ok {
			o := &l.sim.Space().Bodies[j]
			l.fail("pose %d (%g, %g, %g rad) of the robot overlaps %s %q; set ignore_collisions=\"true\" to place it anyway", p, q.X, q.Y, q.Yaw, o.Type, o.ID)
		}
	}
}

func (l *Sweep) fail(format string, args ...any) {
	if l.err == nil {
		l.msg = fmt.Sprintf(format, args...)
		l.err = fmt.Errorf("pose_sweep: %s: %s", l.where, l.msg)
	}
}

// PreStep puts the robot at the pose of this tick again, after physics,
// and every other robot back at its starting pose.
func (l *Sweep) PreStep() {
	if l.err != nil || l.done {
		return
	}
	for _, o := range l.others {
		b := &l.sim.Space().Bodies[o.body]
		if b.Removed || b.Pos == o.pos.XY() && b.Z == o.pos.Z && b.Yaw == o.yaw && b.Vel == (ci.Vector2{}) && b.AngVel == 0 {
			continue
		}
		if err := l.sim.MoveBody(o.body, o.pos, o.yaw); err != nil {
			l.fail("putting %q back: %v", b.ID, err)
			return
		}
	}
	l.place(l.sim.Tick() - 1)
}

// PostStep checks the pose and the probe, writes the rows of this tick's
// pose and sets the next pose.
func (l *Sweep) PostStep() {
	if l.err != nil || l.done {
		return
	}
	t := l.sim.Tick()
	p := t - 1
	q := l.grid.Pose(p)
	b := &l.sim.Space().Bodies[l.body]
	if math.Abs(b.Pos.X-q.X) > 1e-12 || math.Abs(b.Pos.Y-q.Y) > 1e-12 || math.Abs(ci.NormalizeAngle(b.Yaw-q.Yaw)) > 1e-12 {
		l.fail("tick %d: the robot is at (%g, %g, %g rad), not at pose %d (%g, %g, %g rad)", t, b.Pos.X, b.Pos.Y, b.Yaw, p, q.X, q.Y, q.Yaw)
		return
	}
	// one control step per tick, the first in tick 1
	if n := l.probe.Steps(); n != t {
		l.fail("tick %d: the probe ran %d control steps; want one per tick, %d by now", t, n, t)
		return
	}
	l.write(t, q)
	if p+1 < l.grid.Len() {
		l.place(p + 1)
	} else {
		l.done = true
	}
}

// write writes the rows of tick t, at pose q.
func (l *Sweep) write(t int, q Pose) {
	head := strconv.AppendInt(l.row[:0], int64(t), 10)
	for _, v := range []float64{q.X, q.Y, q.Yaw} {
		head = append(head, '\t')
		head = appendFloat(head, v)
	}
	l.row = head
	n := len(head)
	if l.grid.rabFormat {
		row := append(head, '\t')
		packets := l.probe.Packets()
		row = strconv.AppendInt(row, int64(len(packets)), 10)
		if len(packets) == 0 {
			row = append(row, "\tNaN\tNaN\tNaN\t"...)
		} else {
			p := packets[0]
			for _, v := range []float64{p.Range, p.HorizontalBearing, p.VerticalBearing} {
				row = append(row, '\t')
				row = appendFloat(row, v)
			}
			row = append(row, '\t')
			for k, d := range p.Data {
				if k > 0 {
					row = append(row, ',')
				}
				row = strconv.AppendUint(row, uint64(d), 10)
			}
		}
		row = append(row, '\n')
		l.out.Printf("%s", row)
		l.row = row
		return
	}
	for _, r := range l.probe.Readings() {
		row := append(l.row[:n], '\t')
		row = append(row, r.Sensor...)
		row = append(row, '\t')
		row = strconv.AppendInt(row, int64(r.Index), 10)
		row = append(row, '\t')
		row = appendFloat(row, r.Value)
		row = append(row, '\t')
		row = appendFloat(row, r.Angle)
		row = append(row, '\n')
		l.out.Printf("%s", row)
		l.row = row
	}
}

// appendFloat writes the shortest decimal that reads back as v.
func appendFloat(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// IsExperimentFinished ends the run after the last pose, or at an error.
func (l *Sweep) IsExperimentFinished() bool { return l.done || l.err != nil }

// PostExperiment writes out the table.
func (l *Sweep) PostExperiment() { l.out.Flush(l.sim) }

// Reset starts the sweep again: the table is rewritten from pose 0.
func (l *Sweep) Reset() error {
	if err := l.out.Close(); err != nil {
		return err
	}
	l.done, l.err = false, nil
	if err := l.out.Open(l.sim); err != nil {
		return fmt.Errorf("pose_sweep: %s: %w", l.where, err)
	}
	l.place(0)
	return l.err
}

// Destroy closes the table.
func (l *Sweep) Destroy() error { return l.out.Close() }

// guard is a recorder that stops the run with the sweep's error.
type guard struct{ l *Sweep }

func (g guard) Draw(*simulator.Simulator) error { return g.l.err }
func (g guard) Close() error                    { return nil }
