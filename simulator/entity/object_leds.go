package entity

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

// objectLEDsHelp is the part of the box and cylinder help that describes
// their LEDs.
const objectLEDsHelp = "Optional LEDs, as in ARGoS: <leds medium=\"ID\"><led offset=\"x,y,z\" anchor=\"origin\" color=\"yellow\"/>...</leds> " +
	"(offset in metres from the centre of the base, in the object's frame; the LEDs move with the object and cameras see them through " +
	"the <led> medium ID; loop functions may change their colours through World().ObjectLEDs)."

// ObjectLED is one LED that a passive object (a box or a cylinder) carries,
// as ARGoS 3's
//
//	<cylinder id="prey" ...>
//	  <body .../>
//	  <leds medium="leds">
//	    <led offset="0,0,0.1" anchor="origin" color="yellow"/>
//	  </leds>
//	</cylinder>
//
// Offset is the LED's position in the object's frame (metres from the
// centre of its base, X along its heading); the LED moves and turns with
// the object. A black LED is off.
type ObjectLED struct {
	Offset ci.Vector3
	Color  ci.Color
}

// ObjectLEDs are the LEDs of one object of the arena: the id and body of
// the object, the id of the LED medium that shows them, and the LEDs.
// Loop functions may change the colours between ticks (a prey that lights
// up when found); Reset brings back the colours of the file.
type ObjectLEDs struct {
	ID     string
	Body   int
	Medium string
	LEDs   []ObjectLED
	init   []ci.Color
}

// NewObjectLEDs returns the LEDs of the object of spec, whose body has
// handle body in the space; nil when the object has none.
func NewObjectLEDs(spec *Spec, body int) *ObjectLEDs {
	if len(spec.LEDs) == 0 {
		return nil
	}
	o := &ObjectLEDs{ID: spec.ID, Body: body, Medium: spec.LEDMedium, LEDs: append([]ObjectLED(nil), spec.LEDs...)}
	o.init = make([]ci.Color, len(o.LEDs))
	for i, l := range o.LEDs {
		o.init[i] = l.Color
	}
	return o
}

// Position returns where LED k is when the object's body is b: the
// offset turned by the body's yaw (objects are upright prisms in the
// space; the tilt of a static object is not modelled) and added to its
// base.
func (o *ObjectLEDs) Position(b *space.Body, k int) ci.Vector3 {
	off := o.LEDs[k].Offset
	return ci.Vector3{
		X: b.Pos.X + b.Cos*off.X - b.Sin*off.Y,
		Y: b.Pos.Y + b.Sin*off.X + b.Cos*off.Y,
		Z: b.Z + off.Z,
	}
}

// Reset brings back the colours the file gave.
func (o *ObjectLEDs) Reset() {
	for i, c := range o.init {
		o.LEDs[i].Color = c
	}
}

// parseObjectLEDs reads the optional <leds medium="..."> child of a box
// or a cylinder into s. As in ARGoS, each <led> has an offset (metres, in
// the object's frame), an anchor (only "origin", the object's base: a
// passive object has no other) and a colour.
func parseObjectLEDs(s *Spec, n *config.Node) error {
	if err := n.CheckChildren("body", "leds"); err != nil {
		return err
	}
	ln, err := n.OptionalChild("leds")
	if err != nil || ln == nil {
		return err
	}
	if err := ln.CheckAttrs("medium"); err != nil {
		return err
	}
	if err := ln.CheckChildren("led"); err != nil {
		return err
	}
	if s.LEDMedium, err = ln.String("medium"); err != nil {
		return err
	}
	if s.LEDMedium == "" {
		return ln.AttrErrorf("medium", "give the id of an <led> medium of <media>, like medium=\"leds\"")
	}
	leds := ln.ChildrenNamed("led")
	if len(leds) == 0 {
		return ln.Errorf("entity: %s %q: <leds> holds no <led>; add <led offset=\"0,0,%g\" anchor=\"origin\" color=\"yellow\"/> or remove <leds>",
			s.Tag, s.ID, s.Body.Height)
	}
	s.LEDs = make([]ObjectLED, 0, len(leds))
	for _, l := range leds {
		if err := l.CheckAttrs("offset", "anchor", "color"); err != nil {
			return err
		}
		off, err := l.Vector3Or("offset", ci.Vector3{})
		if err != nil {
			return err
		}
		if math.Hypot(off.X, off.Y) > s.Body.Radius+0.5 || off.Z < 0 || off.Z > s.Body.Height+0.5 {
			return l.AttrErrorf("offset", "the LED lies %g m from the axis and %g m above the base of %s %q; put it on the object, like \"0,0,%g\" on its top",
				math.Hypot(off.X, off.Y), off.Z, s.Tag, s.ID, s.Body.Height)
		}
		if a := l.StringOr("anchor", "origin"); a != "origin" {
			return l.AttrErrorf("anchor", "a %s has only the anchor \"origin\" (its base); write anchor=\"origin\"", s.Tag)
		}
		c, err := l.Color("color")
		if err != nil {
			return err
		}
		s.LEDs = append(s.LEDs, ObjectLED{Offset: off, Color: c})
	}
	return nil
}
