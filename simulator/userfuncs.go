package simulator

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// UserFunctions are drawing hooks, ARGoS's "QT user functions": Go code
// registered under a label that draws, every frame, into the viewers and
// the PNG frames, and may react to the viewer's selection and keys. An
// experiment binds them with
//
//	<visualization>
//	  <qt-opengl>   (or <web>, or <frames>)
//	    <user_functions label="id_qtuser_functions" />
//	  </qt-opengl>
//	</visualization>
//
// One instance serves every renderer of a run; its methods run on the
// goroutine that steps the simulator, between ticks, so they may read the
// simulator, its loop functions and controllers freely. Embed
// UserFunctionsBase and write the hooks you need; the optional
// interfaces EntitySelector, KeyHandler and Resetter add reactions.
type UserFunctions interface {
	// Init runs once the arena, controllers and loop functions are
	// built; node is the <user_functions> element.
	Init(sim *Simulator, node *config.Node) error
	// DrawInWorld adds this frame's drawings to c.
	DrawInWorld(c *Canvas)
	// Destroy releases what Init acquired.
	Destroy() error
}

// UserFunctionsBase implements UserFunctions with no-ops; its Init keeps
// the simulator, which Simulator returns (as ARGoS's user functions reach
// the space). Embed it and use a pointer to your type.
type UserFunctionsBase struct{ sim *Simulator }

// Init keeps sim. User functions that have an Init of their own and use
// Simulator call it first.
func (b *UserFunctionsBase) Init(sim *Simulator, _ *config.Node) error {
	b.sim = sim
	return nil
}

// Simulator returns the simulator Init was given.
func (b *UserFunctionsBase) Simulator() *Simulator { return b.sim }

func (*UserFunctionsBase) DrawInWorld(*Canvas) {}
func (*UserFunctionsBase) Destroy() error      { return nil }

// EntitySelector is implemented by user functions that react to the
// viewer's selection of an entity (ARGoS's EntitySelected and
// EntityDeselected). id is the entity's id.
type EntitySelector interface {
	EntitySelected(id string)
	EntityDeselected(id string)
}

// KeyHandler is implemented by user functions that react to keys pressed
// in the viewer.
type KeyHandler interface {
	KeyPressed(k Key)
	KeyReleased(k Key)
}

// Resetter is implemented by user functions with state to restore when
// the experiment is reset.
type Resetter interface {
	Reset()
}

// Key is a key of the viewer's keyboard, as browsers name them
// (KeyboardEvent.key): "ArrowUp", "w", "W", " ", "Enter", ...
type Key string

// The keys ARGoS's manual control uses.
const (
	KeyUp    Key = "ArrowUp"
	KeyDown  Key = "ArrowDown"
	KeyLeft  Key = "ArrowLeft"
	KeyRight Key = "ArrowRight"
)

// UserFunctionsTypes is the registry of user functions by the label that
// <user_functions label="..."> uses.
var UserFunctionsTypes = ci.NewRegistry[func() UserFunctions]("user functions")

// userFunctionsTags are the visualizations whose <user_functions> child
// binds drawing hooks.
var userFunctionsTags = []string{"qt-opengl", "web", "frames"}

// buildUserFunctions makes the experiment's user functions, if any. A
// headless run skips unknown ones bound to a viewer (qt-opengl, web),
// as it skips the viewer itself.
func (s *Simulator) buildUserFunctions(headless bool) error {
	var node *config.Node
	for _, v := range s.exp.Visualizations {
		ok := false
		for _, t := range userFunctionsTags {
			ok = ok || v.Name == t
		}
		if !ok {
			continue
		}
		for _, n := range v.Children {
			if n.Name != "user_functions" {
				continue
			}
			if node != nil {
				return n.Errorf("simulator: a second <user_functions> (the first is at %s); an experiment has one", node.Where())
			}
			node = n
		}
	}
	if node == nil {
		return nil
	}
	if err := node.CheckAttrs("label", "library"); err != nil {
		return err
	}
	label, ok := node.Attr("label")
	if !ok || label == "" {
		return node.Errorf("simulator: <user_functions> needs label=\"...\": the name its package registers (argos -q all lists them)")
	}
	f, err := UserFunctionsTypes.Lookup(label)
	if err != nil {
		if viewer := node.Parent(); headless && viewer != nil && viewer.Name != "frames" {
			s.log.Warnf("%s: user functions %q are not available; ignored because the run is headless", node.Where(), label)
			return nil
		}
		return node.Errorf("simulator: <user_functions>: %v", err)
	}
	uf := f()
	if err := uf.Init(s, node); err != nil {
		return fmt.Errorf("simulator: user functions %q (%s): %w", label, node.Where(), err)
	}
	s.user = uf
	return nil
}

// UserFunctions returns the experiment's user functions, or nil.
func (s *Simulator) UserFunctions() UserFunctions { return s.user }

// DrawUser empties c and lets the user functions draw into it; it
// reports whether there are user functions (renderers skip the overlay
// when there are none).
func (s *Simulator) DrawUser(c *Canvas) bool {
	c.Reset()
	if s.user == nil {
		return false
	}
	s.user.DrawInWorld(c)
	return true
}

