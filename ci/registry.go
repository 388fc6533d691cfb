package ci

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Registry maps names to registered things (controller factories here;
// the simulator uses the same type for entities, devices, engines, loop
// functions and visualizations). It refuses duplicates and is safe for
// concurrent use.
//
// Every entry remembers the package that registered it, so that two
// imported packages claiming one name (a port of an ARGoS example under
// ARGoS's own label next to this repository's example, say) are reported
// by name instead of crashing the program: see [Registry.MustRegister]
// and [Registry.Err].
type Registry[T any] struct {
	kind  string
	mu    sync.RWMutex
	items map[string]Entry[T]
	// clashes lists, by name, the packages of the registrations refused
	// by MustRegister after the first one.
	clashes map[string][]string
}

// Entry is one registered thing with the help text that `argos -q` shows.
type Entry[T any] struct {
	Name        string
	Description string
	Value       T
	// Package is the import path of the package that registered it.
	Package string
}

// NewRegistry returns an empty registry; kind names what it holds in
// error messages ("controller", "physics engine").
func NewRegistry[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, items: map[string]Entry[T]{}}
}

// Register adds v under name. A second registration of the same name is
// refused with an error that names both packages.
func (r *Registry[T]) Register(name, description string, v T) error {
	_, err := r.register(name, description, v, callerPackage())
	return err
}

func (r *Registry[T]) register(name, description string, v T, pkg string) (dup bool, err error) {
	if name == "" {
		return false, fmt.Errorf("ci: cannot register a %s with an empty name (package %s)", r.kind, pkg)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.items[name]; ok {
		return true, r.clashError(name, []string{prev.Package, pkg})
	}
	r.items[name] = Entry[T]{Name: name, Description: description, Value: v, Package: pkg}
	return false, nil
}

func (r *Registry[T]) clashError(name string, pkgs []string) error {
	if pkgs[0] == pkgs[len(pkgs)-1] && len(pkgs) == 2 {
		return fmt.Errorf("ci: %s %q is registered twice by package %s; register it once", r.kind, name, pkgs[0])
	}
	return fmt.Errorf("ci: %s %q is registered by %d packages: %s; import only one of them, or rename the label in one",
		r.kind, name, len(pkgs), strings.Join(pkgs, " and "))
}

// MustRegister is Register for init functions. A registration under a
// name already taken is not made; instead of crashing at start-up (the
// two packages are often both imported on purpose by a program's main),
// the clash is kept: Lookup of that name and Err report it with both
// packages. An empty name is a programming error and panics.
func (r *Registry[T]) MustRegister(name, description string, v T) {
	r.mustRegister(name, description, v, callerPackage())
}

func (r *Registry[T]) mustRegister(name, description string, v T, pkg string) {
	dup, err := r.register(name, description, v, pkg)
	if err == nil {
		return
	}
	if !dup {
		panic(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.clashes == nil {
		r.clashes = map[string][]string{}
	}
	if len(r.clashes[name]) == 0 {
		r.clashes[name] = []string{r.items[name].Package}
	}
	r.clashes[name] = append(r.clashes[name], pkg)
}

// Err reports every name that more than one MustRegister claimed, with
// the packages that did; nil when there is none. Programs check it at
// start-up.
func (r *Registry[T]) Err() error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.clashes))
	for n := range r.clashes {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, n := range names {
		errs = append(errs, r.clashError(n, r.clashes[n]))
	}
	return errors.Join(errs...)
}

// Lookup returns the thing registered under name. A name claimed by two
// packages is an error that names them.
func (r *Registry[T]) Lookup(name string) (T, error) {
	r.mu.RLock()
	e, ok := r.items[name]
	clash := r.clashes[name]
	r.mu.RUnlock()
	var zero T
	if len(clash) > 0 {
		return zero, r.clashError(name, clash)
	}
	if !ok {
		names := r.Names()
		known := "none are registered"
		if len(names) > 0 {
			known = "known: " + strings.Join(names, ", ")
		}
		return zero, fmt.Errorf("ci: unknown %s %q (%s); check the spelling, or import the package that registers it", r.kind, name, known)
	}
	return e.Value, nil
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.items))
	for n := range r.items {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Entries returns the registered entries, sorted by name.
func (r *Registry[T]) Entries() []Entry[T] {
	names := r.Names()
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Entry[T], 0, len(names))
	for _, n := range names {
		out = append(out, r.items[n])
	}
	return out
}

// callerPackage returns the import path of the package that called into
// this package's registration functions.
func callerPackage() string {
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if pkg := funcPackage(f.Function); pkg != "" && pkg != thisPackage {
			return pkg
		}
		if !more {
			return "unknown package"
		}
	}
}

const thisPackage = "github.com/argosgo/argos/ci"

// funcPackage returns the package path of a function name as the runtime
// spells it ("example.com/x/y.init.0", "a/b.(*T[...]).M").
func funcPackage(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// ControllerFactory makes a fresh, uninitialised controller.
type ControllerFactory func() Controller

// Controllers is the registry of controllers by the label .argos files use
// (the tag of the controller element, e.g. "footbot_diffusion_controller").
var Controllers = NewRegistry[ControllerFactory]("controller")

// RegisterController registers a controller factory under its label.
// Call it from the controller package's init function (MustRegister
// there) and keep a plain constructor next to it.
func RegisterController(label, description string, f ControllerFactory) error {
	return Controllers.Register(label, description, f)
}
