package ci

import (
	"strings"
	"testing"
)

func TestParseColor(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Color
	}{
		{"red", Red},
		{"  Red ", Red},
		{"GRAY50", Gray50},
		{"black", Color{0, 0, 0, 255}},
		{"orange", Color{255, 140, 0, 255}},
		{"1,2,3", Color{1, 2, 3, 255}},
		{"1, 2, 3, 4", Color{1, 2, 3, 4}},
		{"255,255,255,0", Color{255, 255, 255, 0}},
		{"0,0,0,0", Color{}},
	} {
		got, err := ParseColor(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseColorErrors(t *testing.T) {
	for _, tc := range []struct {
		in        string
		fragments []string
	}{
		{"", []string{"give a name", "r,g,b[,a]"}},
		{"redd", []string{`"redd"`, "give a name"}},
		{"1,2", []string{`"1,2"`, "r,g,b[,a]"}},
		{"1,2,3,4,5", []string{"r,g,b[,a]"}},
		{"256,0,0", []string{"component 1", "0-255"}},
		{"0,-1,0", []string{"component 2", "0-255"}},
		{"0,0,x", []string{"component 3"}},
		{"0,0,0,1.5", []string{"component 4"}},
	} {
		got, err := ParseColor(tc.in)
		if err == nil {
			t.Errorf("ParseColor(%q) = %v, want an error", tc.in, got)
			continue
		}
		if !strings.HasPrefix(err.Error(), "ci: ") {
			t.Errorf("ParseColor(%q) error %q does not start with the package name", tc.in, err)
		}
		for _, f := range tc.fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("ParseColor(%q) error %q does not mention %q", tc.in, err, f)
			}
		}
	}
}

func TestColorString(t *testing.T) {
	// Every name maps to its own colour and back.
	seen := map[Color]string{}
	for name, c := range colorNames {
		if other, dup := seen[c]; dup {
			t.Errorf("colours %q and %q are equal, String is ambiguous", name, other)
		}
		seen[c] = name
		if got := c.String(); got != name {
			t.Errorf("%v.String() = %q, want %q", c, got, name)
		}
		back, err := ParseColor(c.String())
		if err != nil || back != c {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", c.String(), back, err, c)
		}
	}
	for _, tc := range []struct {
		c    Color
		want string
	}{
		{Color{1, 2, 3, 4}, "1,2,3,4"},
		{Color{255, 0, 0, 0}, "255,0,0,0"},
		{Color{}, "0,0,0,0"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.c, got, tc.want)
		}
		if back, err := ParseColor(tc.want); err != nil || back != tc.c {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", tc.want, back, err, tc.c)
		}
	}
}
