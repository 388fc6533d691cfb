package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// Drive implements simulator.Driver: it runs the simulator as the
// browsers ask (play, pause, step, reset, speed, move) until ctx is done.
// It returns the error that stopped the run, if any (a controller that
// panicked): the viewer keeps showing it until then.
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
						return ls.runErr
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
			return ls.runErr
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
		if err := sim.Reset(); err != nil {
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
			c.c.selected = c.ID
		}
	case "overlay":
		if c.c != nil {
			c.c.rays, c.c.rab = c.Rays, c.RAB
		}
	case "move":
		h, ok := sim.Body(c.ID)
		if !ok {
			c.reply(fmt.Sprintf("no entity %q to move", c.ID))
			break
		}
		b := &sim.Space().Bodies[h]
		yaw := b.Yaw
		if c.Yaw != nil {
			yaw = *c.Yaw
		}
		if math.IsNaN(c.X+c.Y+yaw) || math.IsInf(c.X+c.Y+yaw, 0) {
			c.reply("move: the position must be finite")
			break
		}
		if err := sim.MoveBody(h, ci.Vector3{X: c.X, Y: c.Y, Z: b.Z}, yaw); err != nil {
			c.reply(err.Error())
		}
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
			case "hello", "select", "overlay", "do":
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
