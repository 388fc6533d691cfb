package space

import (
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
)

// A million robots carry a million bodies: the body must stay at three
// cache lines, its query fields in the first (docs/benchmarks.md, "Up to
// a million robots").
func TestBodySize(t *testing.T) {
	var b Body
	if n := unsafe.Sizeof(b); n != 192 {
		t.Errorf("a body takes %d bytes, want 192 (three cache lines); put what few bodies have in bodyExtra", n)
	}
	if end := unsafe.Offsetof(b.Engine) + unsafe.Sizeof(b.Engine); end > 64 {
		t.Errorf("the fields every query reads end at byte %d, past the first cache line", end)
	}
}

// A body's nub, tilt and flight live apart: bodies added from one
// template get their own, setting them on a copy leaves the original as
// it was, and clearing them all leaves nothing apart.
func TestBodyExtra(t *testing.T) {
	var tmpl Body
	tmpl.Movable = true
	tmpl.SetNub(0.01, 0.1, 0)
	sp := New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 1})
	a, b := sp.Add(tmpl), sp.Add(tmpl)
	sp.Bodies[a].SetNubAngle(1)
	if n := sp.Bodies[b].Nub(); n.Cos != 1 || n.Sin != 0 {
		t.Errorf("turning one body's nub turned another's: %+v", n)
	}
	if n := tmpl.Nub(); n.Cos != 1 {
		t.Errorf("turning an added body's nub turned its template's: %+v", n)
	}
	if n := sp.Bodies[a].Nub(); n.R != 0.01 || n.Dist != 0.1 || n.Cos == 1 {
		t.Errorf("nub after SetNubAngle: %+v", n)
	}

	var c Body
	c.SetTilt(0.5, -0.25)
	snap := c
	c.SetTilt(0, 0)
	if p, r := snap.Tilt(); p != 0.5 || r != -0.25 {
		t.Errorf("a copy's tilt changed with the original's: %v, %v", p, r)
	}
	f := &Flight{}
	c.SetFlight(f)
	if c.Flight() != f || snap.Flight() != nil {
		t.Errorf("flight %p (copy %p), want %p (copy nil)", c.Flight(), snap.Flight(), f)
	}
	c.SetFlight(nil)
	if c.extra != nil {
		t.Errorf("a body without nub, tilt or flight keeps an extra part: %+v", *c.extra)
	}
}
