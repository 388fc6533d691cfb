package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
)

// perspectiveCamera is the eye-bot's downward colored_blob_perspective_camera,
// after ARGoS 3's colored_blob_perspective_camera_default_sensor.cpp: the
// camera sits at the robot's origin (the centre of the bottom of its
// body) and looks straight down (ARGoS turns its anchor by pi/2 about Y);
// its image has the robot's front up and its left to the left. A lit LED
// of the LED medium (robots' LEDs and lights) or a laser spot of another
// robot is seen when it lies below the camera at a depth under range,
// less than the aperture (the half-angle of the cone of view) off the
// axis, and no body other than the robot is in the way (the robot that
// carries an LED may hide it, as in ARGoS).
type perspectiveCamera struct {
	r        *entity.Robot
	leds     *media.LED
	aperture float64
	tanAp    float64
	rng      float64
	enabled  bool
	ShowRays bool
	blobs    []ci.Blob
	cand     []int32 // scratch: LEDs near the view
}

func newPerspectiveCamera(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "medium", "show_rays"); err != nil {
		return nil, err
	}
	if r.Model != entity.EyeBot {
		return nil, n.Errorf("devices: <%s> simulates the eye-bot's camera looking down; %s %q has none", n.Name, r.Model.Type, r.ID)
	}
	c := &perspectiveCamera{r: r}
	var err error
	if c.aperture, c.rng, _, err = entity.EyeBotCamera(r.Node); err != nil {
		return nil, err
	}
	c.tanAp = math.Tan(c.aperture)
	if c.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
		return nil, err
	}
	id, err := mediumID(n, false)
	if err != nil {
		return nil, err
	}
	if c.leds, err = findMedium[*media.LED](r, n, id, "LED"); err != nil {
		return nil, err
	}
	return c, nil
}

var (
	_ ci.ColoredBlobCamera = (*perspectiveCamera)(nil)
	_ Inspector            = (*perspectiveCamera)(nil)
	_ Resetter             = (*perspectiveCamera)(nil)
)

func (c *perspectiveCamera) Enable()          { c.enabled = true }
func (c *perspectiveCamera) Disable()         { c.enabled = false; c.blobs = c.blobs[:0] }
func (c *perspectiveCamera) Blobs() []ci.Blob { return c.blobs }
func (c *perspectiveCamera) Reset()           { c.blobs = c.blobs[:0] }

// Update finds the blobs: LEDs in the LED medium's order (robot after
// robot, then the lights), then the spots in the order of World.Spots.
func (c *perspectiveCamera) Update() {
	c.blobs = c.blobs[:0]
	if !c.enabled {
		return
	}
	b := c.r.B()
	cam := ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
	// Below the camera, the cone holds nothing farther from the axis.
	reach := c.tanAp * math.Min(c.rng, cam.Z)
	if reach <= 0 {
		return
	}
	h := ci.Vector2{X: reach, Y: reach}
	c.cand = c.cand[:0]
	if c.leds.Len() > 0 { // the medium indexes nothing before its first Update
		c.cand = c.leds.Near(b.Pos.Sub(h), b.Pos.Add(h), c.cand)
	}
	for _, k := range c.cand {
		p, col, owner := c.leds.At(k)
		if owner != c.r.Body {
			c.see(cam, b.Cos, b.Sin, p, col)
		}
	}
	if w := c.r.World; w != nil {
		for k := range w.Spots {
			if s := &w.Spots[k]; s.Source != c.r.Index {
				c.see(cam, b.Cos, b.Sin, s.Pos, s.Color)
			}
		}
	}
}

// see adds a blob for point p of colour col if the camera at cam,
// heading (cos, sin), sees it. X and Y are the offsets of p from the
// optical axis over depth x tan(aperture): in [-1, 1] inside the cone.
func (c *perspectiveCamera) see(cam ci.Vector3, cos, sin float64, p ci.Vector3, col ci.Color) {
	rel := p.Sub(cam)
	depth := -rel.Z
	if depth <= 0 || depth >= c.rng {
		return
	}
	front := rel.X*cos + rel.Y*sin
	left := -rel.X*sin + rel.Y*cos
	horiz := math.Hypot(front, left)
	if math.Atan2(horiz, depth) >= c.aperture || media.Occluded(c.r.Space, cam, p, c.r.Body, -1) {
		return
	}
	k := depth * c.tanAp
	c.blobs = append(c.blobs, ci.Blob{
		Color: col, Angle: math.Atan2(left, front), Distance: horiz,
		X: -left / k, Y: front / k,
	})
}

// PerspectiveCameraInspection is what the perspective camera saw at the
// last tick.
type PerspectiveCameraInspection struct {
	Enabled bool                        `json:"enabled"`
	Blobs   []PerspectiveBlobInspection `json:"blobs"`
}

// PerspectiveBlobInspection is one blob: colour, angle (degrees) and
// distance (m) around the robot, image position.
type PerspectiveBlobInspection struct {
	Color    string  `json:"color"`
	AngleDeg float64 `json:"angle_deg"`
	Distance float64 `json:"distance_m"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
}

func (c *perspectiveCamera) Inspect() any {
	out := PerspectiveCameraInspection{Enabled: c.enabled, Blobs: make([]PerspectiveBlobInspection, len(c.blobs))}
	for i, bl := range c.blobs {
		out.Blobs[i] = PerspectiveBlobInspection{Color: HexColor(bl.Color), AngleDeg: ci.Degrees(bl.Angle), Distance: bl.Distance, X: bl.X, Y: bl.Y}
	}
	return out
}
