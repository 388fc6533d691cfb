package behaviortk

import "github.com/argosgo/argos/ci"

// Binding connects a State to one robot's devices: Sense reads every
// sensor into the state, Act writes the outputs to the actuators. Devices
// are looked up by their ARGoS tags when the binding is made; those the
// robot does not declare are skipped.
type Binding struct {
	prox    ci.Proximity
	light   ci.Light
	ground  ci.Ground
	camera  ci.ColoredBlobCamera
	rabIn   ci.RangeAndBearingSensor
	rabOut  ci.RangeAndBearingActuator
	pos     ci.Positioning
	enc     ci.DifferentialSteeringSensor
	battery ci.Battery
	alt     ci.Altitude
	wheels  ci.DifferentialSteeringActuator
	leds    ci.LEDs
	gripper ci.Gripper
	laser   ci.LaserPointer
	quad    ci.QuadrotorPosition

	cameraOn bool
}

// Bind finds the robot's devices. For a device group with several tags
// (foot-bot, e-puck and eye-bot proximity rings, ...) the first declared
// one is used.
func Bind(r ci.Robot) *Binding {
	b := &Binding{}
	sensor(r, &b.prox, ci.TagFootBotProximity, ci.TagEPuckProximity, ci.TagEyeBotProximity, ci.TagProximity)
	sensor(r, &b.light, ci.TagFootBotLight, ci.TagEPuckLight, ci.TagEyeBotLight, ci.TagLight)
	sensor(r, &b.ground, ci.TagFootBotMotorGround, ci.TagFootBotBaseGround, ci.TagEPuckGround, ci.TagGround)
	sensor(r, &b.camera, ci.TagOmnidirectionalCamera, ci.TagPerspectiveCamera)
	sensor(r, &b.rabIn, ci.TagRangeAndBearing)
	sensor(r, &b.pos, ci.TagPositioning)
	sensor(r, &b.enc, ci.TagDifferentialSteering)
	sensor(r, &b.battery, ci.TagBattery)
	sensor(r, &b.alt, ci.TagAltitude)
	actuator(r, &b.rabOut, ci.TagRangeAndBearing)
	actuator(r, &b.wheels, ci.TagDifferentialSteering)
	actuator(r, &b.leds, ci.TagLEDs)
	actuator(r, &b.gripper, ci.TagFootBotGripper)
	actuator(r, &b.laser, ci.TagLaserPointer)
	actuator(r, &b.quad, ci.TagQuadrotorPosition)
	return b
}

func sensor[T any](r ci.Robot, dst *T, tags ...string) {
	for _, t := range tags {
		if d, ok := r.Sensor(t); ok {
			if v, ok := d.(T); ok {
				*dst = v
				return
			}
		}
	}
}

func actuator[T any](r ci.Robot, dst *T, tags ...string) {
	for _, t := range tags {
		if d, ok := r.Actuator(t); ok {
			if v, ok := d.(T); ok {
				*dst = v
				return
			}
		}
	}
}

// Has reports which device groups the robot has, by ci tag of the group
// ("proximity", "light", "ground", "camera", "range_and_bearing",
// "positioning", "wheels", "leds", "gripper", "laser_pointer",
// "quadrotor_position", "battery", "altitude").
func (b *Binding) Has(group string) bool {
	switch group {
	case "proximity":
		return b.prox != nil
	case "light":
		return b.light != nil
	case "ground":
		return b.ground != nil
	case "camera":
		return b.camera != nil
	case "range_and_bearing":
		return b.rabIn != nil || b.rabOut != nil
	case "positioning":
		return b.pos != nil
	case "wheels":
		return b.wheels != nil
	case "leds":
		return b.leds != nil
	case "gripper":
		return b.gripper != nil
	case "laser_pointer":
		return b.laser != nil
	case "quadrotor_position":
		return b.quad != nil
	case "battery":
		return b.battery != nil
	case "altitude":
		return b.alt != nil
	}
	return false
}

// Sense reads every sensor into s and clears the outputs of the previous
// step (the robot stops unless a behaviour drives it).
func (b *Binding) Sense(s *State) {
	if b.prox != nil {
		s.Proximity = append(s.Proximity[:0], b.prox.Readings()...)
	}
	if b.light != nil {
		s.Light = append(s.Light[:0], b.light.Readings()...)
	}
	if b.ground != nil {
		s.Ground = append(s.Ground[:0], b.ground.Readings()...)
	}
	if b.camera != nil {
		s.Blobs = append(s.Blobs[:0], b.camera.Blobs()...)
	}
	if b.rabIn != nil {
		s.setPackets(b.rabIn.Packets())
	}
	if s.HasPosition = b.pos != nil; s.HasPosition {
		s.Position = b.pos.Reading()
	}
	if b.enc != nil {
		s.Encoders = b.enc.Reading()
	}
	if s.HasBattery = b.battery != nil; s.HasBattery {
		s.Battery = b.battery.Reading()
	}
	if s.HasAltitude = b.alt != nil; s.HasAltitude {
		s.Altitude = b.alt.Reading()
	}
	if b.gripper != nil {
		s.Gripping = b.gripper.Gripping()
	}
	rab := s.Out.RAB[:0]
	s.Out = Outputs{RAB: rab, Camera: b.cameraOn}
}

// Act writes the outputs of s to the actuators.
func (b *Binding) Act(s *State) {
	o := &s.Out
	if b.wheels != nil {
		b.wheels.SetLinearVelocity(o.Left, o.Right)
	}
	if b.leds != nil && o.LEDsSet {
		b.leds.SetAllColors(o.LEDColor)
	}
	if b.gripper != nil {
		switch o.Grip {
		case GripLock:
			b.gripper.Lock()
		case GripUnlock:
			b.gripper.Unlock()
		}
	}
	if b.camera != nil && o.CameraSet && o.Camera != b.cameraOn {
		if o.Camera {
			b.camera.Enable()
		} else {
			b.camera.Disable()
		}
		b.cameraOn = o.Camera
	}
	if b.laser != nil && o.LaserSet {
		if o.Laser {
			b.laser.On(o.LaserColor)
		} else {
			b.laser.Off()
		}
	}
	if b.quad != nil && o.TargetSet {
		b.quad.SetAbsolutePosition(o.Target)
		b.quad.SetAbsoluteYaw(o.TargetYaw)
	}
	if b.rabOut != nil && o.RABSet {
		b.rabOut.ClearData()
		b.rabOut.SetData(o.RAB)
	}
}