// SelectEntity tells the user functions that the viewer selected entity
// id ("" to deselect the previous one).
func (s *Simulator) SelectEntity(id string) {
	sel, ok := s.user.(EntitySelector)
	if !ok {
		s.selected = id
		return
	}
	if s.selected != "" && s.selected != id {
		sel.EntityDeselected(s.selected)
	}
	if id != "" && id != s.selected {
		sel.EntitySelected(id)
	}
	s.selected = id
}

// Selected returns the id of the entity the viewer selected, or "".
func (s *Simulator) Selected() string { return s.selected }

// PressKey passes a key of the viewer to the user functions.
func (s *Simulator) PressKey(k Key, pressed bool) {
	h, ok := s.user.(KeyHandler)
	if !ok {
		return
	}
	if pressed {
		h.KeyPressed(k)
	} else {
		h.KeyReleased(k)
	}
}

// ItemKind says what a Canvas item is.
type ItemKind uint8

// The kinds of drawings.
const (
	// ItemPoint is a dot of diameter Size pixels at Points[0].
	ItemPoint ItemKind = iota + 1
	// ItemLine is a polyline through Points (two points: a segment),
	// Width pixels wide.
	ItemLine
	// ItemCircle is a circle of Radius metres around Points[0], in the
	// horizontal plane; filled when Fill.
	ItemCircle
	// ItemBox is a box of Size3 (x, y, z) metres centred on Points[0]
	// (its base at Points[0].Z), turned by Yaw radians; filled when Fill.
	ItemBox
	// ItemText is Text written at Points[0].
	ItemText
	// ItemRobotText is Text written above the robot Robot.
	ItemRobotText
	// ItemRobotColor paints the robot Robot's body in Color.
	ItemRobotColor
)

// Item is one drawing.
type Item struct {
	Kind   ItemKind
	Points []ci.Vector3
	Color  ci.Color
	// Size is the diameter of a point and Width the width of a line, in
	// pixels; Radius a circle's radius in metres; Size3 a box's size.
	Size, Width, Radius float64
	Size3               ci.Vector3
	Yaw                 float64
	Fill                bool
	Text                string
	// Robot is the id of the robot of ItemRobotText and ItemRobotColor.
	Robot string
}

// Canvas collects what user functions draw in one frame, in world
// coordinates (metres, the arena's frame). Renderers read Items. A colour
// whose alpha is 0 is drawn opaque (so that ci.Color{R: 255} is red).
type Canvas struct {
	items []Item
	pts   []ci.Vector3 // backing store of the items' points
}

// Reset empties the canvas, keeping its memory.
func (c *Canvas) Reset() {
	c.items = c.items[:0]
	c.pts = c.pts[:0]
}

// Items returns the drawings, in the order they were made.
func (c *Canvas) Items() []Item { return c.items }

func (c *Canvas) add(it Item, pts ...ci.Vector3) {
	start := len(c.pts)
	c.pts = append(c.pts, pts...)
	it.Points = c.pts[start:len(c.pts):len(c.pts)]
	c.items = append(c.items, it)
}

// Point draws a dot of diameter size pixels.
func (c *Canvas) Point(p ci.Vector3, col ci.Color, size float64) {
	c.add(Item{Kind: ItemPoint, Color: col, Size: positive(size, 4)}, p)
}

// Line draws a segment, width pixels wide.
func (c *Canvas) Line(a, b ci.Vector3, col ci.Color, width float64) {
	c.add(Item{Kind: ItemLine, Color: col, Width: positive(width, 1)}, a, b)
}

// Polyline draws a path through pts (a trajectory), width pixels wide.
// Fewer than two points draw nothing.
func (c *Canvas) Polyline(pts []ci.Vector3, col ci.Color, width float64) {
	if len(pts) < 2 {
		return
	}
	c.add(Item{Kind: ItemLine, Color: col, Width: positive(width, 1)}, pts...)
}

// Circle draws a horizontal circle of radius metres around center.
func (c *Canvas) Circle(center ci.Vector3, radius float64, col ci.Color, fill bool) {
	if !(radius > 0) || math.IsInf(radius, 0) {
		return
	}
	c.add(Item{Kind: ItemCircle, Color: col, Radius: radius, Fill: fill}, center)
}

// Box draws a box of size (x, y, z) metres whose base is centred on
// center, turned by yaw radians about the vertical.
func (c *Canvas) Box(center, size ci.Vector3, yaw float64, col ci.Color, fill bool) {
	c.add(Item{Kind: ItemBox, Color: col, Size3: size, Yaw: yaw, Fill: fill}, center)
}

// Text writes s at p.
func (c *Canvas) Text(p ci.Vector3, s string, col ci.Color) {
	c.add(Item{Kind: ItemText, Color: col, Text: s}, p)
}

// RobotText writes s above the robot with id robot.
func (c *Canvas) RobotText(robot, s string, col ci.Color) {
	c.add(Item{Kind: ItemRobotText, Color: col, Text: s, Robot: robot})
}

// RobotColor paints the body of the robot with id robot in col.
func (c *Canvas) RobotColor(robot string, col ci.Color) {
	c.add(Item{Kind: ItemRobotColor, Color: col, Robot: robot})
}

func positive(v, def float64) float64 {
	if v > 0 && !math.IsInf(v, 0) {
		return v
	}
	return def
}
