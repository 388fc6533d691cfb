package ci

import "math"

// Vector2 is a point or direction in the plane, in metres.
type Vector2 struct{ X, Y float64 }

// Add returns v+w.
func (v Vector2) Add(w Vector2) Vector2 { return Vector2{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w.
func (v Vector2) Sub(w Vector2) Vector2 { return Vector2{v.X - w.X, v.Y - w.Y} }

// Scale returns v*k.
func (v Vector2) Scale(k float64) Vector2 { return Vector2{v.X * k, v.Y * k} }

// Dot returns the dot product of v and w.
func (v Vector2) Dot(w Vector2) float64 { return v.X*w.X + v.Y*w.Y }

// Cross returns the z component of the cross product of v and w.
func (v Vector2) Cross(w Vector2) float64 { return v.X*w.Y - v.Y*w.X }

// Length returns the Euclidean norm of v.
func (v Vector2) Length() float64 { return math.Hypot(v.X, v.Y) }

// SquaredLength returns the squared norm of v.
func (v Vector2) SquaredLength() float64 { return v.X*v.X + v.Y*v.Y }

// Angle returns the angle of v in radians, in (-pi, pi].
func (v Vector2) Angle() float64 { return math.Atan2(v.Y, v.X) }

// Rotate returns v rotated counter-clockwise by a radians.
func (v Vector2) Rotate(a float64) Vector2 {
	s, c := math.Sincos(a)
	return Vector2{v.X*c - v.Y*s, v.X*s + v.Y*c}
}

// FromPolar returns the vector of the given length and angle.
func FromPolar(length, angle float64) Vector2 {
	s, c := math.Sincos(angle)
	return Vector2{length * c, length * s}
}

// Vector3 is a point or direction in space, in metres; Z points up.
type Vector3 struct{ X, Y, Z float64 }

// XY drops the Z component.
func (v Vector3) XY() Vector2 { return Vector2{v.X, v.Y} }

// Add returns v+w.
func (v Vector3) Add(w Vector3) Vector3 { return Vector3{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub returns v-w.
func (v Vector3) Sub(w Vector3) Vector3 { return Vector3{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Length returns the Euclidean norm of v.
func (v Vector3) Length() float64 { return math.Sqrt(v.X*v.X + v.Y*v.Y + v.Z*v.Z) }

// Quaternion is a rotation in space (W is the real part).
type Quaternion struct{ W, X, Y, Z float64 }

// IdentityQuaternion is the rotation that does nothing.
var IdentityQuaternion = Quaternion{W: 1}

// QuaternionFromYaw returns the rotation of a radians about the Z axis.
func QuaternionFromYaw(a float64) Quaternion {
	s, c := math.Sincos(a / 2)
	return Quaternion{W: c, Z: s}
}

// QuaternionFromEulerZYX returns the rotation given by ARGoS's Euler angles
// in radians: first z about Z (yaw), then y about the new Y (pitch), then x
// about the new X (roll).
func QuaternionFromEulerZYX(z, y, x float64) Quaternion {
	sz, cz := math.Sincos(z / 2)
	sy, cy := math.Sincos(y / 2)
	sx, cx := math.Sincos(x / 2)
	return Quaternion{
		W: cz*cy*cx + sz*sy*sx,
		X: cz*cy*sx - sz*sy*cx,
		Y: cz*sy*cx + sz*cy*sx,
		Z: sz*cy*cx - cz*sy*sx,
	}
}

// EulerZYX returns the ARGoS Euler angles (z, y, x) in radians of q.
func (q Quaternion) EulerZYX() (z, y, x float64) {
	z = math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
	sy := 2 * (q.W*q.Y - q.Z*q.X)
	sy = math.Max(-1, math.Min(1, sy))
	y = math.Asin(sy)
	x = math.Atan2(2*(q.W*q.X+q.Y*q.Z), 1-2*(q.X*q.X+q.Y*q.Y))
	return z, y, x
}

// Yaw returns the rotation of q about the Z axis, in radians.
func (q Quaternion) Yaw() float64 {
	z, _, _ := q.EulerZYX()
	return z
}

// NormalizeAngle maps a to (-pi, pi].
func NormalizeAngle(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	if a <= -math.Pi {
		a += 2 * math.Pi
	} else if a > math.Pi {
		a -= 2 * math.Pi
	}
	return a
}

// Radians converts degrees to radians.
func Radians(deg float64) float64 { return deg * math.Pi / 180 }

// Degrees converts radians to degrees.
func Degrees(rad float64) float64 { return rad * 180 / math.Pi }
