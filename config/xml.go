package config

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxDepth is how deeply elements may nest in an experiment file. Real
// files nest less than ten levels; the limit keeps recursive walks over
// the tree (such as [Node.Params]) cheap on hostile input.
const MaxDepth = 256

// ParseTree reads XML into a tree of [Node]s, each with its file and line.
// It checks only XML well-formedness: one root element, matching tags, no
// attribute given twice. [Parse] builds on it.
func ParseTree(file string, data []byte) (*Node, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: file, Msg: "the file is empty; an experiment file holds an <argos-configuration> element"}
	}
	if err := checkRuns(file, data); err != nil {
		return nil, err
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = charsetReader

	var (
		root     *Node
		stack    []*Node
		text     []*strings.Builder // character data of the open elements
		elements int
	)
	for {
		line, _ := d.InputPos() // the next token starts here
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, xmlError(file, line, err, stack, data)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := xmlName(t.Name)
			if len(stack) == 0 && root != nil {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf(
					"a second top-level element <%s> after </%s> (line %d); a file has exactly one root element: move <%s> inside <%s>",
					name, root.Name, root.Line, name, root.Name)}
			}
			if len(stack) >= MaxDepth {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf(
					"<%s> is nested more than %d elements deep; flatten the file", name, MaxDepth)}
			}
			if elements++; elements > MaxElements {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf(
					"the file holds more than %d elements; place many entities with <distribute> instead of listing them", MaxElements)}
			}
			if err := checkNames(file, line, name, t.Attr); err != nil {
				return nil, err
			}
			n := &Node{Name: name, File: file, Line: line}
			if len(t.Attr) > 0 {
				n.Attrs = make([]Attr, 0, len(t.Attr))
			}
			var seen map[string]bool // only for elements with many attributes
			if len(t.Attr) > 8 {
				seen = make(map[string]bool, len(t.Attr))
			}
			for _, a := range t.Attr {
				an := xmlName(a.Name)
				var dup bool
				if seen != nil {
					dup = seen[an]
					seen[an] = true
				} else {
					dup = n.Has(an)
				}
				if dup {
					return nil, n.Errorf("attribute %q is given twice; keep only one", an)
				}
				n.Attrs = append(n.Attrs, Attr{Name: an, Value: a.Value})
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				n.parent = p
				p.Children = append(p.Children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
			text = append(text, new(strings.Builder))
		case xml.EndElement:
			name := xmlName(t.Name)
			if len(stack) == 0 {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf(
					"closing tag </%s> without an opening tag; remove it", name)}
			}
			n := stack[len(stack)-1]
			if n.Name != name {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf(
					"closing tag </%s> does not match <%s> opened at line %d; close <%s> first with </%s>",
					name, n.Name, n.Line, n.Name, n.Name)}
			}
			n.Text = strings.TrimSpace(text[len(text)-1].String())
			stack = stack[:len(stack)-1]
			text = text[:len(text)-1]
		case xml.CharData:
			if len(stack) > 0 {
				text[len(text)-1].Write(t)
				continue
			}
			if s := strings.TrimSpace(string(t)); s != "" {
				where := "before the root element"
				if root != nil {
					where = fmt.Sprintf("after </%s>", root.Name)
				}
				return nil, &Error{File: file, Line: line + leadingNewlines(string(t)), Msg: fmt.Sprintf(
					"text %q %s; this does not look like an experiment file: it must hold one <argos-configuration> element and nothing else",
					clip(s, 40), where)}
			}
		}
	}
	if len(stack) > 0 {
		return nil, truncated(file, stack)
	}
	if root == nil {
		return nil, &Error{File: file, Msg: "the file holds no XML element; an experiment file holds an <argos-configuration> element"}
	}
	return root, nil
}

// checkNames refuses element and attribute names longer than MaxNameLen
// and ids longer than MaxIDLen.
func checkNames(file string, line int, name string, attrs []xml.Attr) error {
	if len(name) > MaxNameLen {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(
			"element <%s> has a name of %d bytes; names may be at most %d bytes: fix the tag", quoted(name), len(name), MaxNameLen)}
	}
	for _, a := range attrs {
		an := xmlName(a.Name)
		if len(an) > MaxNameLen {
			return &Error{File: file, Line: line, Msg: fmt.Sprintf(
				"<%s>: attribute %q has a name of %d bytes; names may be at most %d bytes: fix the attribute", name, quoted(an), len(an), MaxNameLen)}
		}
		if an == "id" && len(a.Value) > MaxIDLen {
			return &Error{File: file, Line: line, Msg: fmt.Sprintf(
				"<%s>: attribute id=%q is %d bytes long; ids may be at most %d bytes: shorten it", name, quoted(a.Value), len(a.Value), MaxIDLen)}
		}
	}
	return nil
}

