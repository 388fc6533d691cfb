package physicstest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// recorder is a tester that records failures instead of failing, so that
// the tests can watch the checks catch broken engines.
type recorder struct {
	name     string
	mu       *sync.Mutex
	failures *[]string
	failed   bool
}

func newRecorder() *recorder { return &recorder{mu: new(sync.Mutex), failures: new([]string)} }

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	*r.failures = append(*r.failures, r.name+": "+fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// Run runs f on its own goroutine, as testing.T.Run does, so that Fatalf
// ends only f.
func (r *recorder) Run(name string, f func(t tester)) bool {
	child := &recorder{name: r.name + "/" + name, mu: r.mu, failures: r.failures}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(child)
	}()
	<-done
	if child.failed {
		r.failed = true
	}
	return !child.failed
}

// kinematic is a first-order engine: each owned body moves at exactly its
// target velocity along its heading at the start of the tick, stopping at
// the first static body it would overlap. Its faults break it on purpose.
type kinematic struct {
	sp      *space.Space
	statics []int
	bodies  []int
	start   map[int]space.Body
	next    map[int]space.Body
	faults  map[string]bool
}

func newKinematic(faults ...string) func(sp *space.Space) physics.Engine {
	return func(sp *space.Space) physics.Engine {
		k := &kinematic{sp: sp, start: map[int]space.Body{}, next: map[int]space.Body{}, faults: map[string]bool{}}
		for _, f := range faults {
			k.faults[f] = true
		}
		return k
	}
}

func (k *kinematic) ID() string             { return "kin" }
func (k *kinematic) Region() *physics.Prism { return nil }
func (k *kinematic) Bodies() []int {
	if k.faults["reversed bodies"] {
		out := make([]int, len(k.bodies))
		for i, b := range k.bodies {
			out[len(out)-1-i] = b
		}
		return out
	}
	return k.bodies
}

func (k *kinematic) Add(i int) error {
	if _, ok := k.start[i]; ok && !k.faults["duplicate add"] {
		return errors.New("kin: already owned")
	}
	if !k.sp.Bodies[i].Movable && !k.faults["static add"] {
		return errors.New("kin: static body")
	}
	k.bodies = append(k.bodies, i)
	k.start[i] = k.sp.Bodies[i]
	return nil
}

func (k *kinematic) Remove(i int) {
	if k.faults["sticky remove"] {
		return
	}
	for n, b := range k.bodies {
		if b == i {
			k.bodies = append(k.bodies[:n], k.bodies[n+1:]...)
			delete(k.start, i)
			delete(k.next, i)
			return
		}
	}
}

func (k *kinematic) AddStatic(i int) error {
	k.statics = append(k.statics, i)
	return nil
}

// blocked reports whether b overlaps a static body.
func (k *kinematic) blocked(b *space.Body) bool {
	if k.faults["no walls"] {
		return false
	}
	for _, s := range k.statics {
		if space.Gap(b, &k.sp.Bodies[s]) < 0 {
			return true
		}
	}
	return false
}

func (k *kinematic) Step(dt float64, run physics.Runner) {
	for _, i := range k.bodies {
		b := k.sp.Bodies[i] // a copy
		d := k.sp.Drive[i]
		omega := d.W
		if k.faults["no turning"] {
			omega = 0
		}
		vel := b.Heading().Scale(d.V)
		from := b.Pos
		// Move as far as possible toward the target, to within 1e-9 of the
		// whole step.
		lo, hi := 0.0, 1.0
		if b.Pos = from.Add(vel.Scale(dt)); k.blocked(&b) {
			for n := 0; n < 40; n++ {
				mid := (lo + hi) / 2
				if b.Pos = from.Add(vel.Scale(mid * dt)); k.blocked(&b) {
					hi = mid
				} else {
					lo = mid
				}
			}
			b.Pos = from.Add(vel.Scale(lo * dt))
			vel = ci.Vector2{}
		}
		if k.faults["raw yaw"] {
			b.Yaw += omega * dt
		} else {
			b.SetYaw(ci.NormalizeAngle(b.Yaw + omega*dt))
		}
		b.Vel, b.AngVel = vel, omega
		if k.faults["write in step"] {
			k.sp.Bodies[i] = b
		}
		k.next[i] = b
	}
}

func (k *kinematic) Commit(run physics.Runner) {
	for _, i := range k.bodies {
		k.sp.Bodies[i] = k.next[i]
	}
	if k.faults["commit all"] {
		for i := range k.sp.Bodies {
			k.sp.Bodies[i].Vel = ci.Vector2{X: 1}
		}
	}
}

func (k *kinematic) Reset() {
	if k.faults["no reset"] {
		return
	}
	for _, i := range k.bodies {
		b := k.start[i]
		b.Vel, b.AngVel = ci.Vector2{}, 0
		k.sp.Bodies[i] = b
	}
	if k.faults["reset drifts"] {
		for _, i := range k.bodies {
			k.sp.Bodies[i].Pos.X += 1e-3
		}
	}
}

func (k *kinematic) Close() error {
	if k.faults["close error"] {
		return errors.New("kin: cannot close")
	}
	return nil
}

// TestKinematicPasses checks that a plain first-order engine passes: the
// checks do not ask for dynamics2d's particulars.
func TestKinematicPasses(t *testing.T) {
	TestEngine(t, newKinematic())
}

// TestChecksCatchFaults runs the checks on broken engines and wants each
// fault reported by the check that looks for it.
func TestChecksCatchFaults(t *testing.T) {
	for _, tc := range []struct {
		fault string
		check string // the subtest that must fail, like "Walls"
		want  string // part of its message
	}{
		{"reversed bodies", "Bodies", "Bodies ="},
		{"duplicate add", "Bodies", "owns"},
		{"static add", "Bodies", "static"},
		{"sticky remove", "Bodies", "Bodies ="},
		{"no walls", "Walls", "overlaps"},
		{"no turning", "Turn", "turned"},
		{"no turning", "Arc", "quarter circle"},
		{"raw yaw", "Turn", "NormalizeAngle"},
		{"write in step", "StepReadsOnly", "Step wrote"},
		{"commit all", "StepReadsOnly", "does not own"},
		{"no reset", "Reset", "start pose"},
		{"reset drifts", "Reset", "start pose"},
		{"close error", "Close", "cannot close"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			r := newRecorder()
			checkEngine(r, newKinematic(tc.fault))
			if len(*r.failures) == 0 {
				t.Fatalf("the checks passed an engine with fault %q", tc.fault)
			}
			found := false
			for _, f := range *r.failures {
				if strings.HasPrefix(f, "/"+tc.check) && strings.Contains(f, tc.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no failure of check %s mentions %q; failures:\n%s", tc.check, tc.want, strings.Join(*r.failures, "\n"))
			}
		})
	}
}

func TestNilFactory(t *testing.T) {
	r := newRecorder()
	r.Run("x", func(t tester) { checkEngine(t, nil) })
	if len(*r.failures) != 1 || !strings.Contains((*r.failures)[0], "nil") {
		t.Errorf("failures = %q, want one about the nil factory", *r.failures)
	}
}
