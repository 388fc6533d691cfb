package realrobottest

import (
	"errors"
	"sync"
	"testing"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
)

// TestDriver checks what every realrobot.Driver must do, on a driver
// opened for devs against working (real or emulated) hardware: each
// declared tag gives a device with the ci interface of its group, and
// nothing else; Sense, Act and Stop work, also with Stop racing Sense
// and Act from another goroutine (run the test with -race); an Act after
// a Stop in the same tick is superseded; Close works.
// It closes the driver.
func TestDriver(t *testing.T, drv realrobot.Driver, devs realrobot.Devices) {
	t.Helper()
	for _, tag := range devs.Sensors {
		d, ok := drv.Sensor(tag)
		if !ok {
			t.Errorf("declared sensor %q is missing", tag)
			continue
		}
		if !sensorOK(tag, d) {
			t.Errorf("sensor %q is a %T, which lacks the ci interface of its group", tag, d)
		}
	}
	for _, tag := range devs.Actuators {
		d, ok := drv.Actuator(tag)
		if !ok {
			t.Errorf("declared actuator %q is missing", tag)
			continue
		}
		if !actuatorOK(tag, d) {
			t.Errorf("actuator %q is a %T, which lacks the ci interface of its group", tag, d)
		}
	}
	if _, ok := drv.Sensor("no_such_sensor"); ok {
		t.Error("an undeclared sensor is returned")
	}
	if w, ok := drv.Actuator(ci.TagDifferentialSteering); ok {
		w.(ci.DifferentialSteeringActuator).SetLinearVelocity(1, -1)
	}
	for i := range 3 {
		if err := drv.Sense(); err != nil {
			t.Fatalf("Sense %d: %v", i, err)
		}
		if err := drv.Act(); err != nil {
			t.Fatalf("Act %d: %v", i, err)
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			if err := drv.Stop(); err != nil {
				t.Errorf("Stop during Sense and Act: %v", err)
			}
		}
	}()
	for range 3 {
		if err := drv.Sense(); err != nil {
			t.Errorf("Sense with a concurrent Stop: %v", err)
		}
		if err := drv.Act(); err != nil && !errors.Is(err, realrobot.ErrSuperseded) {
			t.Errorf("Act with a concurrent Stop: %v", err)
		}
	}
	wg.Wait()
	// A Stop is final for the tick in progress: the Act after it sends
	// nothing, and the next tick acts again.
	if err := drv.Sense(); err != nil {
		t.Fatalf("Sense: %v", err)
	}
	if err := drv.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := drv.Act(); !errors.Is(err, realrobot.ErrSuperseded) {
		t.Errorf("Act after a Stop in the same tick: %v, want an error wrapping realrobot.ErrSuperseded", err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatalf("Sense: %v", err)
	}
	if err := drv.Act(); err != nil {
		t.Errorf("Act of the next tick: %v", err)
	}
	if err := drv.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if err := drv.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func sensorOK(tag string, d any) bool {
	switch tag {
	case ci.TagProximity, ci.TagFootBotProximity, ci.TagEPuckProximity, ci.TagEyeBotProximity:
		_, ok := d.(ci.Proximity)
		return ok
	case ci.TagLight, ci.TagFootBotLight, ci.TagEPuckLight, ci.TagEyeBotLight:
		_, ok := d.(ci.Light)
		return ok
	case ci.TagGround, ci.TagFootBotBaseGround, ci.TagFootBotMotorGround, ci.TagEPuckGround:
		_, ok := d.(ci.Ground)
		return ok
	case ci.TagDifferentialSteering:
		_, ok := d.(ci.DifferentialSteeringSensor)
		return ok
	case ci.TagBattery:
		_, ok := d.(ci.Battery)
		return ok
	case ci.TagPositioning:
		_, ok := d.(ci.Positioning)
		return ok
	case ci.TagAltitude:
		_, ok := d.(ci.Altitude)
		return ok
	case ci.TagMessaging:
		_, ok := d.(ci.MessagingSensor)
		return ok
	case ci.TagRangeAndBearing:
		_, ok := d.(ci.RangeAndBearingSensor)
		return ok
	case boards.TagToF:
		_, ok := d.(ci.DistanceScannerSensor)
		return ok
	case boards.TagIMU:
		_, ok := d.(interface {
			Acceleration() ci.Vector3
			AngularVelocity() ci.Vector3
		})
		return ok
	}
	return true
}

func actuatorOK(tag string, d any) bool {
	switch tag {
	case ci.TagDifferentialSteering:
		_, ok := d.(ci.DifferentialSteeringActuator)
		return ok
	case ci.TagLEDs:
		_, ok := d.(ci.LEDs)
		return ok
	case ci.TagQuadrotorPosition:
		_, ok := d.(ci.QuadrotorPosition)
		return ok
	case ci.TagQuadrotorSpeed:
		_, ok := d.(ci.QuadrotorSpeed)
		return ok
	case ci.TagMessaging:
		_, ok := d.(ci.MessagingActuator)
		return ok
	case ci.TagRangeAndBearing:
		_, ok := d.(ci.RangeAndBearingActuator)
		return ok
	}
	return true
}
