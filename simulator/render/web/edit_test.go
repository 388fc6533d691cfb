package web_test

import (
	"context"
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/render/web"
)

// poseOf returns an entity's position and yaw, read on the loop goroutine.
func poseOf(t *testing.T, v *web.Viewer, id string) (p ci.Vector3, yaw float64) {
	t.Helper()
	do(t, v, func(s *simulator.Simulator) {
		h, ok := s.Body(id)
		if !ok {
			t.Fatalf("no %s", id)
		}
		b := &s.Space().Bodies[h]
		p, yaw = ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}, b.Yaw
	})
	return p, yaw
}

var mm = regexp.MustCompile(`\(-?\d+\.\d{3}, -?\d+\.\d{3}\) m`)

// A move that would put a body into another, or out of the arena, is
// refused with a message that says why, in millimetres, and the body
// stays exactly where it was; a move to a free place, or a turn, is made.
func TestMovesThatCollideAreRefused(t *testing.T) {
	_, v := start(t, testExperiment(t, "viewer.argos"))
	a := dial(t, v)
	a.wait("frame", isFrame)
	refused := func(cmd map[string]any, want ...string) {
		t.Helper()
		id := cmd["id"].(string)
		before, yaw := poseOf(t, v, id)
		check := map[string]any{"seq": 7}
		for k, x := range cmd {
			check[k] = x
		}
		check["cmd"] = "check"
		a.send(check)
		c := a.wait("check", func(m map[string]any) bool { return m["t"] == "check" })
		if c["ok"] != false || c["seq"].(float64) != 7 {
			t.Errorf("check %v: %v", cmd, c)
		}
		a.send(cmd)
		e := a.wait("refusal", func(m map[string]any) bool { return m["t"] == "error" })
		msg := e["message"].(string)
		for _, w := range append(want, "stays where it is") {
			if !strings.Contains(msg, w) {
				t.Errorf("move %v: %q does not say %q", cmd, msg, w)
			}
		}
		if !mm.MatchString(msg) || regexp.MustCompile(`\d\.\d{5}`).MatchString(msg) {
			t.Errorf("move %v: %q does not print millimetres", cmd, msg)
		}
		if c["message"] != msg {
			t.Errorf("the check said %q, the move %q", c["message"], msg)
		}
		after, yaw2 := poseOf(t, v, id)
		if after != before || yaw2 != yaw {
			t.Errorf("move %v refused, yet %s went from %v to %v", cmd, id, before, after)
		}
	}
	refused(map[string]any{"cmd": "move", "id": "fb2", "x": 1.88, "y": 0.5}, `box "wall_east"`, "overlap")
	refused(map[string]any{"cmd": "move", "id": "fb2", "x": -0.95, "y": 1.05}, `box "block"`)
	refused(map[string]any{"cmd": "move", "id": "fb2", "x": 0.05, "y": -1}, `foot-bot "fb1"`)
	refused(map[string]any{"cmd": "move", "id": "fb2", "x": 0.9, "y": 0.9}, `box "crate"`)
	refused(map[string]any{"cmd": "move", "id": "crate", "x": 1.02, "y": -1.05}, `cylinder "can"`)
	refused(map[string]any{"cmd": "move", "id": "fb2", "x": 2.5, "y": 0.5}, "outside the arena")
	refused(map[string]any{"cmd": "move", "id": "fb2", "x": -7.25, "y": 1e-12}, "outside the arena", "(-7.250, 0.000) m")
	// the eye-bot flies over everything
	a.send(map[string]any{"cmd": "move", "id": "eb0", "x": -1, "y": 1})
	// a free place, then a turn where it stands
	a.send(map[string]any{"cmd": "move", "id": "fb2", "x": 0.5, "y": 1.2})
	a.send(map[string]any{"cmd": "move", "id": "fb2", "yaw": math.Pi / 2})
	a.send(map[string]any{"cmd": "check", "id": "fb2", "x": -1.2, "y": 0.3, "seq": 9})
	c := a.wait("check", func(m map[string]any) bool { return m["t"] == "check" && m["seq"].(float64) == 9 })
	if c["ok"] != true {
		t.Errorf("a free place: %v", c)
	}
	p, yaw := poseOf(t, v, "fb2")
	if math.Abs(p.X-0.5) > 1e-9 || math.Abs(p.Y-1.2) > 1e-9 || math.Abs(yaw-math.Pi/2) > 1e-9 {
		t.Errorf("fb2 at %v, yaw %g: want (0.5, 1.2), pi/2", p, yaw)
	}
	if p, _ := poseOf(t, v, "eb0"); math.Hypot(p.X+1, p.Y-1) > 1e-9 {
		t.Errorf("the eye-bot is at %v, want over the block at (-1, 1)", p)
	}
}

