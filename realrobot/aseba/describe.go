package aseba

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
)

// A node's description (Aseba's TargetDescription as the node sends it):
// a Description message with the node's name, protocol version, memory
// sizes and how many named variables, local events and native functions
// follow, then one NamedVariableDescription per variable (its size in
// words and its name), in the order of the node's variable memory, so
// that a variable's address is the sum of the sizes before it. Strings
// are one length byte and that many bytes of UTF-8.

// Description is the head of a node's description.
type Description struct {
	Name            string
	ProtocolVersion uint16
	BytecodeSize    uint16
	StackSize       uint16
	VariablesSize   uint16
	// The counts of the messages that follow.
	NamedVariables, LocalEvents, NativeFunctions uint16
}

// NamedVariable is one variable of a node's description.
type NamedVariable struct {
	Name string
	Size uint16
}

// NodeDescription is a node's description with its variables.
type NodeDescription struct {
	Description
	Variables []NamedVariable
}

// Lookup returns the address and size of the variable called name.
func (d *NodeDescription) Lookup(name string) (address, size uint16, ok bool) {
	var at uint16
	for _, v := range d.Variables {
		if v.Name == name {
			return at, v.Size, true
		}
		at += v.Size
	}
	return 0, 0, false
}

// Names returns the names of the node's variables.
func (d *NodeDescription) Names() []string {
	n := make([]string, len(d.Variables))
	for i, v := range d.Variables {
		n[i] = v.Name
	}
	return n
}

func appendString(b []byte, s string) []byte {
	if len(s) > 255 {
		s = s[:255]
	}
	return append(append(b, byte(len(s))), s...)
}

// reader reads a payload; a read past its end sets err.
type reader struct {
	b   []byte
	err error
}

func (r *reader) u16() uint16 {
	if r.err != nil || len(r.b) < 2 {
		r.err = fmt.Errorf("%w: a payload cut short", ErrCorrupt)
		return 0
	}
	v := binary.LittleEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

func (r *reader) str() string {
	if r.err != nil || len(r.b) < 1 || len(r.b) < 1+int(r.b[0]) {
		r.err = fmt.Errorf("%w: a string cut short", ErrCorrupt)
		return ""
	}
	n := int(r.b[0])
	s := string(r.b[1 : 1+n])
	r.b = r.b[1+n:]
	return s
}

// done checks that the whole payload was read (Aseba's own decoder
// refuses a message it did not read to the end).
func (r *reader) done(what string) error {
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%w: %d bytes after the %s", ErrCorrupt, len(r.b), what)
	}
	return r.err
}

// GetNodeDescription asks node dest for its description.
func GetNodeDescription(source, dest uint16) Message {
	return Message{Source: source, Type: TypeGetNodeDescription, Payload: words(dest, ProtocolVersion)}
}

// DecodeGetNodeDescription decodes a GetNodeDescription message.
func DecodeGetNodeDescription(m Message) (dest, version uint16, err error) {
	if m.Type != TypeGetNodeDescription {
		return 0, 0, fmt.Errorf("%w: not a GetNodeDescription (type %#x)", ErrCorrupt, m.Type)
	}
	r := reader{b: m.Payload}
	dest, version = r.u16(), r.u16()
	return dest, version, r.done("GetNodeDescription")
}

// GetDescription asks every node for its description.
func GetDescription(source uint16) Message {
	return Message{Source: source, Type: TypeGetDescription, Payload: words(ProtocolVersion)}
}

// ListNodes asks every node to say it is present (NodePresent).
func ListNodes(source uint16) Message {
	return Message{Source: source, Type: TypeListNodes, Payload: words(ProtocolVersion)}
}

// NodePresent is a node's answer to ListNodes.
func NodePresent(source uint16) Message {
	return Message{Source: source, Type: TypeNodePresent, Payload: words(ProtocolVersion)}
}

// DecodeVersion decodes the protocol version of GetDescription,
// ListNodes and NodePresent.
func DecodeVersion(m Message) (uint16, error) {
	switch m.Type {
	case TypeGetDescription, TypeListNodes, TypeNodePresent:
	default:
		return 0, fmt.Errorf("%w: type %#x carries no protocol version", ErrCorrupt, m.Type)
	}
	r := reader{b: m.Payload}
	v := r.u16()
	return v, r.done("protocol version")
}

// DescriptionMessage is the head of node source's description.
func DescriptionMessage(source uint16, d Description) Message {
	b := appendString(nil, d.Name)
	for _, w := range []uint16{d.ProtocolVersion, d.BytecodeSize, d.StackSize, d.VariablesSize, d.NamedVariables, d.LocalEvents, d.NativeFunctions} {
		b = binary.LittleEndian.AppendUint16(b, w)
	}
	return Message{Source: source, Type: TypeDescription, Payload: b}
}

// DecodeDescription decodes a Description message.
func DecodeDescription(m Message) (Description, error) {
	var d Description
	if m.Type != TypeDescription {
		return d, fmt.Errorf("%w: not a Description (type %#x)", ErrCorrupt, m.Type)
	}
	r := reader{b: m.Payload}
	d.Name = r.str()
	d.ProtocolVersion, d.BytecodeSize, d.StackSize, d.VariablesSize = r.u16(), r.u16(), r.u16(), r.u16()
	d.NamedVariables, d.LocalEvents, d.NativeFunctions = r.u16(), r.u16(), r.u16()
	return d, r.done("Description")
}

