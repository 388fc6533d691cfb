package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"
)

// Limits on what an experiment may hold. Within them an experiment loads
// in bounded time and memory; past them the input is refused with an
// error that names the limit, before anything large is allocated. Each is
// far above what real experiments use (the largest shipped experiment
// places 100,000 robots from a 3 KB file).
const (
	// MaxFileSize is the largest experiment file, in bytes (64 MiB).
	MaxFileSize = 64 << 20
	// MaxElements is how many elements an experiment file may hold.
	MaxElements = 1_000_000
	// MaxTagLen is the longest run of a file between two '<', in bytes:
	// a tag with its attributes, or the text between two tags (1 MiB).
	// It bounds every attribute value; checking it takes a scan of the
	// bytes, so that a file with a huge value is refused at once.
	MaxTagLen = 1 << 20
	// MaxNameLen is the longest element or attribute name, in bytes.
	MaxNameLen = 256
	// MaxIDLen is the longest id attribute, in bytes; the ids of the
	// copies a <distribute> makes add their number to it.
	MaxIDLen = 256
	// MaxThreads is the largest <system threads> (and --threads).
	MaxThreads = 1024
	// MaxEntities is how many entities one <distribute> may place, and
	// how many the <distribute>s of an arena may place in all (the
	// simulator checks the sum).
	MaxEntities = 1_000_000
	// MaxTrials is the largest <entity max_trials> of a <distribute>.
	MaxTrials = 1_000_000
)

// Messages quote at most maxQuote runes of a value, and print at most
// maxMessage bytes in all: a broken file with a 50 MB attribute gets a
// message of a few lines.
const (
	maxQuote   = 64
	maxArg     = 1024 // longer string arguments of Errorf are clipped to maxQuote
	maxMessage = 4096
)

// ReadFile returns the contents of the experiment file at path. It refuses
// anything but a regular file (a directory, a device such as /dev/zero,
// a named pipe) and files larger than [MaxFileSize], before reading.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			wd, _ := os.Getwd()
			return nil, fmt.Errorf("config: experiment file %q does not exist (looked relative to %q); check the path: %w", clip(path, maxArg), wd, err)
		}
		return nil, fmt.Errorf("config: cannot read experiment file %q; check that it is a readable file: %w", clip(path, maxArg), err)
	}
	if err := CheckRegular(path, st, MaxFileSize, "experiment file", "an .argos file"); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: cannot read experiment file %q; check that it is a readable file: %w", clip(path, maxArg), err)
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead) // one allocation, room to see the end
	_, err = buf.ReadFrom(io.LimitReader(f, MaxFileSize+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("config: cannot read experiment file %q: %w", clip(path, maxArg), err)
	}
	if len(data) > MaxFileSize { // it grew since Stat
		return nil, tooLarge(path, int64(len(data)), MaxFileSize, "experiment file")
	}
	return data, nil
}

// CheckRegular returns an error unless st (from os.Stat of path) is a
// regular file of at most limit bytes; what names the file in the
// message ("floor image") and want says what to give instead.
// Simulator plug-ins that read files named by an experiment use it, so
// that a path to /dev/zero or a named pipe cannot hang or exhaust a run.
func CheckRegular(path string, st fs.FileInfo, limit int64, what, want string) error {
	if m := st.Mode(); !m.IsRegular() {
		return fmt.Errorf("config: %s %q is %s, not a regular file; give the path of %s",
			what, clip(path, maxArg), fileKind(m), want)
	}
	if st.Size() > limit {
		return tooLarge(path, st.Size(), limit, what)
	}
	return nil
}

func tooLarge(path string, size, limit int64, what string) error {
	return fmt.Errorf("config: %s %q is %d bytes long, over the limit of %s; check that it is the right file",
		what, clip(path, maxArg), size, bytesText(limit))
}

// fileKind names the type of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// bytesText writes a size as "12 bytes", "3.5 MiB".
func bytesText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.4g KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.4g MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.4g GiB", float64(n)/(1<<30))
}

// quoted shortens a value for quoting in a message: at most maxQuote
// runes, followed by how long the whole value is.
func quoted(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	return clip(s, maxQuote) + fmt.Sprintf(" (%d bytes in all)", len(s))
}

// shorten returns s, or quoted(s) when s is longer than maxArg bytes.
func shorten(s string) string {
	if len(s) <= maxArg {
		return s
	}
	return quoted(s)
}

// clipArgs shortens the long string arguments of a message, so that a
// caller quoting a huge attribute value gets a readable message.
func clipArgs(args []any) []any {
	var out []any
	for i, a := range args {
		s, ok := a.(string)
		if !ok || len(s) <= maxArg {
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = shorten(s)
	}
	if out == nil {
		return args
	}
	return out
}

// capMessage keeps the start and the end (where messages say what to do)
// of a message longer than maxMessage bytes.
func capMessage(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	head, tail := s[:maxMessage/2], s[len(s)-maxMessage/4:]
	for len(head) > 0 && !utf8.RuneStart(s[len(head)]) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	var b strings.Builder
	b.Grow(len(head) + len(tail) + 48)
	b.WriteString(head)
	fmt.Fprintf(&b, " [... %d bytes left out ...] ", len(s)-len(head)-len(tail))
	b.WriteString(tail)
	return b.String()
}

// checkRuns refuses a file in which more than MaxTagLen bytes separate two
// '<' (or the start or end of the file from one): no attribute value,
// name or text may then be longer. The scan runs at memory speed, far
// faster than the XML decoder would take to reach the end of a huge value.
func checkRuns(file string, data []byte) error {
	for start := 0; start < len(data); {
		next := bytes.IndexByte(data[start+1:], '<')
		end := len(data)
		if next >= 0 {
			end = start + 1 + next
		}
		if end-start > MaxTagLen {
			line := 1 + bytes.Count(data[:start], []byte("\n"))
			return &Error{File: file, Line: line, Msg: fmt.Sprintf(
				"%q runs for %d bytes without another tag; a tag with its attributes, or the text between two tags, may be at most %s: shorten the value",
				clip(string(data[start:start+4*maxQuote]), maxQuote), end-start, bytesText(MaxTagLen))}
		}
		start = end
	}
	return nil
}
