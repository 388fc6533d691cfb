package config_test

import (
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
)

const rewriteDoc = `<?xml version="1.0"?>
<argos-configuration>
  <framework>
    <!-- <experiment length="1"/> is not found --><experiment length='10' ticks_per_second="10"/>
  </framework>
  <arena size="1,1,1">
  <box id="a"><body/></box><box id="b"><box id="inner"/><body/></box></arena>
</argos-configuration>
`

func findNode(t *testing.T, root *config.Node, path ...string) *config.Node {
	t.Helper()
	n := root
	for _, p := range path {
		if n = n.FirstChild(p); n == nil {
			t.Fatalf("no <%s> in %v", p, path)
		}
	}
	return n
}

func TestRewriteSetAttr(t *testing.T) {
	root, err := config.ParseTree("x.argos", []byte(rewriteDoc))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(rewriteDoc)
	exp := findNode(t, root, "framework", "experiment")
	lt, gt, err := config.StartTag(data, exp, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data[lt:gt]); got != `<experiment length='10' ticks_per_second="10"` {
		t.Fatalf("start tag %q", got)
	}
	out := config.SetAttr(data, lt, gt, "length", "it's")
	if !strings.Contains(string(out), `length='it&apos;s'`) {
		t.Errorf("single-quoted value not escaped:\n%s", out)
	}
	lt, gt, _ = config.StartTag(out, exp, 0)
	out = config.SetAttr(out, lt, gt, "random_seed", `7"<&`)
	if !strings.Contains(string(out), `ticks_per_second="10" random_seed="7&quot;&lt;&amp;"/>`) {
		t.Errorf("new attribute not added before />:\n%s", out)
	}
	if !strings.Contains(string(out), `<!-- <experiment length="1"/>`) {
		t.Errorf("the comment changed:\n%s", out)
	}
	if strings.Count(string(out), "\n") != strings.Count(rewriteDoc, "\n") {
		t.Errorf("lines added or removed")
	}
	if _, err := config.ParseTree("x.argos", out); err != nil {
		t.Errorf("rewritten file does not parse: %v", err)
	}
}

func TestRewriteRename(t *testing.T) {
	root, err := config.ParseTree("x.argos", []byte(rewriteDoc))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(rewriteDoc)
	arena := findNode(t, root, "arena")
	// the second <box> of the line, which holds a nested <box>
	b := arena.Children[1]
	lt, gt, err := config.StartTag(data, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	out, err := config.RenameElement(data, "box", lt, gt, "cylinder")
	if err != nil {
		t.Fatal(err)
	}
	want := `<box id="a"><body/></box><cylinder id="b"><box id="inner"/><body/></cylinder></arena>`
	if !strings.Contains(string(out), want) {
		t.Errorf("rename:\n%s\nwant %s", out, want)
	}
	if _, err := config.RenameElement(data, "box", lt, gt, "no spaces"); err == nil {
		t.Error("a bad tag name was accepted")
	}
	if _, _, err := config.StartTag(data, b, 5); err == nil || !strings.Contains(err.Error(), "cannot find <box> of line 7") {
		t.Errorf("missing element: %v", err)
	}
}
