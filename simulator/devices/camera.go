package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
)

func init() {
	for _, impl := range []string{"", "rot_z_only"} {
		Sensors.MustRegister(Key(ci.TagOmnidirectionalCamera, impl),
			"The omnidirectional camera (ci.ColoredBlobCamera), ARGoS's colored_blob_omnidirectional_camera (rot_z_only): one blob per lit LED "+
				"of another robot, light or laser spot below the camera within its ground range (a square of half side h tan(aperture): "+
				"0.79 m on a foot-bot, whose camera is 0.289 m high with a 70 degree aperture, set by the robot's omnidirectional_camera_aperture "+
				"attribute in degrees) that no body hides; Angle in radians from the robot's front, Distance in metres in the ground plane. "+
				"Starts disabled: the controller calls Enable. Attributes: medium (required, the id of an <led> medium), noise_std_dev "+
				"(metres, Gaussian noise on the distance), show_rays.",
			newOmniCamera)
	}
}

// omniCamera sees the LED medium from above the robot.
type omniCamera struct {
	r        *entity.Robot
	leds     *media.LED
	enabled  bool
	noise    float64
	ShowRays bool
	height   float64
	aperture float64
	blobs    []ci.Blob
	cand     []int32
}

func newOmniCamera(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "medium", "noise_std_dev", "show_rays"); err != nil {
		return nil, err
	}
	cam := r.Model.OmniCamera
	if cam.Height <= 0 {
		return nil, n.Errorf("devices: robot %q is a %s, which has no omnidirectional camera", r.ID, r.Model.Type)
	}
	c := &omniCamera{r: r, height: cam.Height, aperture: cam.Aperture}
	if r.Node != nil {
		deg, err := r.Node.FloatOr("omnidirectional_camera_aperture", ci.Degrees(cam.Aperture))
		if err != nil {
			return nil, err
		}
		if deg <= 0 || deg >= 90 {
			return nil, r.Node.AttrErrorf("omnidirectional_camera_aperture", "the aperture must lie between 0 and 90 degrees")
		}
		c.aperture = ci.Radians(deg)
	}
	var err error
	if c.noise, err = n.FloatOr("noise_std_dev", 0); err != nil {
		return nil, err
	}
	if c.noise < 0 {
		return nil, n.AttrErrorf("noise_std_dev", "must not be negative")
	}
	if c.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
		return nil, err
	}
	id, err := mediumID(n, true)
	if err != nil {
		return nil, err
	}
	if c.leds, err = findMedium[*media.LED](r, n, id, "LED"); err != nil {
		return nil, err
	}
	return c, nil
}

var _ ci.ColoredBlobCamera = (*omniCamera)(nil)

func (c *omniCamera) Enable()          { c.enabled = true }
func (c *omniCamera) Disable()         { c.enabled = false; c.blobs = c.blobs[:0] }
func (c *omniCamera) Blobs() []ci.Blob { return c.blobs }

func (c *omniCamera) Update() {
	c.blobs = c.blobs[:0]
	if !c.enabled {
		return
	}
	b := c.r.B()
	cam := ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z + c.height}
	half := cam.Z * math.Tan(c.aperture)
	h := ci.Vector2{X: half, Y: half}
	c.cand = c.leds.Near(b.Pos.Sub(h), b.Pos.Add(h), c.cand[:0])
	for _, k := range c.cand {
		p, col, owner := c.leds.At(k)
		if owner == c.r.Body {
			continue
		}
		c.see(cam, half, b.Yaw, p, col)
	}
	if w := c.r.World; w != nil {
		for k := range w.Spots {
			c.see(cam, half, b.Yaw, w.Spots[k].Pos, w.Spots[k].Color)
		}
	}
}

// see adds a blob for a light source at p when it lies in the camera's
// field and no body hides it.
func (c *omniCamera) see(cam ci.Vector3, half, yaw float64, p ci.Vector3, col ci.Color) {
	rel := p.Sub(cam)
	if math.Abs(rel.X) >= half || math.Abs(rel.Y) >= half || p.Z >= cam.Z {
		return
	}
	if media.Occluded(c.r.Space, cam, p, c.r.Body, -1) {
		return
	}
	d := math.Hypot(rel.X, rel.Y)
	if c.noise > 0 {
		d = math.Max(0, d+c.noise*c.r.Rand.NormFloat64())
	}
	c.blobs = append(c.blobs, ci.Blob{Color: col, Angle: ci.NormalizeAngle(math.Atan2(rel.Y, rel.X) - yaw), Distance: d})
}

func (c *omniCamera) Reset() { c.blobs = c.blobs[:0] }

// BlobsInspection is what a camera saw.
type BlobsInspection struct {
	Enabled bool         `json:"enabled"`
	Blobs   []BlobRecord `json:"blobs"`
}

// BlobRecord is one blob: colour, angle in degrees, distance in metres.
type BlobRecord struct {
	Color    string  `json:"color"`
	AngleDeg float64 `json:"angle_deg"`
	DistM    float64 `json:"distance_m"`
}

func (c *omniCamera) Inspect() any {
	out := BlobsInspection{Enabled: c.enabled, Blobs: make([]BlobRecord, len(c.blobs))}
	for i, bl := range c.blobs {
		out.Blobs[i] = BlobRecord{Color: HexColor(bl.Color), AngleDeg: ci.Degrees(bl.Angle), DistM: bl.Distance}
	}
	return out
}