// NamedVariableMessage is one variable of node source's description.
func NamedVariableMessage(source uint16, v NamedVariable) Message {
	b := binary.LittleEndian.AppendUint16(nil, v.Size)
	return Message{Source: source, Type: TypeNamedVariableDescription, Payload: appendString(b, v.Name)}
}

// DecodeNamedVariable decodes a NamedVariableDescription message.
func DecodeNamedVariable(m Message) (NamedVariable, error) {
	var v NamedVariable
	if m.Type != TypeNamedVariableDescription {
		return v, fmt.Errorf("%w: not a NamedVariableDescription (type %#x)", ErrCorrupt, m.Type)
	}
	r := reader{b: m.Payload}
	v.Size = r.u16()
	v.Name = r.str()
	return v, r.done("NamedVariableDescription")
}

// Describe asks the nodes for their descriptions (one GetNodeDescription
// each, sent together) and returns those that arrived whole within the
// link's timeout. A node that gives none (its firmware does not answer
// GetNodeDescription) is missing from the result; that is not an error.
func (l *Link) Describe(nodes []uint16) (map[uint16]*NodeDescription, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.ensure(); err != nil {
		return nil, err
	}
	wanted := map[uint16]bool{}
	l.wmu.Lock()
	l.out = l.out[:0]
	for _, n := range nodes {
		if !wanted[n] {
			wanted[n] = true
			l.out = GetNodeDescription(l.a.HostID, n).Append(l.out)
		}
	}
	_, err := l.c.Write(l.out)
	l.wmu.Unlock()
	if err != nil {
		l.drop(err)
		return nil, err
	}
	got := map[uint16]*NodeDescription{}
	complete := map[uint16]*NodeDescription{}
	if err := l.c.SetReadDeadline(time.Now().Add(l.timeout)); err != nil {
		l.drop(err)
		return nil, err
	}
	for len(complete) < len(wanted) {
		// Waiting for the next message may time out cleanly; a timeout
		// inside a message puts the stream out of step.
		if _, err := l.r.Peek(1); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				break
			}
			l.drop(err)
			return nil, err
		}
		m, err := Read(l.r)
		if err != nil {
			l.drop(err)
			return nil, err
		}
		if !wanted[m.Source] || complete[m.Source] != nil {
			continue
		}
		switch m.Type {
		case TypeDescription:
			d, err := DecodeDescription(m)
			if err != nil {
				l.log.Warnf("node %d: %v", m.Source, err)
				continue
			}
			got[m.Source] = &NodeDescription{Description: d}
		case TypeNamedVariableDescription:
			nd := got[m.Source]
			if nd == nil {
				continue
			}
			v, err := DecodeNamedVariable(m)
			if err != nil {
				l.log.Warnf("node %d: %v", m.Source, err)
				delete(got, m.Source)
				continue
			}
			nd.Variables = append(nd.Variables, v)
		default:
			continue
		}
		if nd := got[m.Source]; nd != nil && len(nd.Variables) == int(nd.NamedVariables) {
			complete[m.Source] = nd
		}
	}
	return complete, nil
}

// ResolveError lists the variables of a board's mapping that a node's
// description contradicts, by role.
type ResolveError struct {
	Roles    []string
	Problems []string
}

func (e *ResolveError) Error() string {
	return "aseba: the nodes' descriptions do not match the board's mapping: " + strings.Join(e.Problems, "; ") +
		"; the mapping (package boards) must name the variables the firmware has"
}

// Has reports whether the variable of role could not be resolved.
func (e *ResolveError) Has(role string) bool { return slices.Contains(e.Roles, role) }

// Resolve finds each variable of vars by its name in its node's
// description, which gives its address: the board's fixed Address stays
// only for the nodes that give no description (it is logged). A variable
// that a description lacks, or describes smaller than the mapping needs,
// is an error (a *ResolveError); its fixed address is kept in the
// result.
func (l *Link) Resolve(vars []boards.AsebaVar) ([]boards.AsebaVar, error) {
	var nodes []uint16
	for _, v := range vars {
		if !slices.Contains(nodes, v.Node) {
			nodes = append(nodes, v.Node)
		}
	}
	descs, err := l.Describe(nodes)
	if err != nil {
		return vars, err
	}
	out := slices.Clone(vars)
	var re ResolveError
	for _, n := range nodes {
		d := descs[n]
		if d == nil {
			l.log.Infof("node %d gave no description within %v: using the board's fixed addresses for its variables", n, l.timeout)
			continue
		}
		for i := range out {
			v := &out[i]
			if v.Node != n {
				continue
			}
			if v.NodeName != "" && d.Name != v.NodeName {
				l.log.Warnf("node %d calls itself %q, the board's mapping %q", n, d.Name, v.NodeName)
			}
			addr, size, ok := d.Lookup(v.Name)
			switch {
			case !ok:
				msg := fmt.Sprintf("node %d (%s) has no variable %q for %s", n, d.Name, v.Name, v.Role)
				msg += ci.DidYouMean(v.Name, d.Names(), "%q")
				re.Roles, re.Problems = append(re.Roles, v.Role), append(re.Problems, msg)
			case int(size) < v.Size:
				re.Roles = append(re.Roles, v.Role)
				re.Problems = append(re.Problems, fmt.Sprintf("node %d (%s) describes %q with %d words, %s needs %d", n, d.Name, v.Name, size, v.Role, v.Size))
			default:
				if addr != v.Address {
					l.log.Debugf("%s: node %d's %q is at address %d (the fixed map says %d)", v.Role, n, v.Name, addr, v.Address)
				}
				v.Address = addr
			}
		}
	}
	if len(re.Roles) > 0 {
		return out, &re
	}
	return out, nil
}
