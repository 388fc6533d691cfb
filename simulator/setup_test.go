package simulator

import (
	"fmt"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// The devices cloned on the run's threads are each robot's own: a
// proximity ring with readings of its own, and wheels that move the
// robot's body and no other.
func TestClonedDevicesAreTheRobotsOwn(t *testing.T) {
	exp, err := config.Parse("test.argos", []byte(fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><system threads="3"/><experiment length="1" ticks_per_second="10" random_seed="7"/></framework>
  <controllers>
    <epuck_diffusion_controller id="edc">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><epuck_proximity implementation="default"/></sensors>
      <params/>
    </epuck_diffusion_controller>
  </controllers>
  <arena size="12,12,1" center="0,0,0.5">
    <distribute>
      <position method="uniform" min="-5.9,-5.9,0" max="5.9,5.9,0"/>
      <orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="%d" max_trials="100"><e-puck id="ep"><controller config="edc"/></e-puck></entity>
    </distribute>
  </arena>
  <physics_engines><kinematics2d id="k"/></physics_engines>
</argos-configuration>`, 3000)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(exp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readings := map[*ci.ProximityReading]bool{}
	for i, r := range s.robots {
		if len(r.sens) != 1 || len(r.acts) != 1 || r.ctrl == nil {
			t.Fatalf("robot %d: %d sensors, %d actuators, controller %v", i, len(r.sens), len(r.acts), r.ctrl)
		}
		p, ok := r.sens[0].(ci.Proximity)
		if !ok || len(p.Readings()) != 8 {
			t.Fatalf("robot %d: sensor %T is not an 8-ray proximity ring", i, r.sens[0])
		}
		if readings[&p.Readings()[0]] {
			t.Fatalf("robot %d shares its readings with another robot", i)
		}
		readings[&p.Readings()[0]] = true
	}
	for _, i := range []int{0, 1, 1500, len(s.robots) - 1} {
		r := s.robots[i]
		r.acts[0].(ci.DifferentialSteeringActuator).SetLinearVelocity(10, 10)
		r.acts[0].Apply()
		for k, o := range s.robots {
			if v, want := s.sp.Bodies[o.Body].TargetV, map[bool]float64{true: 0.1}[k == i]; v != want {
				t.Fatalf("robot %d's wheels at 10 cm/s: robot %d's body asks %g m/s, want %g", i, k, v, want)
			}
		}
		r.acts[0].(ci.DifferentialSteeringActuator).SetLinearVelocity(0, 0)
		r.acts[0].Apply()
	}
}
