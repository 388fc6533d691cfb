package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseTree(t *testing.T) {
	src := "\xef\xbb\xbf<?xml version=\"1.0\"?>\n" +
		"<!-- a comment\n over two lines -->\n" +
		"<root a=\"1\" b='two'>\n" + // line 4
		"  text <![CDATA[<raw>]]>\n" +
		"  <child\n" + // line 6
		"     x=\"1\"\n" +
		"  />\n" +
		"  <!-- <ignored/> -->\n" +
		"  <ns:el/>\n" + // line 10
		"  more\n" +
		"</root>\n"
	root, err := ParseTree("t.argos", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if root.Name != "root" || root.Line != 4 || root.File != "t.argos" {
		t.Errorf("root = %s at %s", root.Name, root.Where())
	}
	if want := []Attr{{"a", "1"}, {"b", "two"}}; len(root.Attrs) != 2 || root.Attrs[0] != want[0] || root.Attrs[1] != want[1] {
		t.Errorf("attrs = %v, want %v", root.Attrs, want)
	}
	if root.Text != "text <raw>\n  \n  \n  \n  more" {
		t.Errorf("text = %q", root.Text)
	}
	if len(root.Children) != 2 {
		t.Fatalf("children = %d, want 2", len(root.Children))
	}
	if c := root.Children[0]; c.Name != "child" || c.Line != 6 || c.StringOr("x", "") != "1" || c.Parent() != root {
		t.Errorf("child = %+v", c)
	}
	if c := root.Children[1]; c.Name != "ns:el" || c.Line != 10 {
		t.Errorf("namespaced child = %s at line %d", c.Name, c.Line)
	}
}

func TestParseTreeLatin1(t *testing.T) {
	src := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<r name=\"caf\xe9\"/>"
	root, err := ParseTree("t.argos", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := root.StringOr("name", ""); got != "café" || root.Line != 2 {
		t.Errorf("name = %q at line %d", got, root.Line)
	}
}

func TestParseTreeErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		wantErr []string
	}{
		{"empty", "", []string{"t.argos: the file is empty"}},
		{"blank", "  \n\t\n", []string{"t.argos: the file is empty"}},
		{"only a comment", "<!-- nothing -->", []string{"t.argos: the file holds no XML element"}},
		{"not XML", "hello world\n", []string{"t.argos:1:", `text "hello world" before the root element`, "<argos-configuration>"}},
		{"binary", "\x00\x01\x02", []string{"t.argos:1:", "malformed XML"}},
		{"text after root", "<a/>\n\njunk", []string{"t.argos:3:", `text "junk" after </a>`}},
		{"two roots", "<a/>\n<b/>", []string{"t.argos:2:", "a second top-level element <b>", "move <b> inside <a>"}},
		{"truncated in element", "<a>\n  <b>\n", []string{"t.argos:2:", "<b> is never closed", "truncated", "</b></a>"}},
		{"truncated in tag", "<a>\n  <b x=\"1", []string{"t.argos:2:", "ends in the middle of a tag", "inside <a> (line 1)", "truncated"}},
		{"truncated comment", "<a>\n<!-- x", []string{"t.argos:2:", "ends in the middle of a tag or comment", "truncated"}},
		{"mismatched", "<a>\n  <b>\n  </c>\n</a>", []string{"t.argos:3:", "closing tag </c> does not match <b> opened at line 2", "close <b> first with </b>"}},
		{"stray close", "<a/>\n</a>", []string{"t.argos:2:", "closing tag </a> without an opening tag"}},
		{"unquoted", "<a>\n<b x=1/>\n</a>", []string{"t.argos:2:", "malformed XML", `write attributes as name="value"`}},
		{"duplicate attribute", "<a>\n<b x=\"1\" x=\"2\"/>\n</a>", []string{"t.argos:2:", `<b>: attribute "x" is given twice; keep only one`}},
		{"duplicate among many attributes", "<a>\n<b a=\"1\" b=\"1\" c=\"1\" d=\"1\" e=\"1\" f=\"1\" g=\"1\" h=\"1\" i=\"1\" c=\"2\"/>\n</a>",
			[]string{"t.argos:2:", `<b>: attribute "c" is given twice; keep only one`}},
		{"bad entity", "<a>\n&nbsp;\n</a>", []string{"t.argos:2:", "malformed XML", "&amp;"}},
		{"bad utf8", "<a>\n\xff\n</a>", []string{"t.argos:2:", "invalid UTF-8", "save the file as UTF-8"}},
		{"bare less-than", "<a>\n 1 < 2\n</a>", []string{"t.argos:2:", "malformed XML", "&lt;"}},
		{"utf16", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a/>", []string{"t.argos:1:", `encoding="UTF-16", which is not supported; save it as UTF-8`}},
		{"too deep", strings.Repeat("<a>", MaxDepth+1) + strings.Repeat("</a>", MaxDepth+1), []string{"t.argos:1:", "nested more than"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTree("t.argos", []byte(tt.src))
			checkErr(t, err, tt.wantErr...)
		})
	}
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "full.argos"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("full.argos", data); err != nil {
			b.Fatal(err)
		}
	}
}
