package dynamics2d

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/jakecoffman/cp/v2"
)

// The drives' solver (drive.go) reads and writes a body's velocities ten
// times per sub-step. cp's setters (SetVelocityVector, SetAngularVelocity)
// first wake the body: they check its type, reset its idle time and walk
// its contacts to reset theirs, which reads other bodies' memory. Sleeping
// is off in the engine's space (cp's default SleepTimeThreshold), so waking
// does nothing a result depends on: a dynamic body's idle time is 0 from
// its creation on and stays so. The solver therefore writes the two
// fields directly, at offsets found by reflection when the package is
// initialised; if cp's Body no longer has them, the program stops at start
// with a message saying so, rather than computing wrong results.
var (
	offsetV = cpBodyField("v", reflect.TypeFor[cp.Vector]())
	offsetW = cpBodyField("w", reflect.TypeFor[float64]())
)

func cpBodyField(name string, t reflect.Type) uintptr {
	f, ok := reflect.TypeFor[cp.Body]().FieldByName(name)
	if !ok || f.Type != t {
		panic(fmt.Sprintf("dynamics2d: cp.Body has no field %s of type %s: the cp version in go.mod is not the one this package was written for (v2.4.0); update cpbody.go", name, t))
	}
	return f.Offset
}

// velocity and angularVelocity are the fields cp.Body.Velocity and
// cp.Body.AngularVelocity return.
func velocity(b *cp.Body) *cp.Vector { return (*cp.Vector)(unsafe.Add(unsafe.Pointer(b), offsetV)) }

func angularVelocity(b *cp.Body) *float64 {
	return (*float64)(unsafe.Add(unsafe.Pointer(b), offsetW))
}
