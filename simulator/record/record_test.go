package record_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/record"
)

func TestAsRun(t *testing.T) {
	two, five := 2, 5.5
	cases := []struct {
		name, in string
		threads  *int
		length   *float64
		want     []string
		notWant  []string
	}{
		{"replace", `<argos-configuration><framework><experiment length="1" random_seed="0" ticks_per_second="10"/></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			nil, nil, []string{`random_seed="77"`}, []string{`random_seed="0"`}},
		{"insert", `<argos-configuration><framework>
  <experiment length="1"
     ticks_per_second="10" /></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			nil, nil, []string{`ticks_per_second="10" random_seed="77" />`}, nil},
		{"single quotes and a > in a value", `<argos-configuration><framework><experiment length='1' random_seed='5' ticks_per_second="10"/></framework><controllers/><arena size="1,1,1"><box id="a>b" size="1,1,1" movable="false"><body position="0,0,0"/></box></arena></argos-configuration>`,
			nil, nil, []string{`random_seed='77'`}, nil},
		{"a comment and a lookalike before", `<!-- <experiment random_seed="9"/> --><argos-configuration><framework><experiments_note/><experiment length="1" ticks_per_second="10" random_seed="9"/></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			nil, nil, []string{`<!-- <experiment random_seed="9"/> -->`, `<experiment length="1" ticks_per_second="10" random_seed="77"/>`}, nil},
		{"threads", `<argos-configuration><framework><system threads="0"/><experiment ticks_per_second="10"/></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			&two, nil, []string{`<system threads="2"/>`, `random_seed="77"`}, nil},
		{"threads without system", `<argos-configuration><framework><experiment ticks_per_second="10"/></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			&two, nil, []string{`<framework><system threads="2" />`}, nil},
		{"length", `<argos-configuration><framework><experiment length="100" ticks_per_second="10"/></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			nil, &five, []string{`length="5.5"`}, []string{`length="100"`}},
		{"length not given in the file", `<argos-configuration><framework><experiment ticks_per_second="10"/></framework><controllers/><arena size="1,1,1"/></argos-configuration>`,
			nil, &five, []string{`length="5.5"`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exp, err := config.Parse("e.argos", []byte(c.in))
			if err != nil {
				t.Skipf("not an experiment config.Parse accepts: %v", err)
			}
			out, err := record.AsRun(exp, []byte(c.in), 77, record.Overrides{Threads: c.threads, Length: c.length})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(string(out), w) {
					t.Errorf("%q still in\n%s", w, out)
				}
			}
			back, err := config.Parse("e.argos", out)
			if err != nil {
				t.Fatalf("the result does not parse: %v\n%s", err, out)
			}
			if back.Framework.RandomSeed != 77 {
				t.Errorf("seed %d", back.Framework.RandomSeed)
			}
			if c.length != nil && back.Framework.Length != *c.length {
				t.Errorf("length %g", back.Framework.Length)
			}
			if c.threads != nil && back.Framework.Threads != *c.threads {
				t.Errorf("threads %d", back.Framework.Threads)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	args := []string{"argos", "-c", "my exp.argos", "--out", "it's", "", "a$b", "x=1,2"}
	line := record.ShellQuote(args)
	if line != `argos -c 'my exp.argos' --out 'it'\''s' '' 'a$b' x=1,2` {
		t.Errorf("%s", line)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// the shell reads the line back as the same arguments
	got, err := exec.Command(sh, "-c", `set -- `+line+`; for a in "$@"; do printf '[%s]' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "[" + strings.Join(args, "][") + "]"; string(got) != want {
		t.Errorf("sh reads %s, want %s", got, want)
	}
}

func TestCreateRefusesANonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	if _, err := record.Create(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a", "b", "x"), nil, 0o644)
	if _, err := record.Create(filepath.Join(dir, "a", "b")); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("%v", err)
	}
	if _, err := record.Create(""); err == nil {
		t.Error("an empty name was accepted")
	}
}

func TestReadCSVErrors(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"header": "a,b,c,d,e\n",
		"fields": record.CSVHeader + "\n1,0.1,,m\n",
		"number": record.CSVHeader + "\n1,0.1,,m,abc\n",
	} {
		p := filepath.Join(dir, name+".csv")
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := record.ReadCSV(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
