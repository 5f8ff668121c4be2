package screen

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// The snapshot names the red fives of the table's rules, so that the page
// draws a plain 5m as plain when the table plays without red fives.
func TestSnapshotRedFives(t *testing.T) {
	for _, c := range []struct {
		red  int  // riichi.Rules.Red
		aka  bool // riichi.Rules.Aka
		want []int
	}{
		{0, true, []int{16, 52, 88}},
		{0, false, []int{}},
		{1, true, []int{52}},
		{4, true, []int{16, 52, 53, 88}},
	} {
		r := game.TenhouRules(true, c.aka, true)
		r.Hand.Red = c.red
		var d game.Deal
		d.Scores = [4]int{25000, 25000, 25000, 25000}
		for s := range 4 {
			for i := range 13 {
				d.Haipai[s] = append(d.Haipai[s], wall.Tile(13*s+i))
			}
		}
		d.DoraIndicator = 135
		k, err := game.NewKyoku(r, d)
		if err != nil {
			t.Fatal(err)
		}
		m := NewModel(nil)
		m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, Seats: testSeats, Nicks: []string{"a", "b", "c", "d"}, View: k.Clone()})
		if got := m.Snapshot().Red; got == nil || !slices.Equal(got, c.want) {
			t.Errorf("aka %v red %d: snapshot red %v, want %v", c.aka, c.red, got, c.want)
		}
	}
}

// redKyoku starts East 1 under rules r with every tile known: the dealer
// (seat 0) holds 5m 16, 17, 5p 52, 53 and 5s 88, 89, seat 1 the other
// two 5p (54, 55), so that the dealer can discard a 5p that seat 1 pons.
func redKyoku(t *testing.T, r game.Rules) *game.Kyoku {
	t.Helper()
	var d game.Deal
	d.Scores = [4]int{25000, 25000, 25000, 25000}
	d.Haipai[0] = []wall.Tile{16, 17, 52, 53, 88, 89, 100, 101, 102, 103, 104, 105, 106}
	d.Haipai[1] = []wall.Tile{54, 55, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	next := wall.Tile(20)
	for s := 2; s < 4; s++ {
		for range 13 {
			d.Haipai[s] = append(d.Haipai[s], next)
			next++
		}
	}
	d.DoraIndicator = 135
	k, err := game.NewKyoku(r, d)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// isRedName names tile t with the digit 0 when red says so: the naming
// the table must follow, from a predicate rather than from wall.Reds.
func isRedName(red func(wall.Tile) bool, t wall.Tile) string {
	if k := t.Kind(); k.Suit() == 'z' {
		// Honours by name, never "4z" (issue 26).
		return []string{"East", "South", "West", "North", "White", "Green", "Red"}[k.Number()-1]
	}
	if red(t) {
		return "0" + string(t.Kind().Suit())
	}
	return t.Kind().String()
}

// discardLabels returns the labels the dealer's discard options must
// have for hand under the naming red: one per distinct name.
func discardLabels(hand []wall.Tile, red func(wall.Tile) bool) []string {
	var out []string
	for _, t := range hand {
		if l := "discard " + isRedName(red, t); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// TestFeedNamesRedFives plays a discard of the second 5p (id 53) and a
// pon of it under aka=0..4 and checks the dealer's discard options, the
// feed's discard line and call line against the rules' IsRed (the second
// path): 53 is "0p" only with four red fives, 52 "5p" with none. The
// naming of Tenhou's tiles (id 52 always red) must fail the option check
// except under aka=3 (a deliberate tamper).
func TestFeedNamesRedFives(t *testing.T) {
	for aka := range 5 {
		r := game.TenhouRules(true, aka > 0, true)
		if aka != 3 {
			r.Hand.Red = aka
		}
		isRed := r.Hand.IsRed
		k := redKyoku(t, r)
		m := NewModel(nil)
		obs := func() {
			m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, Seats: testSeats, Nicks: []string{"alice", "bob", "carol", "dave"}, View: k.Clone()})
		}
		obs()
		if _, err := k.Draw(120); err != nil {
			t.Fatal(err)
		}
		obs()
		d := m.Decide(k, 0, time.Time{}, game.Action{Type: game.Discard, Seat: 0, Tile: 120})
		var labels []string
		for _, o := range d.Options {
			if o.Kind == "discard" {
				labels = append(labels, o.Label)
			}
		}
		slices.Sort(labels)
		hand, _ := k.Hand(0)
		if want := discardLabels(hand, isRed); !slices.Equal(labels, want) {
			t.Errorf("aka=%d: discard options %v, want %v", aka, labels, want)
		}
		if d.Default < 0 || d.Options[d.Default].Action.Tile != 120 {
			t.Errorf("aka=%d: default option %d, want the tsumogiri of 120", aka, d.Default)
		}
		if tenhou := discardLabels(hand, wall.Tile.IsRed); slices.Equal(labels, tenhou) != (aka == 3) {
			t.Errorf("aka=%d: Tenhou's naming %v checked equal=%v", aka, tenhou, slices.Equal(labels, tenhou))
		}
		m.Decided(d.ID, "")
		if err := k.Apply(game.Action{Type: game.Discard, Seat: 0, Tile: 53}); err != nil {
			t.Fatal(err)
		}
		obs()
		var pon game.Action
		for _, a := range k.LegalActions(1) {
			if a.Type == game.Pon {
				pon = a
			}
		}
		if pon.Type != game.Pon {
			t.Fatalf("aka=%d: seat 1 cannot pon 53: %v", aka, k.LegalActions(1))
		}
		for _, s := range k.Awaiting() {
			a := game.Action{Type: game.Pass, Seat: s}
			if s == 1 {
				a = pon
			}
			if err := k.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		obs()
		var discard, call string
		for _, e := range m.Snapshot().Feed {
			switch e.Kind {
			case "discard":
				discard = e.Text
			case "call":
				call = e.Text
			}
		}
		if want := "alice (East) discards " + isRedName(isRed, 53); discard != want {
			t.Errorf("aka=%d: feed %q, want %q", aka, discard, want)
		}
		meld := "555p"
		if isRed(53) {
			meld = "055p"
		}
		if want := "on " + isRedName(isRed, 53) + " from alice (East): " + meld; !strings.HasSuffix(call, want) {
			t.Errorf("aka=%d: feed %q, want it to end %q", aka, call, want)
		}
	}
}
