package preyretrieval_test

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The controllers talk to their robots through ci only, built with
// behaviortk: they import nothing else of the project (no simulator, no
// shared memory between robots), so they run unchanged on real robots.
func TestImportsOnlyCIAndBehaviortk(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"github.com/argosgo/argos/ci": true, "github.com/argosgo/argos/behaviortk": true}
	files := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") && !allowed[path] {
				t.Errorf("%s imports %s; a controller imports only ci, behaviortk and the standard library", name, path)
			}
		}
	}
	if files < 3 {
		t.Errorf("found %d source files", files)
	}
}
