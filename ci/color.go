package ci

import (
	"fmt"
	"strconv"
	"strings"
)

// Color is an RGBA colour, as LEDs, lights and the floor have.
type Color struct{ R, G, B, A uint8 }

// The named colours of ARGoS.
var (
	Black   = Color{0, 0, 0, 255}
	White   = Color{255, 255, 255, 255}
	Red     = Color{255, 0, 0, 255}
	Green   = Color{0, 255, 0, 255}
	Blue    = Color{0, 0, 255, 255}
	Magenta = Color{255, 0, 255, 255}
	Cyan    = Color{0, 255, 255, 255}
	Yellow  = Color{255, 255, 0, 255}
	Orange  = Color{255, 140, 0, 255}
	Brown   = Color{165, 42, 42, 255}
	Purple  = Color{160, 32, 240, 255}
	Gray10  = Color{26, 26, 26, 255}
	Gray20  = Color{51, 51, 51, 255}
	Gray30  = Color{77, 77, 77, 255}
	Gray40  = Color{102, 102, 102, 255}
	Gray50  = Color{127, 127, 127, 255}
	Gray60  = Color{153, 153, 153, 255}
	Gray70  = Color{179, 179, 179, 255}
	Gray80  = Color{204, 204, 204, 255}
	Gray90  = Color{229, 229, 229, 255}
)

var colorNames = map[string]Color{
	"black": Black, "white": White, "red": Red, "green": Green, "blue": Blue,
	"magenta": Magenta, "cyan": Cyan, "yellow": Yellow, "orange": Orange,
	"brown": Brown, "purple": Purple, "gray10": Gray10, "gray20": Gray20,
	"gray30": Gray30, "gray40": Gray40, "gray50": Gray50, "gray60": Gray60,
	"gray70": Gray70, "gray80": Gray80, "gray90": Gray90,
}

// ParseColor reads a colour as ARGoS writes it: a name ("red", "gray50")
// or "r,g,b" or "r,g,b,a" with components in 0..255.
func ParseColor(s string) (Color, error) {
	s = strings.TrimSpace(s)
	if c, ok := colorNames[strings.ToLower(s)]; ok {
		return c, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return Color{}, fmt.Errorf("ci: colour %q: give a name (red, green, gray50, ...) or r,g,b[,a] with values 0-255", s)
	}
	v := [4]uint8{0, 0, 0, 255}
	for i, p := range parts {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 8)
		if err != nil {
			return Color{}, fmt.Errorf("ci: colour %q: component %d is not an integer in 0-255", s, i+1)
		}
		v[i] = uint8(n)
	}
	return Color{v[0], v[1], v[2], v[3]}, nil
}

// String returns the name of a named colour, else "r,g,b,a".
func (c Color) String() string {
	for name, nc := range colorNames {
		if nc == c {
			return name
		}
	}
	return fmt.Sprintf("%d,%d,%d,%d", c.R, c.G, c.B, c.A)
}
