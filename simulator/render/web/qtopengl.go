package web

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// qt-opengl is ARGoS 3's interactive window. ARGoS-Go has no Qt: an
// experiment that declares <qt-opengl> opens the web viewer instead, with
// what of the element maps onto it.
func init() {
	simulator.Visualizations.MustRegister("qt-opengl",
		"ARGoS 3's interactive window, shown by the web viewer: serves the same page as <web> (http://127.0.0.1:8080/ by default). "+
			"Uses autoplay, title and <camera><placements><placement index position look_at up lens_focal_length> (the page's camera presets); "+
			"<user_functions label> binds drawing hooks; the rest of ARGoS's element (lua_editor, invert_mouse, <frame_grabbing>, <timeline>...) is ignored. "+
			"Also takes <web>'s port, address, fps and speed.",
		simulator.VisualizationType{Interactive: true, New: newQtOpenGL})
}

// Camera is a camera preset of the page's 3D view, as ARGoS's
// <placement>: the camera at Position looks at LookAt, Up pointing up on
// the screen, with a vertical field of view of FovY degrees.
type Camera struct {
	Index    int
	Position ci.Vector3
	LookAt   ci.Vector3
	Up       ci.Vector3
	FovY     float64
}

// ARGoS's qt-opengl knows these and ARGoS-Go has no use for them.
var (
	qtIgnoredAttrs    = []string{"lua_editor", "invert_mouse", "show_boundary", "background_color"}
	qtIgnoredChildren = []string{"frame_grabbing"}
)

// qtPlacements is how many cameras ARGoS's window has (F1 to F12).
const qtPlacements = 12

func newQtOpenGL(n *config.Node, sim *simulator.Simulator) (simulator.Visualization, error) {
	log := sim.Logger()
	for _, a := range n.Attrs {
		switch a.Name {
		case "port", "address", "fps", "speed", "autoplay", "title":
		default:
			known := false
			for _, k := range qtIgnoredAttrs {
				known = known || a.Name == k
			}
			if known {
				log.Debugf("%s: <qt-opengl %s>: ignored (the web viewer has no such setting)", n.Where(), a.Name)
			} else {
				log.Warnf("%s: <qt-opengl %s>: unknown attribute, ignored", n.Where(), a.Name)
			}
		}
	}
	opt, err := options(n)
	if err != nil {
		return nil, err
	}
	opt.Title = n.StringOr("title", "")
	for _, c := range n.Children {
		switch c.Name {
		case "user_functions":
			// bound by the simulator (Simulator.UserFunctions)
		case "camera":
			cams, err := cameras(c, sim)
			if err != nil {
				return nil, err
			}
			opt.Cameras = append(opt.Cameras, cams...)
		default:
			known := false
			for _, k := range qtIgnoredChildren {
				known = known || c.Name == k
			}
			if known {
				log.Debugf("%s: <%s>: ignored by the web viewer (argos --frames writes frames)", c.Where(), c.Name)
			} else {
				log.Warnf("%s: <%s>: unknown in <qt-opengl>, ignored", c.Where(), c.Name)
			}
		}
	}
	if len(opt.Cameras) > 0 {
		opt.View3D = true
	}
	return start(n, sim, opt, "qt-opengl")
}

// cameras reads <camera>: ARGoS 3's <placements><placement index=...>
// and the older <placement idx=...> directly under <camera>.
func cameras(n *config.Node, sim *simulator.Simulator) ([]Camera, error) {
	var out []Camera
	seen := map[int]*config.Node{}
	add := func(p *config.Node, idxAttr string) error {
		if err := p.CheckAttrs("index", "idx", "position", "look_at", "up", "lens_focal_length", "frame_diagonal"); err != nil {
			return err
		}
		idx, err := p.Int(idxAttr)
		if err != nil {
			return err
		}
		if idx < 0 || idx >= qtPlacements {
			return p.AttrErrorf(idxAttr, "web: ARGoS has cameras 0 to %d", qtPlacements-1)
		}
		if prev, dup := seen[idx]; dup {
			return p.Errorf("web: a second placement %d (the first is at %s); give each camera its own %s", idx, prev.Where(), idxAttr)
		}
		seen[idx] = p
		c, err := placement(p)
		if err != nil {
			return err
		}
		c.Index = idx
		out = append(out, c)
		return nil
	}
	for _, c := range n.Children {
		switch c.Name {
		case "placements":
			for _, p := range c.Children {
				if p.Name != "placement" {
					sim.Logger().Warnf("%s: <%s>: unknown in <placements>, ignored", p.Where(), p.Name)
					continue
				}
				if err := add(p, "index"); err != nil {
					return nil, err
				}
			}
		case "placement": // ARGoS 3 before beta 48
			if err := add(c, "idx"); err != nil {
				return nil, err
			}
		case "timeline":
			sim.Logger().Debugf("%s: <timeline>: camera animations are not supported by the web viewer; ignored", c.Where())
		default:
			sim.Logger().Warnf("%s: <%s>: unknown in <camera>, ignored", c.Where(), c.Name)
		}
	}
	// in index order, as ARGoS numbers its cameras
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Index < out[j-1].Index; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// placement reads one camera: ARGoS derives a missing up vector from the
// viewing direction (the camera does not roll), and turns the focal
// length (mm, default 20) into a vertical field of view for a 27 mm high
// frame.
func placement(p *config.Node) (Camera, error) {
	var c Camera
	var err error
	if c.Position, err = p.Vector3("position"); err != nil {
		return c, err
	}
	if c.LookAt, err = p.Vector3("look_at"); err != nil {
		return c, err
	}
	fwd := c.LookAt.Sub(c.Position)
	if fwd.Length() < 1e-9 {
		return c, p.Errorf("web: position and look_at are the same point; the camera must look somewhere else")
	}
	fwd = scale3(fwd, 1/fwd.Length())
	if p.Has("up") {
		if c.Up, err = p.Vector3("up"); err != nil {
			return c, err
		}
		if c.Up.Length() < 1e-9 || cross3(fwd, c.Up).Length() < 1e-6 {
			return c, p.AttrErrorf("up", "web: up must be a vector across the viewing direction (from position to look_at)")
		}
		c.Up = scale3(c.Up, 1/c.Up.Length())
	} else {
		left := ci.Vector3{Y: 1}
		if math.Abs(fwd.X) > 1e-12 || math.Abs(fwd.Y) > 1e-12 {
			l := math.Hypot(fwd.X, fwd.Y)
			left = ci.Vector3{X: -fwd.Y / l, Y: fwd.X / l}
		}
		c.Up = cross3(fwd, left)
		c.Up = scale3(c.Up, 1/c.Up.Length())
	}
	f, err := p.FloatOr("lens_focal_length", 20)
	if err != nil {
		return c, err
	}
	if !(f > 0) || math.IsInf(f, 0) {
		return c, p.AttrErrorf("lens_focal_length", "web: give a positive length in millimetres (ARGoS's default is 20)")
	}
	c.FovY = ci.Degrees(2 * math.Atan2(0.027/2, f/1000))
	return c, nil
}

func (c Camera) String() string {
	return fmt.Sprintf("camera %d at %v looking at %v", c.Index, c.Position, c.LookAt)
}

func scale3(v ci.Vector3, k float64) ci.Vector3 {
	return ci.Vector3{X: v.X * k, Y: v.Y * k, Z: v.Z * k}
}

func cross3(a, b ci.Vector3) ci.Vector3 {
	return ci.Vector3{X: a.Y*b.Z - a.Z*b.Y, Y: a.Z*b.X - a.X*b.Z, Z: a.X*b.Y - a.Y*b.X}
}
