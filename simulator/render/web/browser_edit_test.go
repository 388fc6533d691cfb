package web_test

import (
	"context"
	"fmt"
	"image"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// rgbAt returns the colour of a screenshot's pixel at page coordinates.
func rgbAt(img image.Image, x, y float64) (r, g, b int) {
	c := img.At(int(math.Round(x)), int(math.Round(y)))
	R, G, B, _ := c.RGBA()
	return int(R >> 8), int(G >> 8), int(B >> 8)
}

func near(r, g, b int, want [3]int, tol int) bool {
	return abs(r-want[0]) <= tol && abs(g-want[1]) <= tol && abs(b-want[2]) <= tol
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// key presses (down) or releases a key in the page, as a keyboard does.
func key(k string, code int64, down bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		typ := input.DispatchKeyEventTypeKeyDown
		if !down {
			typ = input.DispatchKeyEventTypeKeyUp
		}
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, input.DispatchKeyEventParams{
			Type: typ, Key: k, Code: k, WindowsVirtualKeyCode: code, NativeVirtualKeyCode: code})
		return err
	})
}

// drag drags with the mouse from one point of the arena to another in the
// top view, and waits until the page let go.
func (p *page) drag(what string, fromX, fromY, toX, toY float64) {
	p.t.Helper()
	fx, fy := p.at(fromX, fromY)
	tx, ty := p.at(toX, toY)
	p.run(what, chromedp.DragAndDropXY(fx, fy, tx, ty, 12))
	p.poll(what+" ends", `!argosViewer.state.drag`)
}

