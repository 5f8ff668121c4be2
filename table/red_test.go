package table

import (
	"slices"
	"testing"

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
