package ci_test

import (
	"testing"

	"github.com/argosgo/argos/ci"
)

func TestRegistryRecordsTheRegisteringPackage(t *testing.T) {
	r := ci.NewRegistry[int]("widget")
	r.MustRegister("a", "", 1)
	if err := r.Register("b", "", 2); err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Entries() {
		if e.Package != "github.com/argosgo/argos/ci_test" {
			t.Errorf("%s registered by %q, want this test's package", e.Name, e.Package)
		}
	}
}
