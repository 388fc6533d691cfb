package devices_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type groundSensor interface {
	devices.Sensor
	ci.Ground
}

// A floor that is black for x < -1, grey (gray60) up to x = 1 and white
// beyond.
func stripes(p ci.Vector2) ci.Color {
	switch {
	case p.X < -1:
		return ci.Black
	case p.X < 1:
		return ci.Gray60
	}
	return ci.White
}

// Ground sensors read the grey level of the floor under them: the motor
// ground sensors a level in [0, 1], the base ground sensors 0 or 1; a
// laser spot under a sensor is what it reads.
func TestGround(t *testing.T) {
	gray := entity.Gray(ci.Gray60) // 153/255 up to ARGoS's single-precision sum
	red := entity.Gray(ci.Red)
	tests := []struct {
		name   string
		m      *entity.RobotModel
		tag    string
		x, yaw float64
		spot   int // sensor under a red laser spot, -1 for none
		want   []float64
	}{
		{"motor, black", entity.FootBot, "footbot_motor_ground", -2, 0, -1, []float64{0, 0, 0, 0}},
		{"motor, white", entity.FootBot, "footbot_motor_ground", 2, 33, -1, []float64{1, 1, 1, 1}},
		{"motor, grey", entity.FootBot, "footbot_motor_ground", 0, 0, -1, []float64{gray, gray, gray, gray}},
		// front sensors (x = 0.063) on the grey, back ones on the black
		{"motor, across black and grey", entity.FootBot, "footbot_motor_ground", -1.01, 0, -1, []float64{gray, 0, 0, gray}},
		{"motor, turned around", entity.FootBot, "footbot_motor_ground", -1.01, 180, -1, []float64{0, gray, gray, 0}},
		{"motor, laser spot", entity.FootBot, "footbot_motor_ground", 2, 0, 1, []float64{1, red, 1, 1}},
		{"base, black", entity.FootBot, "footbot_base_ground", -2, 0, -1, []float64{0, 0, 0, 0, 0, 0, 0, 0}},
		{"base, grey is white", entity.FootBot, "footbot_base_ground", 0, 0, -1, []float64{1, 1, 1, 1, 1, 1, 1, 1}},
		{"base, across", entity.FootBot, "footbot_base_ground implementation=\"rot_z_only\"", -1.01, 0, -1, []float64{1, 1, 0, 0, 0, 0, 0, 1}},
		{"base, laser spot", entity.FootBot, "footbot_base_ground", 2, 0, 6, []float64{1, 1, 1, 1, 1, 1, 0, 1}},
		{"e-puck, across", entity.EPuck, "epuck_ground", 0.98, 0, -1, []float64{1, 1, 1}},
		{"e-puck, grey", entity.EPuck, "epuck_ground", 0.9, 0, -1, []float64{gray, gray, gray}},
		{"generic on a foot-bot", entity.FootBot, "ground", -1.01, 0, -1, []float64{gray, 0, 0, gray, 1, 1, 0, 0, 0, 0, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newWorld(t, 8, true)
			a.w.Floor = stripes
			r := a.robot(tt.m, "me", tt.x, 0.5, tt.yaw, "")
			g := dev[groundSensor](t, r, "sensors", "<"+tt.tag+"/>")
			if tt.spot >= 0 {
				// the sensors of the device are the model's, from its first
				off := g.Readings()[tt.spot].Offset.Rotate(ci.Radians(tt.yaw))
				a.w.Spots = []entity.Spot{{Pos: ci.Vector3{X: tt.x + off.X, Y: 0.5 + off.Y}, Radius: 0.005, Color: ci.Red}}
			}
			g.Update()
			rd := g.Readings()
			if len(rd) != len(tt.want) {
				t.Fatalf("%d readings, want %d", len(rd), len(tt.want))
			}
			for i, x := range rd {
				if math.Abs(x.Value-tt.want[i]) > 1e-9 {
					t.Errorf("sensor %d at %v reads %.4f, want %.4f", i, x.Offset, x.Value, tt.want[i])
				}
			}
		})
	}
}

// Noise moves grey readings by at most noise_level; base sensors stay 0
// or 1.
func TestGroundNoise(t *testing.T) {
	a := newWorld(t, 8, true)
	a.w.Floor = stripes
	r := a.robot(entity.FootBot, "me", 0, 0, 0, "")
	motor := dev[groundSensor](t, r, "sensors", `<footbot_motor_ground noise_level="0.1"/>`)
	base := dev[groundSensor](t, r, "sensors", `<footbot_base_ground noise_level="0.09"/>`)
	spread := 0.0
	for k := 0; k < 200; k++ {
		motor.Update()
		base.Update()
		for _, x := range motor.Readings() {
			d := x.Value - 153.0/255
			if math.Abs(d) > 0.1+1e-12 {
				t.Fatalf("noisy motor ground reads %g", x.Value)
			}
			spread = math.Max(spread, math.Abs(d))
		}
		for _, x := range base.Readings() {
			if x.Value != 1 { // 0.6 - 0.09 stays above 0.5
				t.Fatalf("noisy base ground reads %g on a 0.6 floor with noise 0.09", x.Value)
			}
		}
	}
	if spread < 0.05 {
		t.Errorf("noise spread %g: noise_level=0.1 is not applied", spread)
	}
	if _, err := build(t, r, "sensors", `<footbot_motor_ground noise_level="-1"/>`); err == nil {
		t.Error("a negative noise level was accepted")
	}
	if _, err := build(t, r, "sensors", `<epuck_ground/>`); err == nil {
		t.Error("epuck_ground was built for a foot-bot")
	}
}
