package config

import "testing"

// IDs makes, copy after copy and across its blocks, the ids ID names.
func TestIDsMatchID(t *testing.T) {
	for _, d := range []*Distribute{
		{BaseID: "ep", BaseNum: 0, Quantity: 3*idBlock + 17},
		{BaseID: "fb", BaseNum: 95, Quantity: 10},
		{BaseID: "", BaseNum: 9990, Quantity: idBlock},
		{BaseID: "x", BaseNum: 5, Quantity: 1},
	} {
		ids := d.IDs()
		for i := range d.Quantity {
			if got, want := ids.Next(), d.ID(i); got != want {
				t.Fatalf("%s from %d: copy %d is %q, want %q", d.BaseID, d.BaseNum, i, got, want)
			}
		}
	}
}
