package terminal

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/ui/screen"
)

// A three-player (sanma) table shows three seats: seat 3 is not in play.
func TestSanmaTableShowsThreeSeats(t *testing.T) {
	s := screen.Snapshot{Players: 3, Self: 1, Turn: 1, Round: "East 1"}
	for i, name := range []string{"alice", "bob", "carol", "nobody"} {
		s.Seats[i] = screen.SeatView{Name: name, Wind: []string{"East", "South", "West", "North"}[i]}
	}
	var b bytes.Buffer
	writeTable(&b, s)
	out := b.String()
	for _, name := range []string{"alice", "bob", "carol"} {
		if !strings.Contains(out, name) {
			t.Errorf("the table leaves out %s:\n%s", name, out)
		}
	}
	if strings.Contains(out, "nobody") {
		t.Errorf("the table shows seat 3 of a three-player game:\n%s", out)
	}
}
