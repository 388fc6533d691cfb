// Package media holds what travels between entities during a tick, as
// ARGoS's media do: the LED medium (which LEDs and lights a camera can
// see) and the range-and-bearing medium (which robots hear which, with
// range and line-of-sight occlusion), plus the line-of-sight test they and
// the sensors share.
//
// Both media index their members with a uniform grid rebuilt at every
// Update, so the cost of a tick grows with the number of neighbours, not
// with the square of the number of robots; the range-and-bearing medium
// splits its work with the simulator's Runner. The simulator registers
// them under <media> as <led id="..."/> and
// <range_and_bearing id="..." check_occlusions="true"/>; devices find them
// with entity.Medium by the id their medium attribute names.
package media
