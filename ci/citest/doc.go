// Package citest provides fakes of the [ci] interfaces so that a controller
// can be unit-tested without the simulator or a robot, the way periph's
// i2ctest and database/sql's test drivers stand in for the real thing.
//
// A test builds a [Robot], hands it fake devices under the XML tags the
// controller asks for, calls the controller directly, and looks at what
// the fake actuators recorded:
//
//	wheels := &citest.Wheels{}
//	prox := citest.NewFootBotProximity()
//	robot := citest.NewRobot("fb0", 1).
//		AddActuator(ci.TagDifferentialSteering, wheels).
//		AddSensor(ci.TagFootBotProximity, prox)
//	c := diffusion.New()
//	if err := c.Init(robot, ci.NewParams("velocity", "10")); err != nil {
//		t.Fatal(err)
//	}
//	prox.Set(1, 0.9) // an obstacle at the front-left
//	c.ControlStep()
//	// wheels.Left, wheels.Right now hold what the controller chose.
//
// Sensor fakes ([Proximity], [Positioning], [Wheels] as encoders) return
// what the test set with their Set methods; actuator fakes ([Wheels],
// [LEDs]) record the last values in exported fields.
//
// [TestController] is a conformance check, like testing/fstest.TestFS: it
// runs a controller through its whole life cycle (Init, ControlStep,
// Reset, ControlStep, Destroy) and fails on errors and panics. Every
// controller package should call it.
//
// The fakes are not safe for concurrent use; a controller is only ever
// called from one goroutine.
package citest