// A file written for ARGoS's qt-opengl opens in the viewer: in 3D from its
// first camera, the others a click away; what the user functions draw is
// on the screen, in 3D and from above; a robot clicked and driven with the
// arrow keys moves, as with ARGoS's manual control.
func TestBrowserQtOpenGLFile(t *testing.T) {
	sim, v := start(t, testExperiment(t, "qtopengl.argos"))
	uf := sim.UserFunctions().(*keysUF)
	p := openPage(t, v, "web_qtopengl")

	// 3D, from camera 0: 13 m above the centre
	p.poll("the 3D view from camera 0", `!document.getElementById("gl").hidden && argosViewer.camera().index === 0 && argosViewer.glReady()`)
	eye := func() string { return p.str(`argosViewer.camera().eye.map(x => x.toFixed(3)).join(",")`) }
	if e := eye(); e != "0.000,0.000,13.000" {
		t.Errorf("camera 0 is at %s", e)
	}
	if f := p.eval(`argosViewer.camera().fovy`); math.Abs(f-23.46) > 0.01 {
		t.Errorf("camera 0's field of view is %.2f degrees, want 23.46 (65 mm)", f)
	}
	if n := p.eval(`document.querySelectorAll("#cams button").length`); n != 2 {
		t.Fatalf("%v camera buttons, want 2", n)
	}
	// the drawing: a magenta disc at (0.5, -1), drawn unlit in 3D
	time.Sleep(300 * time.Millisecond)
	img := p.screenshot("web_qtopengl_camera0.png")
	x, y := p.eval(`argosViewer.worldToPage(0.5, -1, 0.012).x`), p.eval(`argosViewer.worldToPage(0.5, -1, 0.012).y`)
	if r, g, b := rgbAt(img, x, y); !near(r, g, b, [3]int{255, 0, 255}, 8) {
		t.Errorf("3D, camera 0: the user functions' disc at (%.0f, %.0f) is (%d, %d, %d), want magenta", x, y, r, g, b)
	}
	p.run("camera 2", chromedp.Click(chromedp.CSS("#cam-1")))
	p.poll("camera 2", `argosViewer.camera().index === 1`)
	if e := eye(); e != "-4.599,0.000,4.599" {
		t.Errorf("camera 1 is at %s", e)
	}
	time.Sleep(300 * time.Millisecond)
	p.screenshot("web_qtopengl_camera1.png")

	// from above
	p.run("top view", chromedp.Click(chromedp.CSS("#view-top")))
	time.Sleep(300 * time.Millisecond)
	img = p.screenshot("web_qtopengl_top.png")
	x, y = p.at(0.5, -1)
	if r, g, b := rgbAt(img, x, y); !near(r, g, b, [3]int{255, 0, 255}, 8) {
		t.Errorf("top view: the disc at (%.0f, %.0f) is (%d, %d, %d), want magenta", x, y, r, g, b)
	}
	x, y = p.at(1-0.04, 1) // fb1's body, behind its centre
	if r, g, b := rgbAt(img, x, y); !near(r, g, b, [3]int{255, 140, 0}, 8) {
		t.Errorf("top view: fb1, painted orange by the user functions, is (%d, %d, %d)", r, g, b)
	}

	// select fb0, play, hold the up arrow: it drives forward, and stops
	// when the key is released
	x, y = p.at(-1, 0)
	p.run("click fb0", chromedp.MouseClickXY(x, y))
	p.poll("fb0 selected", `document.querySelector("#inspect h3") && document.querySelector("#inspect h3").textContent.startsWith("fb0")`)
	p.poll("the text over fb0", `(argosViewer.state.F.drawing || []).some(it => it.kind === 6 && it.text === "driving fb0")`)
	p.run("play", chromedp.Click(chromedp.CSS("#play")))
	p.poll("playing", `argosViewer.state.F.playing`)
	p.run("hold the up arrow", key("ArrowUp", 38, true))
	time.Sleep(1500 * time.Millisecond)
	p.run("release the up arrow", key("ArrowUp", 38, false))
	time.Sleep(300 * time.Millisecond)
	p0, _ := poseOf(t, v, "fb0")
	time.Sleep(500 * time.Millisecond)
	p1, _ := poseOf(t, v, "fb0")
	if p0.X < -0.95 || math.Abs(p0.Y) > 0.02 {
		t.Errorf("fb0 drove to %v; it started at (-1, 0) facing +x", p0)
	}
	if p1.Sub(p0).Length() > 1e-3 {
		t.Errorf("fb0 kept moving after the key was released: %v then %v", p0, p1)
	}
	var events []string
	do(t, v, func(*simulator.Simulator) { events = append(events, uf.events...) })
	if got := strings.Join(events, ","); got != "select fb0,press ArrowUp,release ArrowUp" {
		t.Errorf("the user functions saw %q", got)
	}
	// the letters too, but not while a field has the focus
	p.run("focus the robot list", chromedp.Focus(chromedp.CSS("#robot-select")))
	p.run("w in the list", key("w", 87, true), key("w", 87, false))
	p.run("click the floor", chromedp.MouseClickXY(p.at(-1.5, -1.5)))
	p.run("w on the page", key("w", 87, true), key("w", 87, false))
	time.Sleep(300 * time.Millisecond)
	events = nil
	do(t, v, func(*simulator.Simulator) { events = append(events, uf.events...) })
	if got := strings.Join(events[3:], ","); got != "deselect fb0,press w,release w" {
		t.Errorf("after the keys of the list and of the page the user functions saw %q", got)
	}
}

