package ci

import (
	"math"
	"testing"
)

const eps = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

// sameAngle reports whether a and b are the same direction.
func sameAngle(a, b float64) bool {
	d := math.Mod(a-b, 2*math.Pi)
	return math.Abs(d) <= eps || math.Abs(math.Abs(d)-2*math.Pi) <= eps
}

func TestVector2(t *testing.T) {
	v, w := Vector2{3, 4}, Vector2{-1, 2}
	for _, tc := range []struct {
		name      string
		got, want Vector2
	}{
		{"Add", v.Add(w), Vector2{2, 6}},
		{"Sub", v.Sub(w), Vector2{4, 2}},
		{"Scale", v.Scale(-0.5), Vector2{-1.5, -2}},
		{"Rotate 90", Vector2{1, 0}.Rotate(math.Pi / 2), Vector2{0, 1}},
		{"Rotate -90", v.Rotate(-math.Pi / 2), Vector2{4, -3}},
		{"Rotate 180", v.Rotate(math.Pi), Vector2{-3, -4}},
		{"FromPolar 0", FromPolar(2, 0), Vector2{2, 0}},
		{"FromPolar 90", FromPolar(2, math.Pi/2), Vector2{0, 2}},
		{"FromPolar -135", FromPolar(math.Sqrt2, -3*math.Pi/4), Vector2{-1, -1}},
		{"XY", Vector3{1, 2, 3}.XY(), Vector2{1, 2}},
	} {
		if !near(tc.got.X, tc.want.X) || !near(tc.got.Y, tc.want.Y) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"Dot", v.Dot(w), 5},
		{"Cross", v.Cross(w), 10},
		{"Cross anti", w.Cross(v), -10},
		{"Length", v.Length(), 5},
		{"SquaredLength", v.SquaredLength(), 25},
		{"Angle +x", Vector2{1, 0}.Angle(), 0},
		{"Angle +y", Vector2{0, 2}.Angle(), math.Pi / 2},
		{"Angle -y", Vector2{0, -2}.Angle(), -math.Pi / 2},
		{"Angle -x", Vector2{-1, 0}.Angle(), math.Pi},
		{"Angle zero", Vector2{}.Angle(), 0},
		{"Vector3 Length", Vector3{2, 3, 6}.Length(), 7},
		{"Radians", Radians(7.5), math.Pi / 24},
		{"Degrees", Degrees(math.Pi / 12), 15},
	} {
		if !near(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if got := (Vector3{1, 2, 3}).Add(Vector3{1, 1, 1}); got != (Vector3{2, 3, 4}) {
		t.Errorf("Vector3 Add = %v", got)
	}
	if got := (Vector3{1, 2, 3}).Sub(Vector3{1, 1, 1}); got != (Vector3{0, 1, 2}) {
		t.Errorf("Vector3 Sub = %v", got)
	}
	// FromPolar and Length/Angle are inverse.
	for _, a := range []float64{-3, -1, 0, 0.5, 2, 3.1} {
		p := FromPolar(1.5, a)
		if !near(p.Length(), 1.5) || !near(p.Angle(), a) {
			t.Errorf("FromPolar(1.5, %v) has length %v angle %v", a, p.Length(), p.Angle())
		}
	}
}

func TestNormalizeAngle(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 0},
		{1, 1},
		{-1, -1},
		{math.Pi, math.Pi},
		{-math.Pi, math.Pi},
		{3 * math.Pi / 2, -math.Pi / 2},
		{-3 * math.Pi / 2, math.Pi / 2},
		{2 * math.Pi, 0},
		{-2 * math.Pi, 0},
		{5 * math.Pi / 2, math.Pi / 2},
		{Radians(343), Radians(-17)},
		{Radians(210), Radians(-150)},
		{Radians(-190), Radians(170)},
		{Radians(720 + 45), Radians(45)},
		{Radians(-720 - 45), Radians(-45)},
	} {
		got := NormalizeAngle(tc.in)
		if !near(got, tc.want) {
			t.Errorf("NormalizeAngle(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if got <= -math.Pi || got > math.Pi {
			t.Errorf("NormalizeAngle(%v) = %v, outside (-pi, pi]", tc.in, got)
		}
	}
	if got := NormalizeAngle(-math.Pi); got != math.Pi {
		t.Errorf("NormalizeAngle(-pi) = %v, want exactly pi", got)
	}
}

