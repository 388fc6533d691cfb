// Package ci is the common control interface of ARGoS-Go: what a robot
// controller sees of the robot it runs on, whether that robot is simulated
// or real.
//
// It holds only interfaces, value types and registries, and imports nothing
// but the standard library. Everything else in the project points at it:
// the simulator and the real-robot runtime implement its device interfaces,
// and controllers use nothing else (plus, optionally, behaviortk).
//
// A controller implements [Controller]. At Init it receives a [Robot], the
// handle from which it takes its devices by their XML tag, and the
// [Params] of its <params> element:
//
//	func (c *Diffusion) Init(r ci.Robot, p ci.Params) error {
//		var err error
//		if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, "differential_steering"); err != nil {
//			return err
//		}
//		if c.prox, err = ci.GetSensor[ci.Proximity](r, "epuck_proximity"); err != nil {
//			return err
//		}
//		c.velocity, err = p.FloatOr("velocity", 5)
//		return err
//	}
//
// A device is asked for by the tag it has under <sensors> or <actuators> in
// the .argos file; asking for one that was not declared is an error that
// says how to declare it. Each device group has one small interface
// (DifferentialSteeringActuator, Proximity, Positioning, LEDs, ...) and hands
// out all the readings of its group at once.
//
// Controllers register themselves under the label that .argos files use,
// from an init function, with [RegisterController]; the binaries import the
// controller packages they ship (blank imports live only in cmd/...).
//
// Units follow ARGoS: lengths of the wheel devices in centimetres and
// centimetres per second, positions in metres, angles in radians, angles
// counter-clockwise from the robot's front.
package ci
