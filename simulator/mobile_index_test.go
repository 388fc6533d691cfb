package simulator

import (
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

type indexFreeSensor struct{}

func (indexFreeSensor) Update()               {}
func (indexFreeSensor) UsesMobileIndex() bool { return false }

type indexFreeActuator struct{}

func (indexFreeActuator) Apply()                {}
func (indexFreeActuator) UsesMobileIndex() bool { return false }

// The mobile index is rebuilt after physics unless every device (and
// engine, medium, ...) says it does not query it; a device that says
// nothing, or loop functions, keep it. A skipped rebuild leaves the index
// stale until Space is asked for.
func TestMobileIndexSkippedOnlyWhenNobodyQueries(t *testing.T) {
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
	h := sp.Add(space.Body{ID: "a", Shape: space.Disc, Radius: 0.1, Height: 0.1, Movable: true})
	sp.Reindex()
	s := &Simulator{sp: sp, world: &entity.World{Space: sp}, pool: newPool(1, "")}
	for i := range 3 {
		r := &robot{Robot: entity.Robot{Index: i}}
		r.setDevices([]devices.Sensor{indexFreeSensor{}}, []devices.Actuator{indexFreeActuator{}})
		s.robots = append(s.robots, r)
	}
	if s.needsMobileIndex() {
		t.Fatal("index needed although every device says it does not query it")
	}
	sp.Bodies[h].Pos = ci.Vector2{X: 3, Y: 3}
	s.reindex()
	if !s.index.stale {
		t.Fatal("the index was rebuilt although nothing queries it")
	}
	found := false
	s.Space().NearMobile(ci.Vector2{X: 2.9, Y: 2.9}, ci.Vector2{X: 3.1, Y: 3.1}, func(i int) bool { found = found || i == h; return true })
	if !found || s.index.stale {
		t.Fatal("Space returned a stale index")
	}
	// a robot whose device says nothing about the index
	plain := &robot{Robot: entity.Robot{Index: 3}}
	plain.setDevices(nil, []devices.Actuator{plainActuator{}})
	s.robots = append(s.robots, plain)
	if !s.needsMobileIndex() {
		t.Fatal("a device that may query the index did not keep it")
	}
	s.robots = s.robots[:3]
	s.index.valid = false
	s.loop = nopLoop{}
	if !s.needsMobileIndex() {
		t.Fatal("loop functions did not keep the index")
	}
}

type nopLoop struct{ LoopFunctionsBase }
