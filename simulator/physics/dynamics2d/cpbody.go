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
//
// cp's Space.RemoveBody finds the body by scanning the space's list of
// dynamic bodies from its start and closes the gap by moving the bodies
// after it: O(n) per body leaving the cp space, and thousands leave every
// tick in an engine of a quarter of a million robots. The order of that
// list changes no result (with sleeping off, cp only integrates each
// body's velocity and position over it, every body on its own), so the
// engine keeps where each of its bodies is in the list (object.cpIdx) and
// removes a body by moving the last one into its place (removeCPBody).
var (
	offsetV       = cpField[cp.Body]("v", reflect.TypeFor[cp.Vector]())
	offsetW       = cpField[cp.Body]("w", reflect.TypeFor[float64]())
	offsetSpace   = cpField[cp.Body]("space", reflect.TypeFor[*cp.Space]())
	offsetDynamic = cpField[cp.Space]("dynamicBodies", reflect.TypeFor[[]*cp.Body]())
	offsetArbiter = cpField[cp.Body]("arbiterList", reflect.TypeFor[*cp.Arbiter]())
)

func cpField[T any](name string, t reflect.Type) uintptr {
	f, ok := reflect.TypeFor[T]().FieldByName(name)
	if !ok || f.Type != t {
		panic(fmt.Sprintf("dynamics2d: %s has no field %s of type %s: the cp version in go.mod is not the one this package was written for (v2.4.0); update cpbody.go", reflect.TypeFor[T](), name, t))
	}
	return f.Offset
}

// velocity and angularVelocity are the fields cp.Body.Velocity and
// cp.Body.AngularVelocity return.
func velocity(b *cp.Body) *cp.Vector { return (*cp.Vector)(unsafe.Add(unsafe.Pointer(b), offsetV)) }

func angularVelocity(b *cp.Body) *float64 {
	return (*float64)(unsafe.Add(unsafe.Pointer(b), offsetW))
}

// bodySpace is the space a body is in (cp.Body.space), nil when in none.
func bodySpace(b *cp.Body) **cp.Space {
	return (**cp.Space)(unsafe.Add(unsafe.Pointer(b), offsetSpace))
}

// dynamicBodies is the space's list of dynamic bodies, which cp steps.
func dynamicBodies(s *cp.Space) *[]*cp.Body {
	return (*[]*cp.Body)(unsafe.Add(unsafe.Pointer(s), offsetDynamic))
}

// addCPBody adds o's body to the engine's cp space and notes where it is
// in the space's list of dynamic bodies.
func (e *Engine) addCPBody(o *object) {
	e.cps.AddBody(o.cpb)
	o.cpIdx = int32(len(*dynamicBodies(e.cps)) - 1)
}

// removeCPBody takes o's body out of the engine's cp space in O(1): what
// cp's RemoveBody does (waking the body does nothing with sleeping off),
// except that the last body of the list takes the removed one's place.
func (e *Engine) removeCPBody(o *object) {
	list := dynamicBodies(e.cps)
	k, last := int(o.cpIdx), len(*list)-1
	if k > last || (*list)[k] != o.cpb {
		panic(fmt.Sprintf("dynamics2d: body %d is not at %d in cp's list of %d bodies", o.body, k, last+1))
	}
	if k != last {
		moved := (*list)[last]
		(*list)[k] = moved
		moved.UserData.(*object).cpIdx = int32(k)
	}
	(*list)[last] = nil
	*list = (*list)[:last]
	*bodySpace(o.cpb) = nil
	o.cpIdx = -1
}

// touching reports whether the body has a contact in the current cp step:
// cp threads the step's arbiters (its pairs of touching shapes) onto both
// bodies (cp.Body.arbiterList, which EachArbiter walks) before it solves
// anything, and unthreads them at the start of the next step.
func touching(b *cp.Body) bool {
	return *(**cp.Arbiter)(unsafe.Add(unsafe.Pointer(b), offsetArbiter)) != nil
}