// rotate applies q to v (q v q*).
func rotate(q Quaternion, v Vector3) Vector3 {
	// t = 2 q.xyz x v; v' = v + w t + q.xyz x t
	tx := 2 * (q.Y*v.Z - q.Z*v.Y)
	ty := 2 * (q.Z*v.X - q.X*v.Z)
	tz := 2 * (q.X*v.Y - q.Y*v.X)
	return Vector3{
		v.X + q.W*tx + (q.Y*tz - q.Z*ty),
		v.Y + q.W*ty + (q.Z*tx - q.X*tz),
		v.Z + q.W*tz + (q.X*ty - q.Y*tx),
	}
}

// rotateEuler applies Rz(z) Ry(y) Rx(x) to v: the intrinsic Z, then new Y,
// then new X rotation that ARGoS's Euler angles describe.
func rotateEuler(z, y, x float64, v Vector3) Vector3 {
	sx, cx := math.Sincos(x)
	v = Vector3{v.X, cx*v.Y - sx*v.Z, sx*v.Y + cx*v.Z}
	sy, cy := math.Sincos(y)
	v = Vector3{cy*v.X + sy*v.Z, v.Y, -sy*v.X + cy*v.Z}
	sz, cz := math.Sincos(z)
	return Vector3{cz*v.X - sz*v.Y, sz*v.X + cz*v.Y, v.Z}
}

func TestQuaternionEulerZYX(t *testing.T) {
	angles := []float64{-math.Pi + 0.01, -2, -math.Pi / 2, -0.3, 0, 0.3, 1, math.Pi / 2, 2.5, math.Pi}
	pitches := []float64{-1.5, -0.7, 0, 0.2, 1.2, 1.5}
	probes := []Vector3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -0.5, 0.8}}
	for _, z := range angles {
		for _, y := range pitches {
			for _, x := range angles {
				q := QuaternionFromEulerZYX(z, y, x)
				if n := q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z; !near(n, 1) {
					t.Fatalf("QuaternionFromEulerZYX(%v, %v, %v) has norm² %v", z, y, x, n)
				}
				for _, p := range probes {
					got, want := rotate(q, p), rotateEuler(z, y, x, p)
					if got.Sub(want).Length() > eps {
						t.Fatalf("QuaternionFromEulerZYX(%v, %v, %v) rotates %v to %v, want %v", z, y, x, p, got, want)
					}
				}
				gz, gy, gx := q.EulerZYX()
				if !sameAngle(gz, z) || !near(gy, y) || !sameAngle(gx, x) {
					t.Fatalf("EulerZYX(QuaternionFromEulerZYX(%v, %v, %v)) = %v, %v, %v", z, y, x, gz, gy, gx)
				}
				if !sameAngle(q.Yaw(), z) {
					t.Fatalf("Yaw of (%v, %v, %v) = %v, want %v", z, y, x, q.Yaw(), z)
				}
			}
		}
	}
}

func TestQuaternionYaw(t *testing.T) {
	if got := IdentityQuaternion.Yaw(); got != 0 {
		t.Errorf("IdentityQuaternion.Yaw() = %v", got)
	}
	if z, y, x := IdentityQuaternion.EulerZYX(); z != 0 || y != 0 || x != 0 {
		t.Errorf("IdentityQuaternion.EulerZYX() = %v, %v, %v", z, y, x)
	}
	for _, a := range []float64{-math.Pi, -3, -1, 0, 0.5, math.Pi / 2, 3, math.Pi, 4, 7, -7} {
		q := QuaternionFromYaw(a)
		if e := QuaternionFromEulerZYX(a, 0, 0); !near(e.W, q.W) || !near(e.Z, q.Z) || e.X != 0 || e.Y != 0 {
			t.Errorf("QuaternionFromYaw(%v) = %v, QuaternionFromEulerZYX(%v,0,0) = %v", a, q, a, e)
		}
		if got := q.Yaw(); !sameAngle(got, a) || got < -math.Pi || got > math.Pi {
			t.Errorf("QuaternionFromYaw(%v).Yaw() = %v", a, got)
		}
		h := rotate(q, Vector3{1, 0, 0})
		if !near(h.X, math.Cos(a)) || !near(h.Y, math.Sin(a)) || !near(h.Z, 0) {
			t.Errorf("QuaternionFromYaw(%v) turns the x axis to %v", a, h)
		}
	}
	// A pitched and rolled robot still has its yaw.
	if got := QuaternionFromEulerZYX(1.2, 0.4, -0.3).Yaw(); !near(got, 1.2) {
		t.Errorf("Yaw of (1.2, 0.4, -0.3) = %v", got)
	}
}
