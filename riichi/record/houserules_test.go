package record_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
	"github.com/mentalmj/mentalmj/riichi/record"
	houserules "github.com/mentalmj/mentalmj/riichi/rules"
)

// This test is in package record_test because record/tenhou6 imports
// package record (its reader builds games with record.Game).

// A house-rules record converts to tenhou.net/6 with the red fives per
// suit in aka51-aka53 and the rest in rule.mentalmj_rules; Tenhou's rules
// write neither the attribute nor the key.
func TestHouseRulesTenhou6(t *testing.T) {
	for _, c := range []struct {
		rules      []string
		aka        [3]int // m, p, s
		wantAttr   bool
		wantInJSON string
	}{
		{[]string{"tenhou"}, [3]int{1, 1, 1}, false, ""},
		{[]string{"wrc"}, [3]int{0, 0, 0}, true, "kazoe=sanbaiman"},
		{[]string{"tenhou", "aka=4", "kiriage=on"}, [3]int{1, 2, 1}, true, `"mentalmj_rules":"aka=4;kiriage=on"`},
		{[]string{"tenhou", "aka=1"}, [3]int{0, 1, 0}, true, `"aka=1"`},
	} {
		set, err := houserules.Parse(c.rules[0], c.rules[1:])
		if err != nil {
			t.Fatal(err)
		}
		g := record.SelfPlay(t, 40, set.Game(4, false))
		var buf bytes.Buffer
		if err := mjlog.Write(&buf, g); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), houserules.RecordAttr+"="); got != c.wantAttr {
			t.Errorf("%v: mjlog has %s: %v, want %v", c.rules, houserules.RecordAttr, got, c.wantAttr)
		}
		l, err := tenhou6.Convert(g)
		if err != nil {
			t.Fatal(err)
		}
		if got := [3]int{l.Rule.Aka51, l.Rule.Aka52, l.Rule.Aka53}; got != c.aka {
			t.Errorf("%v: aka51-53 %v, want %v", c.rules, got, c.aka)
		}
		js, err := l.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.wantInJSON != "" && !strings.Contains(string(js), c.wantInJSON) {
			t.Errorf("%v: tenhou.net/6 JSON lacks %s: %.300s", c.rules, c.wantInJSON, js)
		}
		if !c.wantAttr && strings.Contains(string(js), "mentalmj_rules") {
			t.Errorf("%v: Tenhou's rules wrote mentalmj_rules", c.rules)
		}
	}
}
