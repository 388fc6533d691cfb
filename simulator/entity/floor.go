package entity

import (
	"fmt"
	"image"
	_ "image/gif" // floor images: PNG, JPEG or GIF
	_ "image/jpeg"
	_ "image/png"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

func init() {
	Types.MustRegister("floor",
		"The arena floor that ground sensors read, as ARGoS's <floor>: id; source=\"image\" with path (a PNG, JPEG or GIF stretched over the arena's "+
			"footprint, top row at the arena's largest Y; a relative path is looked up from the working directory, then next to the .argos file), or "+
			"source=\"loop_functions\" (the loop functions colour it by setting World().Floor, for example to entity.SampleFloor(fn, lo, hi, pixels_per_meter)); "+
			"pixels_per_meter (accepted, used by loop functions that sample). Without a floor the floor is white.",
		parseFloor)
}

func parseFloor(n *config.Node) (*Spec, error) {
	if err := n.CheckAttrs("id", "source", "path", "pixels_per_meter"); err != nil {
		return nil, err
	}
	s, err := newSpec(n)
	if err != nil {
		return nil, err
	}
	s.Embodied, s.Posed = false, true
	ppm, err := n.FloatOr("pixels_per_meter", 0)
	if err != nil {
		return nil, err
	}
	if ppm < 0 {
		return nil, n.AttrErrorf("pixels_per_meter", "the resolution must be positive; write how many pixels loop functions sample per metre, like 50")
	}
	src, err := n.String("source")
	if err != nil {
		return nil, err
	}
	switch src {
	case "loop_functions":
		s.Setup = func(w *World) error {
			lo, hi := w.Space.Bounds()
			if px := (hi.X - lo.X) * ppm * (hi.Y - lo.Y) * ppm; px > MaxFloorPixels {
				return n.AttrErrorf("pixels_per_meter", "sampling the %g m x %g m arena at this resolution takes %.3g pixels, more than the %d a floor may have; lower pixels_per_meter to at most %.4g",
					hi.X-lo.X, hi.Y-lo.Y, px, MaxFloorPixels, math.Floor(math.Sqrt(MaxFloorPixels/((hi.X-lo.X)*(hi.Y-lo.Y)))))
			}
			return nil
		}
	case "image":
		path, err := n.String("path")
		if err != nil {
			return nil, err
		}
		img, err := loadImage(path, n.File)
		if err != nil {
			return nil, n.AttrErrorf("path", "%v", err)
		}
		s.Setup = func(w *World) error {
			lo, hi := w.Space.Bounds()
			w.Floor = ImageFloor(img, lo, hi)
			return nil
		}
	default:
		return nil, n.AttrErrorf("source", "use \"image\" (with path=\"floor.png\") or \"loop_functions\"")
	}
	return s, nil
}

// Limits on floor images, so that a broken or hostile file cannot exhaust
// memory: the image's header is read first, and an image of more pixels
// is refused before it is decoded.
const (
	// MaxFloorPixels is the most pixels a floor may have: an image, or
	// the grid loop functions sample at pixels_per_meter (16 megapixels,
	// 4096 x 4096).
	MaxFloorPixels = 1 << 24
	// MaxFloorFileSize is the largest floor image file, in bytes (128 MiB).
	MaxFloorFileSize = 128 << 20
)

// loadImage reads an image file, relative to the working directory or,
// failing that, to the directory of the experiment file. Only a regular
// file of at most MaxFloorFileSize bytes holding at most MaxFloorPixels
// pixels is decoded.
func loadImage(path, experiment string) (image.Image, error) {
	st, err := os.Stat(path)
	if err != nil && !filepath.IsAbs(path) && experiment != "" {
		if st2, err2 := os.Stat(filepath.Join(filepath.Dir(experiment), path)); err2 == nil {
			path, st, err = filepath.Join(filepath.Dir(experiment), path), st2, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("entity: cannot open the floor image (looked in the working directory and next to the .argos file): %w", err)
	}
	if err := config.CheckRegular(path, st, MaxFloorFileSize, "floor image", "a PNG, JPEG or GIF file"); err != nil {
		return nil, fmt.Errorf("entity: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("entity: cannot open the floor image: %w", err)
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(io.LimitReader(f, MaxFloorFileSize))
	if err != nil {
		return nil, fmt.Errorf("entity: cannot decode the floor image %q; use a PNG, JPEG or GIF: %w", path, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxFloorPixels/cfg.Height {
		return nil, fmt.Errorf("entity: the floor image %q is %d x %d pixels; a floor may have at most %d pixels (4096 x 4096): scale it down",
			path, cfg.Width, cfg.Height, MaxFloorPixels)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("entity: cannot read the floor image %q: %w", path, err)
	}
	img, _, err := image.Decode(io.LimitReader(f, MaxFloorFileSize))
	if err != nil {
		return nil, fmt.Errorf("entity: cannot decode the floor image %q; use a PNG, JPEG or GIF: %w", path, err)
	}
	return img, nil
}

// colorGrid is a floor sampled on a regular grid of pixels; row 0 is at
// the smallest Y.
type colorGrid struct {
	lo     ci.Vector2
	sx, sy float64 // pixels per metre along X and Y
	w, h   int
	pix    []ci.Color
}

func (g *colorGrid) at(p ci.Vector2) ci.Color {
	x := int(math.Floor((p.X - g.lo.X) * g.sx))
	y := int(math.Floor((p.Y - g.lo.Y) * g.sy))
	x = min(max(x, 0), g.w-1)
	y = min(max(y, 0), g.h-1)
	return g.pix[y*g.w+x]
}

// ImageFloor returns a floor that stretches img over the rectangle
// [lo, hi] of the arena, as ARGoS's image floor does: the image's top row
// lies along the largest Y, its left column along the smallest X; points
// outside take the nearest border pixel.
func ImageFloor(img image.Image, lo, hi ci.Vector2) func(ci.Vector2) ci.Color {
	b := img.Bounds()
	w, h := max(b.Dx(), 1), max(b.Dy(), 1)
	g := &colorGrid{lo: lo, w: w, h: h, pix: make([]ci.Color, w*h),
		sx: float64(w) / math.Max(hi.X-lo.X, 1e-9), sy: float64(h) / math.Max(hi.Y-lo.Y, 1e-9)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, gg, bb, a := img.At(b.Min.X+x, b.Min.Y+h-1-y).RGBA()
			g.pix[y*w+x] = ci.Color{R: uint8(r >> 8), G: uint8(gg >> 8), B: uint8(bb >> 8), A: uint8(a >> 8)}
		}
	}
	return g.at
}

// SampleFloor samples fn at the centre of every pixel of a grid of
// pixelsPerMetre over [lo, hi] and returns a floor that looks the colour
// up, as ARGoS does with a floor whose source is "loop_functions". A
// sampled floor costs a table look-up per ground sensor whatever fn costs.
// The grid takes 4 bytes per pixel: keep it within MaxFloorPixels, which
// the <floor> element's pixels_per_meter is checked against.
func SampleFloor(fn func(ci.Vector2) ci.Color, lo, hi ci.Vector2, pixelsPerMetre float64) func(ci.Vector2) ci.Color {
	if pixelsPerMetre <= 0 {
		pixelsPerMetre = 50
	}
	w := max(1, int(math.Ceil((hi.X-lo.X)*pixelsPerMetre)))
	h := max(1, int(math.Ceil((hi.Y-lo.Y)*pixelsPerMetre)))
	g := &colorGrid{lo: lo, sx: pixelsPerMetre, sy: pixelsPerMetre, w: w, h: h, pix: make([]ci.Color, w*h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g.pix[y*w+x] = fn(ci.Vector2{X: lo.X + (float64(x)+0.5)/pixelsPerMetre, Y: lo.Y + (float64(y)+0.5)/pixelsPerMetre})
		}
	}
	return g.at
}