// The defects of the viewer found in a real browser (issue 13), each
// fixed: drops onto walls, boxes and robots and out of the arena are
// refused with a message in millimetres, and the robot stays; Reset
// brings back a dragged robot; the panel of a moved object follows it;
// an eye-bot has no wheels, an idle gripper holds "nothing"; a robot is
// turned with the mouse.
func TestBrowserEditing(t *testing.T) {
	_, v := start(t, testExperiment(t, "viewer.argos"))
	p := openPage(t, v, "web_editing")
	p.poll("the robots are drawn", `argosViewer.robotsDrawn() === 5`)
	toast := func() string { return p.str(`document.getElementById("toast").textContent`) }
	fb2, yaw2 := poseOf(t, v, "fb2")
	refused := func(what string, x, y float64, want string) {
		t.Helper()
		p.run("clear the message", chromedp.Evaluate[chromedp.Void](`document.getElementById("toast").textContent = ""`))
		p.drag("drop fb2 "+what, fb2.X, fb2.Y, x, y)
		p.poll("the refusal of "+what, `document.getElementById("toast").textContent.includes("stays where it is")`)
		msg := toast()
		if !strings.Contains(msg, want) {
			t.Errorf("drop %s: %q does not say %q", what, msg, want)
		}
		if !mm.MatchString(msg) || regexp.MustCompile(`\d\.\d{5}`).MatchString(msg) {
			t.Errorf("drop %s: %q does not print millimetres", what, msg)
		}
		p.poll("the page shows fb2 back", fmt.Sprintf(`Math.hypot(argosViewer.pose("fb2")[0] - %g, argosViewer.pose("fb2")[1] - %g) < 0.002`, fb2.X, fb2.Y))
		if now, yaw := poseOf(t, v, "fb2"); now != fb2 || yaw != yaw2 {
			t.Errorf("drop %s refused, yet fb2 went from %v to %v", what, fb2, now)
		}
	}
	refused("on the east wall", 1.88, 0.5, `box "wall_east"`)
	refused("on the block", -1, 1, `box "block"`)
	refused("on fb1", 0.03, -1, `foot-bot "fb1"`)
	refused("on the crate", 1, 1, `box "crate"`)
	refused("out of the arena", 2.6, 0.5, "outside the arena")

	// drag fb0 at tick 0, step, reset: it is back at its start
	fb0, yaw0 := poseOf(t, v, "fb0")
	p.drag("drag fb0", fb0.X, fb0.Y, -1.3, 0.3)
	deadline := time.Now().Add(10 * time.Second)
	for q, _ := poseOf(t, v, "fb0"); math.Hypot(q.X+1.3, q.Y-0.3) > 0.02; q, _ = poseOf(t, v, "fb0") {
		if time.Now().After(deadline) {
			p.fail("fb0 was not dropped at (-1.3, 0.3): it is at %v", q)
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.run("step", chromedp.Click(chromedp.CSS("#step")))
	p.poll("tick 1", `argosViewer.state.F.tick === 1`)
	p.run("reset", chromedp.Click(chromedp.CSS("#reset")))
	p.poll("tick 0", `argosViewer.state.F.tick === 0`)
	if q, yaw := poseOf(t, v, "fb0"); q != fb0 || yaw != yaw0 {
		t.Errorf("after Reset fb0 is at %v yaw %g; it started at %v yaw %g", q, yaw, fb0, yaw0)
	}

	// the crate's panel follows it when it is dragged
	p.run("click the crate", chromedp.MouseClickXY(p.at(1, 1)))
	p.poll("the crate's panel", `document.querySelector("#inspect h3").textContent.startsWith("crate") && document.querySelector("#inspect table").textContent.includes("1.000, 1.000")`)
	p.drag("drag the crate", 1, 1, 1.4, 0.6)
	deadline = time.Now().Add(10 * time.Second)
	crate, _ := poseOf(t, v, "crate")
	for ; math.Hypot(crate.X-1.4, crate.Y-0.6) > 0.02; crate, _ = poseOf(t, v, "crate") {
		if time.Now().After(deadline) {
			p.fail("the crate was not dropped at (1.4, 0.6): it is at %v", crate)
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.poll("the panel shows where the crate went", fmt.Sprintf(`(() => {
		const m = document.querySelector("#inspect table").textContent.match(/(-?[0-9.]+), (-?[0-9.]+), /);
		return !!m && Math.abs(m[1] - %g) < 0.002 && Math.abs(m[2] - %g) < 0.002; })()`, crate.X, crate.Y))

	// panels: no wheels on an eye-bot; an idle gripper holds nothing
	p.run("select eb0", chromedp.SetValue(chromedp.CSS("#robot-select"), "eb0"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("robot-select").dispatchEvent(new Event("change"))`))
	p.poll("eb0's panel", `!!document.querySelector("#inspect [data-tag=quadrotor_position]")`)
	if s := p.text("#inspect"); strings.Contains(s, "wheels") {
		t.Errorf("the eye-bot's panel shows wheels: %q", s)
	}
	p.run("click fb0", chromedp.MouseClickXY(p.at(fb0.X, fb0.Y)))
	p.poll("fb0's gripper", `!!document.querySelector("#inspect [data-tag=footbot_gripper] table")`)
	g := p.text(`#inspect [data-tag="footbot_gripper"] table`)
	if !regexp.MustCompile(`held\s*nothing`).MatchString(g) {
		t.Errorf("an idle gripper shows %q, want held: nothing", g)
	}
	if s := p.text("#inspect"); !strings.Contains(s, "wheels") {
		t.Errorf("the foot-bot's panel shows no wheels: %q", s)
	}

	// turn fb0 with the mouse: its handle, dragged to the north, heads it north
	hx, hy := p.eval(`argosViewer.handle()[0]`), p.eval(`argosViewer.handle()[1]`)
	p.drag("turn fb0", hx, hy, fb0.X, fb0.Y+0.4)
	deadline = time.Now().Add(10 * time.Second)
	for {
		q, yaw := poseOf(t, v, "fb0")
		if math.Abs(yaw-math.Pi/2) < ci.Radians(2) && q == fb0 {
			break
		}
		if time.Now().After(deadline) {
			p.fail("after turning fb0 it is at %v heading %.1f degrees, want %v heading 90", q, ci.Degrees(yaw), fb0)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// and shift-drag turns it too
	p.run("shift-drag fb0", chromedp.MouseEvent(chromedp.MousePressed, p.eval(`argosViewer.worldToPage(`+ftoa(fb0.X)+`,`+ftoa(fb0.Y)+`).x`),
		p.eval(`argosViewer.worldToPage(`+ftoa(fb0.X)+`,`+ftoa(fb0.Y)+`).y`), chromedp.ButtonLeft, chromedp.ButtonModifiers(chromedp.ModifierShift)))
	tx, ty := p.at(fb0.X-0.4, fb0.Y)
	p.run("shift-drag fb0 west", chromedp.MouseEvent(chromedp.MouseMoved, tx, ty, chromedp.ButtonLeft, chromedp.ButtonModifiers(chromedp.ModifierShift)),
		chromedp.MouseEvent(chromedp.MouseReleased, tx, ty, chromedp.ButtonLeft, chromedp.ButtonModifiers(chromedp.ModifierShift)))
	deadline = time.Now().Add(10 * time.Second)
	for {
		_, yaw := poseOf(t, v, "fb0")
		if math.Abs(math.Abs(yaw)-math.Pi) < ci.Radians(2) {
			break
		}
		if time.Now().After(deadline) {
			p.fail("after a shift-drag fb0 heads %.1f degrees, want 180", ci.Degrees(yaw))
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.screenshot("web_editing.png")
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// What the viewer looks like: LEDs that are off are pale lenses, not black
// dots, and lit ones show their colour; ids are drawn in 3D; the floor
// grid follows the arena's size; a light stays visible however far the
// view; a flying eye-bot casts a shadow on the floor.
func TestBrowserLooks(t *testing.T) {
	sim, v := start(t, testExperiment(t, "viewer.argos"))
	p := openPage(t, v, "web_looks")
	p.poll("the robots are drawn", `argosViewer.robotsDrawn() === 5`)
	if s := p.eval(`argosViewer.gridStep()`); s > 1 {
		t.Errorf("the grid of a 4 m arena is %g m", s)
	}
	// fb1 (heading north): its first LED at 15 degrees is off, its fourth
	// (105 degrees) is lit red
	do(t, v, func(s *simulator.Simulator) {
		for i := 0; i < s.NumRobots(); i++ {
			if s.Robot(i).ID != "fb1" {
				continue
			}
			for _, d := range s.RobotDevices(i) {
				if l, ok := d.Impl.(ci.LEDs); ok {
					l.SetSingleColor(3, ci.Color{R: 255, A: 255})
				}
			}
		}
	})
	p.run("step", chromedp.Click(chromedp.CSS("#step")))
	p.poll("the red LED", `(argosViewer.state.F.leds[1] || [])[3] === 0xff0000`)
	fb1, _ := poseOf(t, v, "fb1")
	p.run("zoom on fb1", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`argosViewer.center(%g, %g, 2000)`, fb1.X, fb1.Y)))
	time.Sleep(200 * time.Millisecond)
	img := p.screenshot("web_looks_top.png")
	led := func(k int) (float64, float64) {
		a := math.Pi/2 + math.Pi/12 + float64(k)*math.Pi/6
		rr := math.Min(0.09, 0.085*0.95) * 0.8
		return p.at(fb1.X+rr*math.Cos(a), fb1.Y+rr*math.Sin(a))
	}
	lx, ly := led(0)
	if r, g, b := rgbAt(img, lx, ly); r < 150 || g < 150 || b < 150 {
		t.Errorf("an LED that is off is (%d, %d, %d): dark", r, g, b)
	}
	lx, ly = led(3)
	if r, g, b := rgbAt(img, lx, ly); !near(r, g, b, [3]int{255, 0, 0}, 30) {
		t.Errorf("the lit LED is (%d, %d, %d), want red", r, g, b)
	}
	// fb0's LEDs were never lit: they show all the same, as pale lenses
	fb0, _ := poseOf(t, v, "fb0")
	p.run("zoom on fb0", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`argosViewer.center(%g, %g, 2000)`, fb0.X, fb0.Y)))
	time.Sleep(200 * time.Millisecond)
	img = p.screenshot("web_looks_fb0.png")
	for k := range 12 {
		a := math.Pi/12 + float64(k)*math.Pi/6
		rr := math.Min(0.09, 0.085*0.95) * 0.8
		lx, ly = p.at(fb0.X+rr*math.Cos(a), fb0.Y+rr*math.Sin(a))
		if r, g, b := rgbAt(img, lx, ly); !near(r, g, b, [3]int{0xd4, 0xd8, 0xdd}, 12) {
			t.Errorf("fb0's LED %d, never lit, is (%d, %d, %d), want a pale lens", k, r, g, b)
		}
	}
	// lights at any zoom: from far above, the lamp is still yellow
	p.run("zoom out", chromedp.Evaluate[chromedp.Void](`argosViewer.center(0, 0, 2)`))
	time.Sleep(200 * time.Millisecond)
	img = p.screenshot("web_looks_far.png")
	lx, ly = p.at(-1.5, 1.5)
	if r, g, b := rgbAt(img, lx, ly); !near(r, g, b, [3]int{255, 255, 0}, 40) {
		t.Errorf("zoomed out, the light is (%d, %d, %d)", r, g, b)
	}

	// 3D: ids, the eye-bot's shadow, the light from afar
	p.run("3D near", chromedp.Evaluate[chromedp.Void](`argosViewer.look([1.2, -2.2, 1.6], [0, -0.3, 0.1], 45)`))
	time.Sleep(300 * time.Millisecond)
	p.poll("ids in 3D", `argosViewer.labels3D() === 4`) // eb0's is above the view
	img = p.screenshot("web_looks_3d.png")
	eb, _ := poseOf(t, v, "eb0")
	if eb.Z < 0.5 {
		t.Fatalf("the eye-bot is at %v: it should hang 1 m up", eb)
	}
	sx, sy := p.eval(`argosViewer.worldToPage(1.12, 0, 0.001).x`), p.eval(`argosViewer.worldToPage(1.12, 0, 0.001).y`)
	if r, g, b := rgbAt(img, sx, sy); r > 200 || abs(r-g) > 12 || abs(g-b) > 12 {
		t.Errorf("the floor under the eye-bot is (%d, %d, %d), want its grey shadow", r, g, b)
	}
	p.run("3D far", chromedp.Evaluate[chromedp.Void](`argosViewer.look([-1.5, -60, 40], [-1.5, 1.5, 0.5], 45)`))
	time.Sleep(300 * time.Millisecond)
	img = p.screenshot("web_looks_3d_far.png")
	lx, ly = p.eval(`argosViewer.worldToPage(-1.5, 1.5, 0.5).x`), p.eval(`argosViewer.worldToPage(-1.5, 1.5, 0.5).y`)
	if r, g, b := rgbAt(img, lx, ly); !near(r, g, b, [3]int{255, 255, 0}, 40) {
		t.Errorf("from 70 m the light is (%d, %d, %d)", r, g, b)
	}
	_ = sim
}
