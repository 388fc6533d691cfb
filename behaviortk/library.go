package behaviortk

import (
	"math"
	"math/rand/v2"

	"github.com/argosgo/argos/ci"
)

// The behaviours below are the reusable library. Speeds are wheel speeds
// in cm/s; angles are radians counter-clockwise from the robot's front.

// Steer drives toward a direction: straight when it is ahead, turning on
// the spot when it is behind, blending in between.
func Steer(s *State, angle, speed float64) {
	angle = ci.NormalizeAngle(angle)
	k := math.Cos(angle) // 1 ahead, -1 behind
	turn := math.Copysign(1, angle) * (1 - math.Max(k, 0))
	fwd := math.Max(k, 0)
	s.SetWheels(speed*(fwd-turn), speed*(fwd+turn))
}

// vectorSum returns the sum of readings as vectors and its angle.
func vectorSum[T any](rs []T, get func(T) (float64, float64)) (length, angle float64) {
	var v ci.Vector2
	for _, r := range rs {
		val, a := get(r)
		v = v.Add(ci.FromPolar(val, a))
	}
	return v.Length(), v.Angle()
}

// RandomWalk goes straight and, with probability TurnProb per step, turns
// on the spot for a random 1..MaxTurnSteps steps in a random direction.
type RandomWalk struct {
	Speed        float64
	TurnProb     float64
	MaxTurnSteps int
	Rand         *rand.Rand // the robot's stream (ci.Robot.Rand)
	turning      int
	dir          float64
}

// Step implements Behavior.
func (w *RandomWalk) Step(s *State) {
	if w.turning == 0 && w.Rand.Float64() < w.TurnProb {
		w.turning = 1 + w.Rand.IntN(max(w.MaxTurnSteps, 1))
		w.dir = 1
		if w.Rand.IntN(2) == 0 {
			w.dir = -1
		}
	}
	if w.turning > 0 {
		w.turning--
		s.SetWheels(-w.dir*w.Speed, w.dir*w.Speed)
		return
	}
	s.SetWheels(w.Speed, w.Speed)
}

// Reset implements Resetter.
func (w *RandomWalk) Reset() { w.turning = 0 }

// AvoidObstacles turns away from obstacles: when the proximity readings,
// summed as vectors, exceed Threshold, it turns away from their side and
// overrides the wheels; otherwise it leaves the outputs alone.
type AvoidObstacles struct {
	Speed     float64
	Threshold float64
}

// Step implements Behavior.
func (a AvoidObstacles) Step(s *State) {
	l, angle := vectorSum(s.Proximity, func(r ci.ProximityReading) (float64, float64) { return r.Value, r.Angle })
	if l <= a.Threshold {
		return
	}
	Steer(s, angle+math.Pi, a.Speed)
}

// Obstacle reports whether the proximity readings sum above threshold.
func Obstacle(s *State, threshold float64) bool {
	l, _ := vectorSum(s.Proximity, func(r ci.ProximityReading) (float64, float64) { return r.Value, r.Angle })
	return l > threshold
}

// Phototaxis steers toward the light (Anti: away from it). With no light
// seen it leaves the outputs alone.
type Phototaxis struct {
	Speed float64
	Anti  bool
}

// Step implements Behavior.
func (p Phototaxis) Step(s *State) {
	l, angle := vectorSum(s.Light, func(r ci.LightReading) (float64, float64) { return r.Value, r.Angle })
	if l == 0 {
		return
	}
	if p.Anti {
		angle += math.Pi
	}
	Steer(s, angle, p.Speed)
}

// NearestBlob returns the closest blob of colour c the camera sees.
func NearestBlob(s *State, c ci.Color) (ci.Blob, bool) {
	best, found := ci.Blob{}, false
	for _, b := range s.Blobs {
		if sameColor(b.Color, c) && (!found || b.Distance < best.Distance) {
			best, found = b, true
		}
	}
	return best, found
}

func sameColor(a, b ci.Color) bool { return a.R == b.R && a.G == b.G && a.B == b.B }

// GoToBlob steers toward the nearest blob of Color and stops within
// StopDistance metres of it. It switches the camera on. With no such blob
// in sight it leaves the wheels alone.
type GoToBlob struct {
	Color        ci.Color
	Speed        float64
	StopDistance float64
}

// Step implements Behavior.
func (g GoToBlob) Step(s *State) {
	s.Out.Camera, s.Out.CameraSet = true, true
	b, ok := NearestBlob(s, g.Color)
	if !ok {
		return
	}
	if b.Distance <= g.StopDistance {
		s.SetWheels(0, 0)
		return
	}
	Steer(s, b.Angle, g.Speed)
}

// FollowSpot follows a laser spot of the given colour seen by the camera,
// driving over it and slowing down as it gets close.
type FollowSpot struct {
	Color ci.Color
	Speed float64
}

// Step implements Behavior.
func (f FollowSpot) Step(s *State) {
	s.Out.Camera, s.Out.CameraSet = true, true
	b, ok := NearestBlob(s, f.Color)
	if !ok {
		return
	}
	speed := f.Speed * math.Min(1, b.Distance/0.2)
	Steer(s, b.Angle, speed)
}

// Grip locks the gripper when an object is right in front (the front
// proximity readings above Threshold) and nothing is held yet.
type Grip struct {
	Threshold float64
}

// Step implements Behavior.
func (g Grip) Step(s *State) {
	if s.Gripping {
		return
	}
	front := 0.0
	for _, r := range s.Proximity {
		if math.Abs(ci.NormalizeAngle(r.Angle)) < math.Pi/6 {
			front = math.Max(front, r.Value)
		}
	}
	if front >= g.Threshold {
		s.SetWheels(0, 0)
		s.Out.Grip = GripLock
	}
}

// InNest reports whether the ground sensors see the nest: a floor
// brightness between lo and hi under most sensors.
func InNest(s *State, lo, hi float64) bool {
	if len(s.Ground) == 0 {
		return false
	}
	n := 0
	for _, g := range s.Ground {
		if g.Value >= lo && g.Value <= hi {
			n++
		}
	}
	return 2*n > len(s.Ground)
}

// GoToNest drives toward the light that marks the nest (ARGoS's foraging
// convention) and stops once the ground sensors see the nest's grey.
type GoToNest struct {
	Speed      float64
	NestLo     float64
	NestHi     float64
	StopInNest bool
}

// Step implements Behavior.
func (g GoToNest) Step(s *State) {
	if g.StopInNest && InNest(s, g.NestLo, g.NestHi) {
		s.SetWheels(0, 0)
		return
	}
	Phototaxis{Speed: g.Speed}.Step(s)
}
