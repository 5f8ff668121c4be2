package mjaibot

import (
	"encoding/json"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// turnLegal is a set of legal actions on a turn and on a tile on offer.
var turnLegal = []game.Action{
	{Type: game.Discard, Seat: 1, Tile: 16}, {Type: game.Discard, Seat: 1, Tile: 17},
	{Type: game.Discard, Seat: 1, Tile: 17, Riichi: true}, {Type: game.Discard, Seat: 1, Tile: 132},
	{Type: game.TsumoAgari, Seat: 1}, {Type: game.Ankan, Seat: 1, Tiles: []wall.Tile{108, 109, 110, 111}},
	{Type: game.Pass, Seat: 1}, {Type: game.Chi, Seat: 1, Tiles: []wall.Tile{20, 24}},
	{Type: game.Pon, Seat: 1, Tiles: []wall.Tile{16, 18}},
}

// TestReplies maps well-formed replies to the right legal action and
// refuses the others.
func TestReplies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want game.ActionType
		tile wall.Tile
		ok   bool
	}{
		{`{"type":"dahai","actor":1,"pai":"5mr","tsumogiri":false}`, game.Discard, 16, true},
		{`{"type":"dahai","actor":1,"pai":"5m","tsumogiri":true}`, game.Discard, 17, true},
		{`{"type":"dahai","actor":1,"pai":"C","tsumogiri":false}`, game.Discard, 132, true},
		{`{"type":"dahai","actor":1,"pai":"9p","tsumogiri":false}`, 0, 0, false},
		{`{"type":"dahai","actor":2,"pai":"C","tsumogiri":false}`, 0, 0, false},
		{`{"type":"hora","actor":1,"target":1}`, game.TsumoAgari, 0, true},
		{`{"type":"ankan","actor":1,"consumed":["E","E","E","E"]}`, game.Ankan, 0, true},
		{`{"type":"ankan","actor":1,"consumed":["E","E","E"]}`, 0, 0, false},
		{`{"type":"chi","actor":1,"target":0,"pai":"4m","consumed":["6m","7m"]}`, game.Chi, 0, true},
		{`{"type":"pon","actor":1,"target":0,"pai":"5m","consumed":["5mr","5m"]}`, game.Pon, 0, true},
		{`{"type":"pon","actor":1,"target":0,"pai":"5m","consumed":["5m","5m"]}`, 0, 0, false},
		{`{"type":"none"}`, game.Pass, 0, true},
		{`{"type":"kakan","actor":1,"pai":"5m","consumed":["5m","5m","5m"]}`, 0, 0, false},
		{`{"type":"start_game","id":1}`, 0, 0, false},
	}
	for _, c := range cases {
		var r mjai.Event
		if err := json.Unmarshal([]byte(c.line), &r); err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		a, err := action(r, turnLegal, 1, false, 17, wall.TenhouReds)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", c.line, err, c.ok)
			continue
		}
		if c.ok && (a.Type != c.want || (c.want == game.Discard && a.Tile != c.tile)) {
			t.Errorf("%s: got %v, want %v %v", c.line, a, c.want, c.tile)
		}
	}
	// After reach, only the riichi discard is taken.
	var r mjai.Event
	json.Unmarshal([]byte(`{"type":"dahai","actor":1,"pai":"5m","tsumogiri":true}`), &r)
	if a, err := action(r, turnLegal, 1, true, 17, wall.TenhouReds); err != nil || !a.Riichi {
		t.Errorf("riichi dahai: %v %v", a, err)
	}
	json.Unmarshal([]byte(`{"type":"dahai","actor":1,"pai":"C","tsumogiri":false}`), &r)
	if _, err := action(r, turnLegal, 1, true, 17, wall.TenhouReds); err == nil {
		t.Error("a riichi discard that is not legal was taken")
	}
}

// FuzzReply feeds arbitrary lines as bot replies: decoding and mapping
// must never panic, and anything accepted must be one of the legal
// actions.
func FuzzReply(f *testing.F) {
	for _, s := range []string{`{"type":"dahai","actor":1,"pai":"5mr","tsumogiri":false}`, `{"type":"none"}`,
		`{"type":"chi","actor":1,"target":0,"pai":"4m","consumed":["6m","7m"]}`, `garbage`, `{"type":"hora","actor":9}`,
		`{"type":"ankan","actor":1,"consumed":null}`, `{"type":"pon","actor":1,"consumed":[1,2]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var r mjai.Event
		if json.Unmarshal(line, &r) != nil {
			return
		}
		a, err := action(r, turnLegal, 1, false, 17, wall.TenhouReds)
		if err != nil {
			return
		}
		for _, l := range turnLegal {
			if l.Type == a.Type && l.Tile == a.Tile && l.Riichi == a.Riichi && len(l.Tiles) == len(a.Tiles) {
				return
			}
		}
		t.Fatalf("%s mapped to %v, not a legal action", line, a)
	})
}
