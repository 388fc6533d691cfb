package dynamics2d_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
)

// A foot-bot grips a prey (a movable cylinder) touching its front and
// backs away: the prey follows at the same distance; after Release the
// robot leaves it behind.
func TestGripDrag(t *testing.T) {
	w := newWorld(t, 6, "")
	fb := w.add(footBot, "fb", 0, 0, 0)
	const r = 0.05
	gap := 0.005
	prey := w.cylinder("prey", footBot.Radius+gap+r, 0, r, 0.5)
	w.ticks(2)
	anchor := ci.Vector2{X: footBot.Radius + gap/2}
	if err := w.eng.Grip(fb, prey, anchor); err != nil {
		t.Fatal(err)
	}
	if got := w.eng.Gripped(fb); got != prey {
		t.Fatalf("Gripped = %d, want %d", got, prey)
	}
	d0 := w.body(prey).Pos.Sub(w.body(fb).Pos).Length()
	w.wheels(fb, -10, -10, footBotAxle) // back away at 10 cm/s
	w.ticks(50)
	fbPos, preyPos := w.body(fb).Pos, w.body(prey).Pos
	if fbPos.X > -0.3 {
		t.Fatalf("robot at %v after 5 s at -10 cm/s; it should have moved about 0.5 m back", fbPos)
	}
	if d := preyPos.Sub(fbPos).Length(); math.Abs(d-d0) > 0.01 {
		t.Errorf("prey at %.4f m from the robot while dragged, want %.4f (it must follow)", d, d0)
	}
	if preyPos.X > -0.2 {
		t.Errorf("prey at %v: it did not follow the robot", preyPos)
	}
	// Turn on the spot: the prey swings with the robot.
	w.wheels(fb, -5, 5, footBotAxle)
	w.ticks(20)
	rel := w.body(prey).Pos.Sub(w.body(fb).Pos)
	if d := rel.Length(); math.Abs(d-d0) > 0.015 {
		t.Errorf("prey at %.4f m from the turning robot, want %.4f", d, d0)
	}
	if a := math.Abs(ci.NormalizeAngle(rel.Angle() - w.body(fb).Yaw)); a > 0.5 {
		t.Errorf("prey at %.2f rad from the robot's front after turning, want it in front", a)
	}
	// Release and back away: the prey stays.
	w.eng.Release(fb)
	if w.eng.Gripped(fb) != -1 {
		t.Fatal("still gripping after Release")
	}
	left := w.body(prey).Pos
	w.wheels(fb, -10, -10, footBotAxle)
	w.ticks(20)
	if moved := w.body(prey).Pos.Sub(left).Length(); moved > 0.01 {
		t.Errorf("released prey moved %.3f m with the robot", moved)
	}
}

// Grip refuses bodies of another engine and the gripper itself; removing
// the object releases the grip; Reset releases everything.
func TestGripLifecycle(t *testing.T) {
	w := newWorld(t, 6, "")
	fb := w.add(footBot, "fb", 0, 0, 0)
	prey := w.cylinder("prey", 0.14, 0, 0.05, 0.5)
	wall := w.cylinder("post", 1, 1, 0.05, 0)
	if err := w.eng.Grip(fb, fb, ci.Vector2{}); err == nil {
		t.Error("a body gripped itself")
	}
	if err := w.eng.Grip(fb, wall, ci.Vector2{}); err == nil {
		t.Error("a static body, owned by no engine, was gripped")
	}
	if err := w.eng.Grip(fb, prey, ci.Vector2{X: 0.088}); err != nil {
		t.Fatal(err)
	}
	w.ticks(3)
	w.eng.Remove(prey)
	if w.eng.Gripped(fb) != -1 {
		t.Error("removing the object did not release the grip")
	}
	w.ticks(3) // the gripper leaves cp without a dangling joint
	if err := w.eng.Add(prey); err != nil {
		t.Fatal(err)
	}
	if err := w.eng.Grip(fb, prey, ci.Vector2{X: 0.088}); err != nil {
		t.Fatal(err)
	}
	w.eng.Reset()
	if w.eng.Gripped(fb) != -1 {
		t.Error("Reset did not release the grip")
	}
	w.ticks(3)
}

// Gripping again with the same object moves the grip point (a turning
// turret): the object goes round the robot with it.
func TestGripMovesWithTurret(t *testing.T) {
	w := newWorld(t, 6, "")
	fb := w.add(footBot, "fb", 0, 0, 0)
	prey := w.cylinder("prey", footBot.Radius+0.005+0.05, 0, 0.05, 0.3)
	w.ticks(1)
	edge := footBot.Radius + 0.0025
	if err := w.eng.Grip(fb, prey, ci.Vector2{X: edge}); err != nil {
		t.Fatal(err)
	}
	turret := 0.0
	for k := 0; k < 60; k++ { // 0.5 rad/s for 6 s: 3 rad
		turret += 0.05
		if err := w.eng.Grip(fb, prey, ci.FromPolar(edge, turret)); err != nil {
			t.Fatal(err)
		}
		w.tick()
	}
	rel := w.body(prey).Pos.Sub(w.body(fb).Pos)
	if d := math.Abs(ci.NormalizeAngle(rel.Angle() - turret)); d > 0.35 {
		t.Errorf("prey at %.2f rad around the robot, the grip point at %.2f", rel.Angle(), turret)
	}
	if w.eng.Gripped(fb) != prey {
		t.Error("the grip was lost")
	}
}
