package protocol

import (
	"testing"

	"github.com/mentalmj/mentalmj/rules"
)

// Four bots play a whole east-only match under house rules (the WRC
// preset with four red fives, triple ron and kiriage): the record says the
// rules (GO type bits for no open tanyao, the rules.RecordAttr attribute for
// the rest) and the replay of the record under those rules, end of match
// and final points included, matches every step.
func TestHouseRulesMatchRecordReplays(t *testing.T) {
	set, err := rules.Parse("wrc", []string{"aka=4", "ron=triple", "kiriage=on", "kuitan=off"})
	if err != nil {
		t.Fatal(err)
	}
	r := set.Game(Players, false)
	g := playRecordedMatch(t, &r)
	if !g.Go.Aka() || g.Go.Kuitan() {
		t.Errorf("GO type %#x: want red fives on (4 of them) and open tanyao off", g.Go.Type)
	}
	var attr string
	for _, a := range g.Go.Extra {
		if a.Name == rules.RecordAttr {
			attr = a.Value
		}
	}
	back, err := rules.FromRecord(attr, Players, false)
	if err != nil || back != r {
		t.Errorf("record %s=%q decodes to %+v, %v; want the rules played %+v", rules.RecordAttr, attr, back, err, r)
	}
}

func TestRulesForAnotherTableRefused(t *testing.T) {
	tb := newTable(t)
	r := rules.Default().Game(3, true) // three-player rules at a four-player table
	if _, err := NewGame(Config{Table: "x", Identity: tb.keys[0], Peers: tb.ids, Rules: &r, Transport: tb.net.Transport(tb.ids[0])}); err == nil {
		t.Fatal("NewGame accepted three-player rules for four players")
	}
}
