package ci

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry maps names to registered things (controller factories here;
// the simulator uses the same type for entities, devices, engines, loop
// functions and visualizations). It refuses duplicates and is safe for
// concurrent use.
type Registry[T any] struct {
	kind  string
	mu    sync.RWMutex
	items map[string]Entry[T]
}

// Entry is one registered thing with the help text that `argos -q` shows.
type Entry[T any] struct {
	Name        string
	Description string
	Value       T
}

// NewRegistry returns an empty registry; kind names what it holds in
// error messages ("controller", "physics engine").
func NewRegistry[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, items: map[string]Entry[T]{}}
}

// Register adds v under name. A second registration of the same name is
// refused with an error.
func (r *Registry[T]) Register(name, description string, v T) error {
	if name == "" {
		return fmt.Errorf("ci: cannot register a %s with an empty name", r.kind)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.items[name]; dup {
		return fmt.Errorf("ci: %s %q is already registered; pick another name", r.kind, name)
	}
	r.items[name] = Entry[T]{Name: name, Description: description, Value: v}
	return nil
}

// MustRegister is Register for init functions: a duplicate is a
// programming error and panics.
func (r *Registry[T]) MustRegister(name, description string, v T) {
	if err := r.Register(name, description, v); err != nil {
		panic(err)
	}
}

// Lookup returns the thing registered under name.
func (r *Registry[T]) Lookup(name string) (T, error) {
	r.mu.RLock()
	e, ok := r.items[name]
	r.mu.RUnlock()
	if !ok {
		var zero T
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
