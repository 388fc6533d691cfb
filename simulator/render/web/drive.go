package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// Drive implements simulator.Driver: it runs the simulator as the
// browsers ask (play, pause, step, reset, speed, move) until ctx is done.
// It returns the error that stopped the run, if any (a controller that
// panicked), which the viewer keeps showing until then, or else ctx's
// error, as Simulator.Run does: a run ended by Ctrl-C says so.
func (v *Viewer) Drive(ctx context.Context, sim *simulator.Simulator) error {
	v.driving.Store(true)
	defer v.driving.Store(false)
	ls := &v.loop
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	next := time.Now()
	v.publish(sim, true)
	for {
		if ls.playing && (sim.Finished() || ls.runErr != nil) {
			ls.playing = false
			v.publish(sim, true)
		}
		var wake <-chan time.Time
		if ls.playing {
			now := time.Now()
			if wait := next.Sub(now); wait > 0 {
				timer.Reset(wait)
				wake = timer.C
			} else {
				// take the commands that are waiting, then step
				for more := true; more; {
					select {
					case c := <-v.cmds:
						v.handle(sim, c)
					case <-ctx.Done():
						return v.stopped(ctx)
					default:
						more = false
					}
				}
				if !ls.playing {
					continue
				}
				v.step(sim)
				if ls.speed > 0 {
					d := time.Duration(float64(time.Second) * sim.TickLength() / ls.speed)
					// never run ahead to catch up more than one tick
					next = maxTime(next, now.Add(-d)).Add(d)
				}
				continue
			}
		}
		select {
		case <-ctx.Done():
			return v.stopped(ctx)
		case c := <-v.cmds:
			v.handle(sim, c)
		case <-wake:
		}
		if wake != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// stopped is what Drive returns when ctx ends it.
func (v *Viewer) stopped(ctx context.Context) error {
	if v.loop.runErr != nil {
		return v.loop.runErr
	}
	return ctx.Err()
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// step runs one tick; an error stops the run and is shown.
func (v *Viewer) step(sim *simulator.Simulator) {
	ls := &v.loop
	if ls.runErr != nil || sim.Finished() {
		return
	}
	if err := sim.Step(); err != nil {
		ls.runErr = err
		ls.playing = false
		sim.Logger().Errorf("web viewer: the run stopped: %v", err)
		v.publish(sim, true)
	}
}

// handle carries out a command on the loop goroutine.
func (v *Viewer) handle(sim *simulator.Simulator, c command) {
	ls := &v.loop
	ls.notice = ""
	switch c.Cmd {
	case "do":
		c.fn(sim)
		close(c.done)
		return
	case "hello":
	case "play":
		switch {
		case ls.runErr != nil:
			c.reply("the run stopped on an error; reset to start again")
		case sim.Finished():
			c.reply("the experiment is over; reset to run it again")
		default:
			ls.playing = true
		}
	case "pause":
		ls.playing = false
	case "step":
		ls.playing = false
		if sim.Finished() {
			c.reply("the experiment is over; reset to run it again")
		}
		v.step(sim)
	case "reset":
		ls.playing = false
		ls.runErr = nil
		if err := v.reset(sim); err != nil {
			ls.runErr = err
		}
		ls.sig, ls.floor = sceneSig{}, nil // resend the scene with the floor as it is now
	case "speed":
		if c.Value < 0 || math.IsNaN(c.Value) || c.Value > 1e6 {
			c.reply("speed must be 0 (as fast as possible) or a positive factor of real time")
			return
		}
		ls.speed = c.Value
	case "select":
		if c.c != nil {
			c.c.selected = ""
			if isRobot(sim, c.ID) {
				c.c.selected = c.ID // its panel follows the run
			}
		}
		if c.ID == "" {
			sim.SelectEntity("")
		} else if _, ok := sim.Body(c.ID); ok {
			sim.SelectEntity(c.ID)
		}
	case "key":
		if !validKey(c.Key) {
			c.reply(fmt.Sprintf("key %q: the viewer passes arrows and letters only", c.Key))
			return
		}
		if c.c != nil {
			if c.Down {
				if c.c.keys == nil {
					c.c.keys = map[string]bool{}
				}
				c.c.keys[c.Key] = true
			} else {
				delete(c.c.keys, c.Key)
			}
		}
		sim.PressKey(simulator.Key(c.Key), c.Down)
	case "bye":
		// a browser left: release what it held
		if c.c != nil {
			for k := range c.c.keys {
				sim.PressKey(simulator.Key(k), false)
			}
			c.c.keys = nil
		}
		return
	case "overlay":
		if c.c != nil {
			c.c.rays, c.c.rab = c.Rays, c.RAB
		}
	case "check":
		// where a drag would drop: answered, nothing changes
		h, pos, yaw, err := v.target(sim, c)
		if err == nil {
			err = v.fits(sim, h, pos, yaw)
		}
		if c.c != nil {
			m := map[string]any{"t": "check", "id": c.ID, "seq": c.Seq, "ok": err == nil}
			if err != nil {
				m["message"] = err.Error()
			}
			b, _ := json.Marshal(m)
			c.c.offer(slotCheck, b)
		}
		return
	case "move":
		h, pos, yaw, err := v.target(sim, c)
		if err == nil {
			err = v.fits(sim, h, pos, yaw)
		}
		if err == nil {
			if err = sim.MoveBody(h, pos, yaw); err != nil {
				b := &sim.Space().Bodies[h]
				err = fmt.Errorf("%s %q cannot go to %s: %v; it stays where it is", b.Type, b.ID, at(pos), err)
			}
		}
		if err != nil {
			c.reply(err.Error())
			break
		}
		ls.moved[h] = true
	default:
		c.reply(fmt.Sprintf("unknown command %q", c.Cmd))
		return
	}
	v.publish(sim, true)
}

// drainReadOnly serves the commands that need no driver (a run that a
// program steps itself): the others are refused.
func (v *Viewer) drainReadOnly(sim *simulator.Simulator) {
	for {
		select {
		case c := <-v.cmds:
			switch c.Cmd {
			case "hello", "select", "overlay", "do", "key", "bye", "check":
				v.handle(sim, c)
			default:
				c.reply("this run is not driven by the viewer: it can only be watched")
			}
		default:
			return
		}
	}
}

// reply sends an error message to the browser that sent the command.
func (c command) reply(msg string) {
	if c.c == nil {
		return
	}
	b, _ := json.Marshal(map[string]string{"t": "error", "message": msg})
	c.c.enqueue(b)
}

// validKey reports whether a browser's key may reach the user functions:
// the arrows and single letters.
func validKey(k string) bool {
	switch simulator.Key(k) {
	case simulator.KeyUp, simulator.KeyDown, simulator.KeyLeft, simulator.KeyRight:
		return true
	}
	if utf8.RuneCountInString(k) != 1 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(k)
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// at formats a position for messages, to the millimetre.
func at(p ci.Vector3) string { return fmt.Sprintf("(%.3f, %.3f) m", p.X, p.Y) }

// target is the body a move or check names and the pose it asks for: the
// body's own position or heading where the command leaves them out.
func (v *Viewer) target(sim *simulator.Simulator, c command) (int, ci.Vector3, float64, error) {
	h, ok := sim.Body(c.ID)
	if !ok {
		return -1, ci.Vector3{}, 0, fmt.Errorf("no entity %q to move", c.ID)
	}
	b := &sim.Space().Bodies[h]
	pos := ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
	yaw := b.Yaw
	if c.X != nil {
		pos.X = *c.X
	}
	if c.Y != nil {
		pos.Y = *c.Y
	}
	if c.Yaw != nil {
		yaw = ci.NormalizeAngle(*c.Yaw)
	}
	if !finite(pos.X, pos.Y, yaw) {
		return -1, ci.Vector3{}, 0, fmt.Errorf("%s %q: the position and heading must be finite numbers", b.Type, b.ID)
	}
	if !b.Movable {
		return -1, ci.Vector3{}, 0, fmt.Errorf("%s %q is static and cannot be moved; declare it movable=\"true\"", b.Type, b.ID)
	}
	return h, pos, yaw, nil
}

// overlapTolerance is how far a dropped body may reach into another: the
// contacts of the physics engines leave bodies that touch a little inside
// each other, and turning a robot in place against a wall must stay
// possible.
const overlapTolerance = 5e-4

// fits refuses a pose where body h would lie outside the arena or
// overlap another body, as ARGoS refuses such a move; the error says why.
func (v *Viewer) fits(sim *simulator.Simulator, h int, pos ci.Vector3, yaw float64) error {
	sp := sim.Space()
	b := &sp.Bodies[h]
	lo, hi := sp.Bounds()
	if pos.X < lo.X || pos.X > hi.X || pos.Y < lo.Y || pos.Y > hi.Y {
		return fmt.Errorf("%s %q cannot go to %s: outside the arena, which spans (%.3f, %.3f) to (%.3f, %.3f) m; it stays where it is",
			b.Type, b.ID, at(pos), lo.X, lo.Y, hi.X, hi.Y)
	}
	moved := *b
	moved.Pos, moved.Z = pos.XY(), pos.Z
	moved.SetYaw(yaw)
	held := heldBy(sim, h)
	r := ci.Vector2{X: b.Radius, Y: b.Radius}
	other := -1
	sp.Near(moved.Pos.Sub(r), moved.Pos.Add(r), func(j int) bool {
		o := &sp.Bodies[j]
		if j == h || o.Removed || held[j] || o.Z >= moved.Top() || moved.Z >= o.Top() {
			return true
		}
		if space.Gap(&moved, o) < -overlapTolerance {
			other = j
			return false
		}
		return true
	})
	if other >= 0 {
		o := &sp.Bodies[other]
		return fmt.Errorf("%s %q cannot go to %s: it would overlap %s %q; it stays where it is", b.Type, b.ID, at(pos), o.Type, o.ID)
	}
	return nil
}

// heldBy returns the bodies gripped by, or gripping, body h: a robot
// turned with the object in its gripper does not collide with it.
func heldBy(sim *simulator.Simulator, h int) map[int]bool {
	var out map[int]bool
	for _, e := range sim.Engines() {
		g, ok := e.(physics.Gripping)
		if !ok {
			continue
		}
		if j := g.Gripped(h); j >= 0 {
			if out == nil {
				out = map[int]bool{}
			}
			out[j] = true
		}
	}
	return out
}

// reset brings the run back to its start. Engines restore the bodies
// they owned from the start; a body the viewer moved changed engine (or
// was taken out and put back), so the viewer puts it back first.
func (v *Viewer) reset(sim *simulator.Simulator) error {
	ls := &v.loop
	var errs []error
	for h := range ls.moved {
		st, ok := ls.start[h]
		if !ok || h >= len(sim.Space().Bodies) || sim.Space().Bodies[h].Removed {
			continue
		}
		if err := sim.MoveBody(h, st.pos, st.yaw); err != nil {
			errs = append(errs, err)
		}
	}
	clear(ls.moved)
	errs = append(errs, sim.Reset())
	return errors.Join(errs...)
}

// isRobot reports whether id names a robot of the run.
func isRobot(sim *simulator.Simulator, id string) bool {
	for i := 0; i < sim.NumRobots(); i++ {
		if sim.Robot(i).ID == id {
			return true
		}
	}
	return false
}
