package config

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Rewriting an experiment file in place. The run folder's copy of the
// experiment (the seed and length it ran with) and a sweep's cells (the
// parameters it varies) are the file the user wrote with a few attribute
// values changed: they are made by editing the bytes of the file, so that
// its comments, layout and line numbers stay as they were. The elements
// are found from the Node the parser made (its name and line).

// StartTag finds the start tag of element n in data, the text n was
// parsed from: the nth element (counting from 0) with n's name from the
// start of n's line, outside comments, CDATA sections and processing
// instructions. It returns the offsets of '<' and of the '>' that closes
// the tag, or of the '/' of "/>" when the element is empty.
func StartTag(data []byte, n *Node, nth int) (lt, gt int, err error) {
	off := 0
	for line := 1; line < n.Line; line++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return 0, 0, fmt.Errorf("config: cannot find line %d of the experiment", n.Line)
		}
		off += i + 1
	}
	// a comment may have begun on an earlier line and end on this one
	for i := 0; i < off; {
		j := bytes.IndexByte(data[i:off], '<')
		if j < 0 {
			break
		}
		i += j
		if k := skipMarkup(data, i); k > i {
			i = k
			off = max(off, i)
			continue
		}
		i++
	}
	tag := []byte("<" + n.Name)
	lt = -1
	for i := off; i < len(data); {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if k := skipMarkup(data, i); k > i {
			i = k
			continue
		}
		if startsElement(data, i, tag) {
			if nth == 0 {
				lt = i
				break
			}
			nth--
		}
		i++
	}
	if lt < 0 {
		return 0, 0, fmt.Errorf("config: cannot find <%s> of line %d in the experiment", n.Name, n.Line)
	}
	if gt = tagEnd(data, lt); gt < len(data) {
		if data[gt-1] == '/' {
			gt--
		}
		return lt, gt, nil
	}
	return 0, 0, fmt.Errorf("config: <%s> of line %d is not closed", n.Name, n.Line)
}

// SetAttr returns data with attribute name of the start tag data[lt:gt]
// (as StartTag returns it) set to value, escaped, or added at the tag's
// end when the tag does not have it.
func SetAttr(data []byte, lt, gt int, name, value string) []byte {
	value = attrEscaper.Replace(value)
	tag := data[lt:gt]
	var quote byte
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '"' || c == '\'' {
			quote = c
			continue
		}
		if !isSpace(c) || !bytes.HasPrefix(tag[i+1:], []byte(name)) {
			continue
		}
		j := skipSpace(tag, i+1+len(name))
		if j >= len(tag) || tag[j] != '=' {
			continue
		}
		j = skipSpace(tag, j+1)
		if j >= len(tag) || (tag[j] != '"' && tag[j] != '\'') {
			continue
		}
		end := bytes.IndexByte(tag[j+1:], tag[j])
		if end < 0 {
			break
		}
		v := value
		if tag[j] == '\'' {
			v = strings.ReplaceAll(value, "'", "&apos;")
		}
		vs, ve := lt+j+1, lt+j+1+end
		return concat(data[:vs], []byte(v), data[ve:])
	}
	at := gt
	for at > lt && isSpace(data[at-1]) {
		at--
	}
	return concat(data[:at], []byte(` `+name+`="`+value+`"`), data[at:])
}

// RenameElement returns data with the element whose start tag is
// data[lt:gt] (as StartTag returns it), of name old, renamed to name, in
// its end tag too.
func RenameElement(data []byte, old string, lt, gt int, name string) ([]byte, error) {
	if !tagName.MatchString(name) {
		return nil, fmt.Errorf("config: %q is not a tag name", quoted(name))
	}
	start := lt + 1
	if data[gt] == '/' {
		return concat(data[:start], []byte(name), data[start+len(old):]), nil
	}
	// the matching end tag, counting nested elements of the same name
	depth := 0
	open, closing := []byte("<"+old), []byte("</"+old)
	for i := gt + 1; i < len(data); {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if k := skipMarkup(data, i); k > i {
			i = k
			continue
		}
		switch {
		case startsElement(data, i, closing):
			if depth == 0 {
				return concat(data[:start], []byte(name), data[start+len(old):i+2], []byte(name), data[i+len(closing):]), nil
			}
			depth--
		case startsElement(data, i, open):
			// a nested element of the same name; empty ones do not nest
			if k := tagEnd(data, i); k < len(data) && data[k-1] != '/' {
				depth++
			}
		}
		i++
	}
	return nil, errors.New("config: the end tag of <" + old + "> is missing")
}

var (
	tagName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;")
)

// skipMarkup returns the offset after the comment, CDATA section or
// processing instruction that starts at data[i], or i.
func skipMarkup(data []byte, i int) int {
	for _, d := range [][2]string{{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}} {
		if bytes.HasPrefix(data[i:], []byte(d[0])) {
			j := bytes.Index(data[i+len(d[0]):], []byte(d[1]))
			if j < 0 {
				return len(data)
			}
			return i + len(d[0]) + j + len(d[1])
		}
	}
	return i
}

// startsElement reports whether data[i:] starts with prefix ("<name" or
// "</name") followed by the end of the name.
func startsElement(data []byte, i int, prefix []byte) bool {
	k := i + len(prefix)
	if !bytes.HasPrefix(data[i:], prefix) || k >= len(data) {
		return false
	}
	c := data[k]
	return isSpace(c) || c == '/' || c == '>'
}

// tagEnd returns the offset of the '>' that closes the tag starting at
// data[lt] (quotes respected), or len(data).
func tagEnd(data []byte, lt int) int {
	var quote byte
	for k := lt; k < len(data); k++ {
		switch c := data[k]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return k
		}
	}
	return len(data)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, j int) int {
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	return j
}

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
