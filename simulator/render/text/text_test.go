package text_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/render/text"
)

type still struct{}

func (still) Init(ci.Robot, ci.Params) error { return nil }
func (still) ControlStep()                   {}
func (still) Reset()                         {}
func (still) Destroy() error                 { return nil }

func init() {
	ci.Controllers.MustRegister("text_test_still", "test: does nothing", func() ci.Controller { return still{} })
}

func TestRowsPerEntityPerTick(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.tsv")
	xml := `<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="0.3" ticks_per_second="10" random_seed="1"/></framework>
  <controllers><text_test_still id="s"/></controllers>
  <arena size="4,4,1">
    <box id="wall" size="1,0.1,0.5" movable="false"><body position="1,1,0" orientation="90,0,0"/></box>
    <cylinder id="c" radius="0.1" height="0.2" movable="true" mass="0.5"><body position="-1,0,0"/></cylinder>
    <light id="l" position="0,0,1" color="yellow"/>
    <e-puck id="ep"><body position="0.25,-0.5,0" orientation="45,0,0"/><controller config="s"/></e-puck>
  </arena>
  <physics_engines><dynamics2d id="d"/></physics_engines>
  <visualization><text file="` + out + `" precision="2" every="1"/></visualization>
</argos-configuration>`
	exp, err := config.Parse("t.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	for !sim.Finished() {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != "clock\ttype\tid\tx\ty\tz\trot_z\trot_y\trot_x" {
		t.Fatalf("header %q", lines[0])
	}
	// 4 entities for ticks 0..3
	if len(lines) != 1+4*4 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 1+4*4, data)
	}
	want := map[string]bool{
		"0\tbox\twall\t1.00\t1.00\t0.00\t90.00\t0.00\t0.00":   true,
		"3\te-puck\tep\t0.25\t-0.50\t0.00\t45.00\t0.00\t0.00": true,
		"3\tcylinder\tc\t-1.00\t0.00\t0.00\t0.00\t0.00\t0.00": true,
		"2\tlight\tl\t0.00\t0.00\t1.00\t0.00\t0.00\t0.00":     true,
	}
	for _, l := range lines {
		delete(want, l)
	}
	for l := range want {
		t.Errorf("missing row %q in:\n%s", l, data)
	}
}

func TestBadAttributes(t *testing.T) {
	for _, attrs := range []string{`precision="-1"`, `every="0"`, `file="/no/such/dir/x.tsv"`, `colour="red"`} {
		xml := `<?xml version="1.0"?><argos-configuration><framework><experiment length="1" ticks_per_second="10"/></framework>
  <controllers/><arena size="1,1,1"/><visualization><text ` + attrs + `/></visualization></argos-configuration>`
		exp, err := config.Parse("t.argos", []byte(xml))
		if err != nil {
			t.Fatal(err)
		}
		sim, err := simulator.New(exp, simulator.Options{})
		if err == nil {
			sim.Close()
			t.Errorf("%s accepted", attrs)
			continue
		}
		if !strings.Contains(err.Error(), "t.argos:") {
			t.Errorf("%s: error %q does not say where", attrs, err)
		}
	}
}