func xmlName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// leadingNewlines counts the lines before the first non-space character.
func leadingNewlines(s string) int {
	i := strings.IndexFunc(s, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' })
	if i < 0 {
		i = len(s)
	}
	return strings.Count(s[:i], "\n")
}

// clip shortens s to at most n runes for quoting in messages.
func clip(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i >= len(s) {
		return s
	}
	return s[:i] + "..."
}

func truncated(file string, stack []*Node) error {
	n := stack[len(stack)-1]
	var closes strings.Builder
	for i := len(stack) - 1; i >= 0; i-- {
		closes.WriteString("</" + stack[i].Name + ">")
	}
	return &Error{File: file, Line: n.Line, Msg: fmt.Sprintf(
		"<%s> is never closed: the file ends first; the file may be truncated, or a closing tag is missing (the open elements need %s)",
		n.Name, closes.String())}
}

// xmlError turns a decoder error into an *Error with a hint.
func xmlError(file string, line int, err error, stack []*Node, data []byte) error {
	var serr *xml.SyntaxError
	if errors.As(err, &serr) {
		if serr.Msg == "unexpected EOF" {
			if len(stack) > 0 {
				n := stack[len(stack)-1]
				return &Error{File: file, Line: serr.Line, Err: err, Msg: fmt.Sprintf(
					"the file ends in the middle of a tag or comment inside <%s> (line %d); the file may be truncated: complete it",
					n.Name, n.Line)}
			}
			return &Error{File: file, Line: serr.Line, Err: err,
				Msg: "the file ends in the middle of a tag or comment; the file may be truncated: complete it"}
		}
		errLine := serr.Line
		if serr.Msg == "invalid UTF-8" {
			// The decoder notices at the end of the text; point at the byte.
			errLine = invalidUTF8Line(data, errLine)
		}
		return &Error{File: file, Line: errLine, Err: err,
			Msg: "malformed XML (" + shorten(serr.Msg) + "); " + syntaxHint(serr.Msg)}
	}
	var cerr *charsetError
	if errors.As(err, &cerr) {
		return &Error{File: file, Line: line, Err: err, Msg: fmt.Sprintf(
			"the file declares encoding=%q, which is not supported; save it as UTF-8 and write encoding=\"UTF-8\"", quoted(cerr.label))}
	}
	return &Error{File: file, Line: line, Err: err, Msg: "cannot read the XML: " + shorten(err.Error())}
}

// invalidUTF8Line returns the line of the first byte of data that is not
// UTF-8, or def when there is none.
func invalidUTF8Line(data []byte, def int) int {
	line := 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		data = data[size:]
	}
	return def
}

func syntaxHint(msg string) string {
	switch {
	case strings.Contains(msg, "UTF-8"):
		return "save the file as UTF-8"
	case strings.Contains(msg, "attribute value"), strings.Contains(msg, "without ="):
		return `write attributes as name="value", in double or single quotes`
	case strings.Contains(msg, "entity"), strings.Contains(msg, "character reference"):
		return "write & as &amp; and < as &lt;"
	case strings.Contains(msg, "element name"), strings.Contains(msg, "after <"):
		return "write < as &lt; outside tags"
	case strings.Contains(msg, "--"):
		return `comments are written <!-- like this --> and may not contain "--"`
	}
	return "fix the XML syntax at this line"
}

// charsetError is returned for an encoding declaration we cannot read.
type charsetError struct{ label string }

func (e *charsetError) Error() string {
	return fmt.Sprintf("config: encoding %q is not supported; save the file as UTF-8", e.label)
}

// charsetReader reads the encodings that old .argos files declare besides
// UTF-8: US-ASCII and ISO-8859-1 (Latin-1).
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "utf8", "us-ascii", "ascii":
		return input, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		raw, err := io.ReadAll(input)
		if err != nil {
			return nil, err
		}
		out := make([]rune, len(raw))
		for i, b := range raw {
			out[i] = rune(b)
		}
		return strings.NewReader(string(out)), nil
	}
	return nil, &charsetError{label: label}
}
