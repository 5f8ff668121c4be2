package terminal

import (
	"bytes"
	"github.com/mentalmj/mentalmj/ui/i18n"
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
	writeTable(&b, s, nil, nil)
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

// TestTableInJapanese: with the Japanese catalogue the terminal's table
// says 東1局, 本場, 残り…枚, ドラ表示牌 and 手牌, the winds as 東南西北, and
// no English word of the round line is left.
func TestTableInJapanese(t *testing.T) {
	ja, err := i18n.Load("ja")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := turnFor(t, "123m456p789s56m11z", "2z")
	var b strings.Builder
	writeTable(&b, s, nil, ja)
	out := b.String()
	for _, want := range []string{"東1局", "本場", "残り", "ドラ表示牌", "手牌: ", "親", "あなた"} {
		if !strings.Contains(out, want) {
			t.Errorf("the Japanese table lacks %q:\n%s", want, out)
		}
	}
	for _, english := range []string{"honba", "tiles left", "your hand", "dealer", "East 1"} {
		if strings.Contains(out, english) {
			t.Errorf("the Japanese table says %q:\n%s", english, out)
		}
	}
}
