package behaviortk

import "github.com/argosgo/argos/ci"

// GripCommand is what a behaviour asks of the gripper.
type GripCommand uint8

const (
	// GripKeep leaves the gripper as it is.
	GripKeep GripCommand = iota
	// GripLock closes the gripper on what is in front of it.
	GripLock
	// GripUnlock opens it.
	GripUnlock
)

// State is one robot's sensor readings and pending actuator outputs. The
// Has* fields tell which devices the robot has; readings of absent devices
// stay empty. Behaviours read the readings and set the outputs.
type State struct {
	// Step counts the control steps since Init (or Reset).
	Step int

	// Sensor readings.
	Proximity   []ci.ProximityReading
	Light       []ci.LightReading
	Ground      []ci.GroundReading
	Blobs       []ci.Blob
	Packets     []ci.RABPacket
	Position    ci.PositioningReading
	Encoders    ci.DifferentialSteeringReading
	Battery     ci.BatteryReading
	Altitude    float64
	Gripping    bool
	HasPosition bool
	HasBattery  bool
	HasAltitude bool

	// Outputs, applied at the end of the step.
	Out Outputs

	// Memory is free space for behaviours to keep numbers between steps
	// (copied with the state).
	Memory map[string]float64

	packetData []byte // backing store of Packets[i].Data
}

// Outputs are the actuator commands of one step.
type Outputs struct {
	// Wheel speeds in cm/s; robots stop when no behaviour sets them.
	Left, Right float64
	// LEDs, when LEDsSet: every LED gets LEDColor.
	LEDColor ci.Color
	LEDsSet  bool
	Grip     GripCommand
	// Camera switches the blob camera on or off when CameraSet.
	Camera    bool
	CameraSet bool
	// Laser pointer: on with LaserColor when Laser.
	Laser      bool
	LaserColor ci.Color
	LaserSet   bool
	// Flying robots: target position (when TargetSet) and yaw.
	Target    ci.Vector3
	TargetYaw float64
	TargetSet bool
	// RAB payload to broadcast (when RABSet).
	RAB    []byte
	RABSet bool
}

// SetWheels sets both wheel speeds (cm/s).
func (s *State) SetWheels(left, right float64) { s.Out.Left, s.Out.Right = left, right }

// SetLEDs sets every LED to c.
func (s *State) SetLEDs(c ci.Color) { s.Out.LEDColor, s.Out.LEDsSet = c, true }

// CopyTo makes dst an independent copy of s, reusing dst's buffers.
func (s *State) CopyTo(dst *State) {
	prox, light, ground, blobs, packets, rab, data, mem :=
		dst.Proximity, dst.Light, dst.Ground, dst.Blobs, dst.Packets, dst.Out.RAB, dst.packetData, dst.Memory
	*dst = *s
	dst.Proximity = append(prox[:0], s.Proximity...)
	dst.Light = append(light[:0], s.Light...)
	dst.Ground = append(ground[:0], s.Ground...)
	dst.Blobs = append(blobs[:0], s.Blobs...)
	dst.Out.RAB = append(rab[:0], s.Out.RAB...)
	dst.packetData = append(data[:0], s.packetData...)
	dst.Packets = append(packets[:0], s.Packets...)
	// Packet payloads point into packetData: re-point them into the copy.
	off := 0
	for i := range dst.Packets {
		n := len(dst.Packets[i].Data)
		dst.Packets[i].Data = dst.packetData[off : off+n : off+n]
		off += n
	}
	if s.Memory == nil {
		dst.Memory = nil
		return
	}
	if mem == nil {
		mem = make(map[string]float64, len(s.Memory))
	}
	clear(mem)
	for k, v := range s.Memory {
		mem[k] = v
	}
	dst.Memory = mem
}

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	c := &State{}
	s.CopyTo(c)
	return c
}

// setPackets copies received packets into the state's own storage.
func (s *State) setPackets(ps []ci.RABPacket) {
	s.packetData = s.packetData[:0]
	for _, p := range ps {
		s.packetData = append(s.packetData, p.Data...)
	}
	s.Packets = append(s.Packets[:0], ps...)
	off := 0
	for i := range s.Packets {
		n := len(s.Packets[i].Data)
		s.Packets[i].Data = s.packetData[off : off+n : off+n]
		off += n
	}
}
