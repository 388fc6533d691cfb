package dynamics2d_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// pinnedScene is the hash, bit for bit, of every body's pose and velocity
// after every tick of gripScene, as the engine computed it when the
// constants were pinned (before the drives were solved as one cp
// constraint), as the engine chooses and with every body forced through
// cp. An optimisation that changes any result, in the order cp solves
// contacts, drives and grips or in the free integrator, changes it.
var pinnedScene = map[bool]uint64{
	false: 0x9e73dbdb71c6180c,
	true:  0xe2142c485f308bee,
}

// TestPinnedScene runs gripScene and compares its hash with pinnedScene.
func TestPinnedScene(t *testing.T) {
	for _, forceCP := range []bool{false, true} {
		t.Run(fmt.Sprintf("forceCP=%v", forceCP), func(t *testing.T) {
			h := gripScene(t, forceCP)
			if h != pinnedScene[forceCP] {
				t.Errorf("scene hash %#x, pinned %#x: the engine's results changed", h, pinnedScene[forceCP])
			}
		})
	}
}

// gripScene is a walled pen with a crowd of e-pucks, three foot-bots
// gripping cylinders and dragging them through the crowd, two movable
// boxes; grips are released and made again, and bodies leave the engine
// and come back, as migration does. It returns the hash of every body's
// state after every tick.
func gripScene(t *testing.T, forceCP bool) uint64 {
	w := newWorld(t, 6, "")
	dynamics2d.ForceCP(w.eng, forceCP)
	for k, wall := range [4][4]float64{{0, 2.5, 2.5, 0.05}, {0, -2.5, 2.5, 0.05}, {2.5, 0, 0.05, 2.5}, {-2.5, 0, 0.05, 2.5}} {
		w.box(fmt.Sprint("wall", k), wall[0], wall[1], wall[2], wall[3], 0, 0)
	}
	var all, pucks []int
	for k := range 36 {
		x, y := -1.2+0.16*float64(k%6), -0.6+0.16*float64(k/6)
		i := w.add(ePuck, fmt.Sprint("ep", k), x, y, float64(k)*0.7)
		pucks = append(pucks, i)
		all = append(all, i)
	}
	const r = 0.05
	var bots, preys []int
	for k := range 3 {
		y := -0.5 + 0.4*float64(k)
		fb := w.add(footBot, fmt.Sprint("fb", k), 0, y, math.Pi)
		prey := w.cylinder(fmt.Sprint("prey", k), -footBot.Radius-0.005-r, y, r, 0.5)
		bots, preys = append(bots, fb), append(preys, prey)
		all = append(all, fb, prey)
	}
	all = append(all, w.box("crate0", 0.3, 0.2, 0.1, 0.07, 0.3, 1), w.box("crate1", -0.2, 1.4, 0.12, 0.12, 0, 2))
	w.sp.Reindex()
	grip := func(k int) {
		fb := bots[k]
		a := w.body(fb).Pos.Add(ci.Vector2{X: math.Cos(w.body(fb).Yaw), Y: math.Sin(w.body(fb).Yaw)}.Scale(footBot.Radius + 0.0025))
		if err := w.eng.Grip(fb, preys[k], a); err != nil {
			t.Fatal(err)
		}
	}
	h := fnv.New64a()
	var buf [8]byte
	put := func(f float64) {
		u := math.Float64bits(f)
		for k := range buf {
			buf[k] = byte(u >> (8 * k))
		}
		h.Write(buf[:])
	}
	for tk := 1; tk <= 160; tk++ {
		switch tk {
		case 2:
			for k := range bots {
				grip(k)
				w.wheels(bots[k], 9+float64(k), 7, footBotAxle)
			}
		case 60:
			w.eng.Release(bots[1])
			w.wheels(bots[1], -6, -8, footBotAxle)
		case 90:
			grip(1)
			w.wheels(bots[1], 8, 10, footBotAxle)
		case 70, 110:
			// leave and come back, as a migrating body does
			for _, i := range []int{pucks[7], bots[2], pucks[20]} {
				w.eng.Remove(i)
			}
			for _, i := range []int{pucks[20], bots[2], pucks[7]} {
				if err := w.eng.Add(i); err != nil {
					t.Fatal(err)
				}
			}
		}
		for k, i := range pucks {
			if (tk+k)%25 == 0 {
				w.wheels(i, 3+float64(k%5), 8-float64(k%3), 0.053)
			}
		}
		w.tick()
		for _, i := range all {
			s := w.state(i)
			for _, f := range [6]float64{s.Pos.X, s.Pos.Y, s.Yaw, s.Vel.X, s.Vel.Y, s.AngVel} {
				put(f)
			}
		}
	}
	return h.Sum64()
}
