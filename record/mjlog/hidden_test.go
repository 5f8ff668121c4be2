package mjlog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// A player's view with hidden tiles (a private-hands record) is written
// with "?" in the INIT hai lists and tsumo tags without an id; ParseView
// reads it back exactly, and Parse refuses both forms by name.
func TestHiddenTilesRoundTrip(t *testing.T) {
	hai := func(first wall.Tile) []wall.Tile {
		out := make([]wall.Tile, 13)
		for i := range out {
			out[i] = Hidden
		}
		out[3] = first
		return out
	}
	g := &Game{Version: "2.3", Rounds: []Round{{
		Init: Init{Kyoku: 0, Dice: [2]int{1, 2}, DoraIndicator: 57, Ten: []int{250, 250, 250, 250},
			Hai: [4][]wall.Tile{{0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48}, hai(1), hai(2), hai(3)}},
		Events: []Event{Draw{Who: 0, Tile: 52}, Discard{Who: 0, Tile: 52}, Draw{Who: 1, Tile: Hidden}, Discard{Who: 1, Tile: 5}},
	}}}
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	doc := buf.String()
	if !strings.Contains(doc, `hai1="?,?,?,1,?,?,?,?,?,?,?,?,?"`) || !strings.Contains(doc, "<U/>") {
		t.Fatalf("hidden tiles not written as ? and <U/>:\n%s", doc)
	}
	back, err := ParseView(strings.NewReader(doc), "view.xml")
	if err != nil {
		t.Fatal(err)
	}
	if !back.HasHidden() || len(back.Rounds) != 1 || back.Rounds[0].Events[2] != (Draw{Who: 1, Tile: Hidden}) || back.Rounds[0].Init.Hai[2][3] != 2 || back.Rounds[0].Init.Hai[2][0] != Hidden {
		t.Fatalf("ParseView: %+v", back.Rounds)
	}
	if _, err := Parse(strings.NewReader(doc), "view.xml"); err == nil || !strings.Contains(err.Error(), "private-hands") {
		t.Errorf("Parse of a view: %v, want a refusal naming private hands", err)
	}
	// A hidden draw alone is refused too.
	noHai := strings.Replace(doc, `hai1="?,?,?,1,?,?,?,?,?,?,?,?,?"`, `hai1="1"`, 1)
	noHai = strings.Replace(noHai, `hai2="?,?,?,2,?,?,?,?,?,?,?,?,?"`, `hai2="2"`, 1)
	noHai = strings.Replace(noHai, `hai3="?,?,?,3,?,?,?,?,?,?,?,?,?"`, `hai3="3"`, 1)
	if _, err := Parse(strings.NewReader(noHai), "view.xml"); err == nil || !strings.Contains(err.Error(), "<U>") || !strings.Contains(err.Error(), "private-hands") {
		t.Errorf("Parse of a hidden draw: %v, want a refusal of <U> naming private hands", err)
	}
}