// Reset puts robots and objects the viewer moved back where they started,
// with the rest of the run.
func TestResetRestoresMovedBodies(t *testing.T) {
	_, v := start(t, testExperiment(t, "viewer.argos"))
	a := dial(t, v)
	a.wait("frame", isFrame)
	type pose struct {
		p   ci.Vector3
		yaw float64
	}
	ids := []string{"fb0", "fb2", "crate", "ep0"}
	start := map[string]pose{}
	for _, id := range ids {
		p, y := poseOf(t, v, id)
		start[id] = pose{p, y}
	}
	a.send(map[string]any{"cmd": "move", "id": "fb0", "x": -1.3, "y": 0.2, "yaw": 1})
	a.send(map[string]any{"cmd": "step"})
	a.send(map[string]any{"cmd": "move", "id": "crate", "x": 1.4, "y": 0.6})
	a.send(map[string]any{"cmd": "move", "id": "fb2", "x": 0.4, "y": 1.3})
	a.send(map[string]any{"cmd": "step"})
	a.wait("tick 2", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) == 2 })
	if p, _ := poseOf(t, v, "fb0"); math.Hypot(p.X+1.3, p.Y-0.2) > 0.01 {
		t.Fatalf("fb0 was not moved: %v", p)
	}
	a.send(map[string]any{"cmd": "reset"})
	a.wait("tick 0", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) == 0 })
	for _, id := range ids {
		p, y := poseOf(t, v, id)
		if p.Sub(start[id].p).Length() > 1e-9 || math.Abs(y-start[id].yaw) > 1e-9 {
			t.Errorf("after reset %s is at %v yaw %g; it started at %v yaw %g", id, p, y, start[id].p, start[id].yaw)
		}
	}
	// and again: the record survives a reset
	a.send(map[string]any{"cmd": "move", "id": "fb0", "x": -1.3, "y": 0.2})
	a.send(map[string]any{"cmd": "reset"})
	// the move already published a frame at tick 0, so that frame does
	// not say the reset was served
	a.synced("fb2")
	if p, _ := poseOf(t, v, "fb0"); p.Sub(start["fb0"].p).Length() > 1e-9 {
		t.Errorf("after the second reset fb0 is at %v", p)
	}
}

// Ctrl-C (the context ends) ends a run the viewer drives with the
// context's error, as headless runs end: argos exits 130 for both.
func TestInterruptedRunSaysSo(t *testing.T) {
	sim, err := simulator.New(testExperiment(t, "viewer.argos"), simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sim.Execute(ctx) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute returned %v after the interrupt, want context.Canceled", err)
	}
}

// Selecting and deselecting reach the user functions, and so do the keys,
// on the loop goroutine; the keys a browser held are released when it
// leaves; the selected robot drives with the arrows.
func TestSelectionAndKeys(t *testing.T) {
	sim, v := start(t, testExperiment(t, "qtopengl.argos"))
	uf := sim.UserFunctions().(*keysUF)
	a := dial(t, v)
	a.wait("frame", isFrame)
	events := func() (e []string) {
		do(t, v, func(*simulator.Simulator) { e = append(e, uf.events...) })
		return e
	}
	a.send(map[string]any{"cmd": "select", "id": "fb0"})
	a.send(map[string]any{"cmd": "key", "key": "ArrowUp", "down": true})
	for range 10 {
		a.send(map[string]any{"cmd": "step"})
	}
	a.wait("tick 10", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) == 10 })
	p, _ := poseOf(t, v, "fb0")
	if p.X < -0.95 || math.Abs(p.Y) > 0.01 {
		t.Errorf("fb0 held ArrowUp for 1 s at 10 cm/s and is at %v (it started at (-1, 0) heading +x)", p)
	}
	if p1, _ := poseOf(t, v, "fb1"); math.Hypot(p1.X-1, p1.Y-1) > 1e-6 {
		t.Errorf("fb1, not selected, moved to %v", p1)
	}
	a.send(map[string]any{"cmd": "key", "key": "ArrowUp", "down": false})
	a.send(map[string]any{"cmd": "key", "key": "w", "down": true})
	a.send(map[string]any{"cmd": "key", "key": "Enter", "down": true})
	e := a.wait("refused key", func(m map[string]any) bool { return m["t"] == "error" })
	if !strings.Contains(e["message"].(string), "arrows and letters") {
		t.Errorf("Enter: %v", e)
	}
	a.send(map[string]any{"cmd": "select", "id": "fb1"})
	a.send(map[string]any{"cmd": "select", "id": ""})
	want := []string{"select fb0", "press ArrowUp", "release ArrowUp", "press w", "deselect fb0", "select fb1", "deselect fb1"}
	waitEvents := func(want []string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := events()
			if strings.Join(got, ",") == strings.Join(want, ",") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the user functions saw %q, want %q", got, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// the commands are handled before the browser leaves: closing a
	// socket that still holds unread frames resets the connection, and
	// the server may then lose what it had not read yet
	waitEvents(want)
	a.conn.CloseNow() // leaves with w held
	waitEvents(append(want, "release w"))
}

