package screen

import (
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// openKyoku starts a kyoku in which every tile is known (seat s holds ids
// 13s..13s+12, the dora indicator is 135) so that the engine itself
// accepts every action: an independent referee for the model.
func openKyoku(t *testing.T) *game.Kyoku {
	t.Helper()
	var d game.Deal
	d.Scores = [4]int{25000, 25000, 25000, 25000}
	for s := range 4 {
		for i := range 13 {
			d.Haipai[s] = append(d.Haipai[s], wall.Tile(13*s+i))
		}
	}
	d.DoraIndicator = 135
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var testSeats = []peer.ID{"peer-a", "peer-b", "peer-c", "peer-d"}

// TestFeedFollowsTheEngine plays discards through the engine, observes
// after each step, and checks the snapshot and feed against the engine's
// own rivers, scores and live wall.
func TestFeedFollowsTheEngine(t *testing.T) {
	k := openKyoku(t)
	m := NewModel(nil)
	obs := func() {
		m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 1, Seats: testSeats, Nicks: []string{"alice", "bob", "", "dave"}, View: k.Clone()})
	}
	next := wall.Tile(52)
	for step := 0; step < 8; step++ {
		if _, err := k.Draw(next); err != nil {
			t.Fatal(err)
		}
		next++
		obs()
		s := k.Turn()
		tiles, _ := k.Hand(s)
		if err := k.Apply(game.Action{Type: game.Discard, Seat: s, Tile: tiles[len(tiles)-1]}); err != nil {
			t.Fatal(err)
		}
		obs()
		for _, a := range k.Awaiting() {
			if err := k.Apply(game.Action{Type: game.Pass, Seat: a}); err != nil {
				t.Fatal(err)
			}
		}
	}
	snap := m.Snapshot()
	if snap.TilesLeft != k.LiveLeft() || snap.Round != "East 1" || snap.Self != 1 {
		t.Errorf("snapshot shows %d tiles left in %q from seat %d; the engine has %d in East 1 from seat 1", snap.TilesLeft, snap.Round, snap.Self, k.LiveLeft())
	}
	var discards []string
	for _, e := range snap.Feed {
		if e.Kind == "discard" {
			discards = append(discards, e.Text)
		}
	}
	if len(discards) != 8 {
		t.Fatalf("%d discard events, want 8: %q", len(discards), discards)
	}
	for s := range 4 {
		river := k.River(game.Seat(s))
		if len(snap.Seats[s].River) != len(river) {
			t.Fatalf("seat %d: %d river tiles shown, engine has %d", s, len(snap.Seats[s].River), len(river))
		}
		for i, r := range river {
			if snap.Seats[s].River[i].Tile != int(r.Tile) || !snap.Seats[s].River[i].Tsumogiri {
				t.Errorf("seat %d river %d: %+v, engine %+v", s, i, snap.Seats[s].River[i], r)
			}
		}
	}
	// Seat 2 announced no nickname: named by its peer ID; seat 0 deals.
	if !strings.HasPrefix(discards[0], "alice (East) discards ") || !strings.HasPrefix(discards[2], ShortID(testSeats[2])+" (West) discards ") {
		t.Errorf("discard lines %q", discards[:3])
	}
	if !snap.Seats[0].Dealer || snap.Seats[1].Wind != "South" || !snap.Seats[1].Self {
		t.Errorf("seats %+v", snap.Seats)
	}
	// Seat 1's own hand: the view shows it all (an open kyoku); sorted.
	tiles, _ := k.Hand(1)
	if len(snap.MyHand)+boolInt(snap.Drawn >= 0) != len(tiles) {
		t.Errorf("my hand %v (drawn %d), engine %v", snap.MyHand, snap.Drawn, tiles)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestStates walks the model through pause, fault and the end.
func TestStates(t *testing.T) {
	m := NewModel(nil)
	if s := m.Snapshot(); s.State != StateConnecting || s.Seq != 0 {
		t.Fatalf("new model: %+v", s)
	}
	m.Observe(protocol.Observation{Hand: 1, Stage: "shuffle", Seat: 0, Seats: testSeats, Nicks: []string{"a", "b", "c", "d"}})
	if s := m.Snapshot(); s.State != StateDealing || !strings.Contains(s.Status, "shuffling") {
		t.Errorf("while shuffling: %q %q", s.State, s.Status)
	}
	m.Pause("waiting for b (South) to reconnect: 25 s left")
	if s := m.Snapshot(); s.State != StatePaused || !strings.Contains(s.Status, "reconnect") {
		t.Errorf("paused: %q %q", s.State, s.Status)
	}
	// The countdown moves the status line, not the feed: one entry when
	// the pause starts, one when play resumes.
	events := len(m.Snapshot().Feed)
	m.Pause("waiting for b (South) to reconnect: 24 s left")
	if s := m.Snapshot(); len(s.Feed) != events || !strings.Contains(s.Status, "24 s") {
		t.Errorf("countdown: %d feed entries after %d, status %q", len(s.Feed), events, s.Status)
	}
	m.Pause("")
	if s := m.Snapshot(); s.State == StatePaused || len(s.Feed) != events+1 || !strings.Contains(s.Feed[len(s.Feed)-1].Text, "back") {
		t.Errorf("resumed: %q, feed %+v", s.State, s.Feed[events:])
	}
	m.Pause("")
	if s := m.Snapshot(); len(s.Feed) != events+1 {
		t.Errorf("a second resume added a feed entry: %+v", s.Feed[events:])
	}
	blame := &protocol.BlameError{Blame: protocol.Blame{Peer: "peer-c", Hand: 1, Reason: "key for position 40 fails its commitment"}, Err: errors.New("x")}
	m.Finish(nil, blame)
	s := m.Snapshot()
	if s.State != StateFault || !strings.Contains(s.Status, "c (") || !strings.Contains(s.Status, "fails its commitment") {
		t.Errorf("fault: %q %q", s.State, s.Status)
	}
	if s.Feed[len(s.Feed)-1].Kind != "fault" {
		t.Errorf("no fault event in the feed: %+v", s.Feed)
	}
}

// TestStandingsWithUma checks Rank against Match's own standings after a
// hand that sends points one way.
func TestStandingsWithUma(t *testing.T) {
	st := game.Standings{Scores: [4]int{18000, 42000, 25000, 15000}, Points: [4]int{-220, 420, -50, -150}, Order: [4]game.Seat{1, 2, 0, 3}}
	r := Rank(st, Names{Seats: testSeats, Nicks: []string{"a", "b", "c", "d"}})
	if r[0].Name != "b (South)" || r[0].Points != 420 || r[3].Seat != 3 || r[0].Peer != testSeats[1].String() {
		t.Errorf("Rank = %+v", r)
	}
	if got := FormatStandings(r); !strings.HasPrefix(got, "1. b (South) 42000 points (+42.0)\n") {
		t.Errorf("FormatStandings = %q", got)
	}
}

// In a three-player game the standings and the end-of-hand score table
// leave the empty seat 3 out.
func TestSanmaLeavesSeatThreeOut(t *testing.T) {
	names := Names{Seats: make([]peer.ID, 3)}
	st := game.Standings{Order: [4]game.Seat{2, 3, 0, 1}, Scores: [4]int{30000, 20000, 55000, 0}}
	r := Rank(st, names)
	if len(r) != 3 || r[0].Seat != 2 || r[1].Seat != 0 || r[2].Seat != 1 || r[1].Rank != 2 {
		t.Fatalf("standings %+v, want seats 2, 0, 1 ranked 1 to 3", r)
	}
	hs := Summarize(protocol.HandResult{Seats: make([]peer.ID, 3)}, nil, names)
	if hs.Names[3] != "" || hs.Names[2] == "" {
		t.Fatalf("names %q, want three named seats and an empty seat 3", hs.Names)
	}
}
