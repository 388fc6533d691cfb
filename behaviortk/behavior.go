package behaviortk

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Behavior is one piece of robot behaviour: Step reads the state's
// readings and sets (or overrides) its outputs.
type Behavior interface {
	Step(s *State)
}

// Func adapts a function to a Behavior.
type Func func(s *State)

// Step implements Behavior.
func (f Func) Step(s *State) { f(s) }

// Resetter is implemented by behaviours with memory of their own; the
// combiners and the Controller pass Reset down to them.
type Resetter interface {
	Reset()
}

func reset(b Behavior) {
	if r, ok := b.(Resetter); ok {
		r.Reset()
	}
}

// Sequence runs its behaviours in order on the same state. A later
// behaviour sees what the earlier ones wrote and may override it, so the
// last word has the highest priority (subsumption by order).
type Sequence []Behavior

// Step implements Behavior.
func (q Sequence) Step(s *State) {
	for _, b := range q {
		b.Step(s)
	}
}

// Reset implements Resetter.
func (q Sequence) Reset() {
	for _, b := range q {
		reset(b)
	}
}

// MergeFunc combines the states the children of a Parallel produced into
// dst (which holds the state before they ran).
type MergeFunc func(dst *State, children []*State)

// Parallel runs each child on its own copy of the state; Merge combines
// the copies. Children cannot see each other's outputs.
type Parallel struct {
	Children []Behavior
	Merge    MergeFunc
	copies   []*State
}

// NewParallel returns a Parallel of the children merged by merge.
func NewParallel(merge MergeFunc, children ...Behavior) *Parallel {
	return &Parallel{Children: children, Merge: merge}
}

// Step implements Behavior.
func (p *Parallel) Step(s *State) {
	for len(p.copies) < len(p.Children) {
		p.copies = append(p.copies, &State{})
	}
	for i, c := range p.Children {
		s.CopyTo(p.copies[i])
		c.Step(p.copies[i])
	}
	p.Merge(s, p.copies[:len(p.Children)])
}

// Reset implements Resetter.
func (p *Parallel) Reset() {
	for _, c := range p.Children {
		reset(c)
	}
}

// AverageWheels is a MergeFunc that averages the children's wheel speeds
// and takes the other outputs from the last child that set them.
func AverageWheels(dst *State, children []*State) {
	if len(children) == 0 {
		return
	}
	l, r := 0.0, 0.0
	for _, c := range children {
		l += c.Out.Left
		r += c.Out.Right
	}
	last := children[len(children)-1]
	rab := dst.Out.RAB
	dst.Out = last.Out
	dst.Out.RAB = append(rab[:0], last.Out.RAB...)
	dst.Out.Left, dst.Out.Right = l/float64(len(children)), r/float64(len(children))
	for _, c := range children {
		if c.Out.LEDsSet {
			dst.Out.LEDColor, dst.Out.LEDsSet = c.Out.LEDColor, true
		}
		if c.Out.Grip != GripKeep {
			dst.Out.Grip = c.Out.Grip
		}
	}
}

// ErrUnknownInput is returned by FSM.Fire for an input no transition uses.
var ErrUnknownInput = errors.New("behaviortk: unknown input")

// FSM is a finite-state machine of behaviours. Each named state has a
// behaviour that runs while the machine is in it; transitions move from a
// state to another when an input is fired. Inputs come from outside
// (Fire) or from conditions checked at every step (When).
type FSM struct {
	start      string
	current    string
	states     map[string]Behavior
	order      []string
	next       map[string]map[string]string // state -> input -> state
	inputs     map[string]bool
	conditions []condition
	onChange   func(from, to, input string)
	err        error
}

type condition struct {
	input string
	test  func(s *State) bool
}

// NewFSM returns a machine that starts in state start.
func NewFSM(start string) *FSM {
	return &FSM{start: start, current: start, states: map[string]Behavior{},
		next: map[string]map[string]string{}, inputs: map[string]bool{}}
}

// State adds a named state with its behaviour (nil: do nothing).
func (m *FSM) State(name string, b Behavior) *FSM {
	if _, dup := m.states[name]; dup {
		m.fail(fmt.Errorf("behaviortk: state %q is defined twice", name))
	}
	if b == nil {
		b = Func(func(*State) {})
	}
	m.states[name] = b
	m.order = append(m.order, name)
	return m
}

// Transition moves from state from to state to when input is fired.
func (m *FSM) Transition(from, input, to string) *FSM {
	if m.next[from] == nil {
		m.next[from] = map[string]string{}
	}
	if prev, dup := m.next[from][input]; dup && prev != to {
		m.fail(fmt.Errorf("behaviortk: input %q from state %q goes to both %q and %q", input, from, prev, to))
	}
	m.next[from][input] = to
	m.inputs[input] = true
	return m
}

// When fires input at the start of every step in which test holds (tests
// are tried in the order they were added; the first that holds and has a
// transition from the current state fires).
func (m *FSM) When(input string, test func(s *State) bool) *FSM {
	m.conditions = append(m.conditions, condition{input, test})
	return m
}

// OnChange calls fn after every transition (for logging).
func (m *FSM) OnChange(fn func(from, to, input string)) *FSM {
	m.onChange = fn
	return m
}

func (m *FSM) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

// Validate reports a machine that cannot work: duplicate states or
// transitions, a start state or a transition naming a state that does not
// exist, an input of When that no transition uses.
func (m *FSM) Validate() error {
	if m.err != nil {
		return m.err
	}
	if _, ok := m.states[m.start]; !ok {
		return fmt.Errorf("behaviortk: start state %q is not defined (states: %s)", m.start, strings.Join(m.order, ", "))
	}
	for from, tr := range m.next {
		if _, ok := m.states[from]; !ok {
			return fmt.Errorf("behaviortk: a transition leaves undefined state %q", from)
		}
		for in, to := range tr {
			if _, ok := m.states[to]; !ok {
				return fmt.Errorf("behaviortk: input %q from %q leads to undefined state %q", in, from, to)
			}
		}
	}
	for _, c := range m.conditions {
		if !m.inputs[c.input] {
			return fmt.Errorf("behaviortk: When(%q) fires an input no transition uses", c.input)
		}
	}
	return nil
}

// Current returns the name of the current state.
func (m *FSM) Current() string { return m.current }

// Fire applies input: the machine moves if the current state has a
// transition for it and reports whether it did. An input that no
// transition uses at all is an error (a typo, most likely); an input the
// current state does not react to is not.
func (m *FSM) Fire(input string) (bool, error) {
	if !m.inputs[input] {
		known := make([]string, 0, len(m.inputs))
		for in := range m.inputs {
			known = append(known, in)
		}
		sort.Strings(known)
		return false, fmt.Errorf("%w %q (inputs: %s)", ErrUnknownInput, input, strings.Join(known, ", "))
	}
	to, ok := m.next[m.current][input]
	if !ok {
		return false, nil
	}
	from := m.current
	m.current = to
	if m.onChange != nil {
		m.onChange(from, to, input)
	}
	return true, nil
}

// Step implements Behavior: the first condition that holds and moves the
// machine fires, then the current state's behaviour runs.
func (m *FSM) Step(s *State) {
	for _, c := range m.conditions {
		if _, ok := m.next[m.current][c.input]; ok && c.test(s) {
			m.Fire(c.input)
			break
		}
	}
	if b := m.states[m.current]; b != nil {
		b.Step(s)
	}
}

// Reset implements Resetter: back to the start state.
func (m *FSM) Reset() {
	m.current = m.start
	for _, b := range m.states {
		reset(b)
	}
}