// The user functions' drawing reaches the browser with each frame: the
// disc, fb1's colour, the text over the selected robot.
func TestDrawingReachesTheBrowser(t *testing.T) {
	_, v := start(t, testExperiment(t, "qtopengl.argos"))
	a := dial(t, v)
	sc := a.wait("scene", func(m map[string]any) bool { return m["t"] == "scene" })
	if sc["user_draw"] != true || sc["user_keys"] != true || sc["user_select"] != true {
		t.Errorf("scene: user_draw %v, user_keys %v, user_select %v", sc["user_draw"], sc["user_keys"], sc["user_select"])
	}
	f := a.wait("frame", isFrame)
	st := f["state"].(*web.FrameState)
	if !st.HasDrawing || len(st.Drawing) != 2 {
		t.Fatalf("drawing %+v", st.Drawing)
	}
	if d := st.Drawing[0]; d.Kind != simulator.ItemCircle || !d.Fill || d.Color != (ci.Color{R: 255, B: 255, A: 255}) || math.Abs(d.Radius-0.3) > 1e-6 {
		t.Errorf("disc: %+v", d)
	}
	if d := st.Drawing[1]; d.Kind != simulator.ItemRobotColor || d.Robot != 1 {
		t.Errorf("fb1's colour: %+v", d)
	}
	a.send(map[string]any{"cmd": "select", "id": "fb0"})
	f = a.wait("frame with the text", func(m map[string]any) bool {
		return isFrame(m) && len(m["state"].(*web.FrameState).Drawing) == 3
	})
	if d := f["state"].(*web.FrameState).Drawing[2]; d.Kind != simulator.ItemRobotText || d.Robot != 0 || d.Text != "driving fb0" {
		t.Errorf("text: %+v", d)
	}
}

// Without user functions frames carry no drawing, and the simulator is
// not asked for one.
func TestNoUserFunctionsNoDrawing(t *testing.T) {
	_, v := start(t, diffusion10(t))
	a := dial(t, v)
	sc := a.wait("scene", func(m map[string]any) bool { return m["t"] == "scene" })
	if sc["user_draw"] != false || sc["user_keys"] != false {
		t.Errorf("scene without user functions: %v %v", sc["user_draw"], sc["user_keys"])
	}
	f := a.wait("frame", isFrame)
	if st := f["state"].(*web.FrameState); st.HasDrawing || st.Drawing != nil {
		t.Errorf("a drawing without user functions: %+v", st.Drawing)
	}
}

// The inspector shows wheels for wheeled robots only, and a gripper that
// holds nothing says so without an id.
func TestInspectorFitsTheRobot(t *testing.T) {
	_, v := start(t, testExperiment(t, "viewer.argos"))
	a := dial(t, v)
	a.wait("frame", isFrame)
	for _, c := range []struct {
		id     string
		wheels bool
	}{{"eb0", false}, {"fb0", true}, {"ep0", true}} {
		a.send(map[string]any{"cmd": "select", "id": c.id})
		in := a.wait("inspect "+c.id, func(m map[string]any) bool { return m["t"] == "inspect" && m["id"] == c.id })
		if _, has := in["wheels_m_s"]; has != c.wheels {
			t.Errorf("%s: wheels shown: %v, want %v (%v)", c.id, has, c.wheels, in)
		}
		if c.id == "fb0" {
			found := false
			for _, d := range in["devices"].([]any) {
				d := d.(map[string]any)
				if d["tag"] == "footbot_gripper" {
					found = true
					if g := d["value"].(map[string]any); g["held"] != "" || g["locked"] != false {
						t.Errorf("an idle gripper: %v", g)
					}
				}
			}
			if !found {
				t.Errorf("fb0 shows no gripper: %v", in)
			}
		}
	}
}
