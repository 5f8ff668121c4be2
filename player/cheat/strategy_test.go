package cheat

import (
	"slices"
	"strings"
	"testing"
)

// Every strategy is complete and findable by its name, and a name that is
// not a strategy is refused with the list of names.
func TestStrategiesAreComplete(t *testing.T) {
	all := All()
	if len(all) < 16 {
		t.Fatalf("%d strategies, want at least 16", len(all))
	}
	seen := map[string]bool{}
	for _, s := range all {
		switch {
		case s.Name == "" || s.Doc == "" || s.New == nil || s.Hands < 1:
			t.Errorf("incomplete strategy %+v", s)
		case seen[s.Name]:
			t.Errorf("strategy %s listed twice", s.Name)
		case s.Expect != ExpectBlame && s.Expect != ExpectFault:
			t.Errorf("%s: expect %q", s.Name, s.Expect)
		case !slices.Contains([]string{"at once", "end of hand", "transcript comparison"}, s.When):
			t.Errorf("%s: when %q", s.Name, s.When)
		case s.New() == nil:
			t.Errorf("%s: New returns nil", s.Name)
		}
		seen[s.Name] = true
		if got, err := Lookup(s.Name); err != nil || got.Name != s.Name {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got.Name, err)
		}
	}
	if _, err := Lookup("be-honest"); err == nil || !strings.Contains(err.Error(), "stall") {
		t.Errorf("Lookup of an unknown name: %v, want an error listing the strategies", err)
	}
}
