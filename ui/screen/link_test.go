package screen

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// TestSeatLinks feeds the model path events built by hand, as a node at
// seat 1 reports them, and checks that each shows at its player's seat
// and nowhere else: a link reported before the seating is known shows
// once it is; the player's own seat never has one; a pause marks the
// waited-for seat with the reconnect grace left (the status line's own
// words) and survives a path event; the end of the pause clears the mark;
// a Snapshot taken earlier never changes; after a game that ended well
// no seat shows one.
func TestSeatLinks(t *testing.T) {
	ids := []peer.ID{"peer-alice", "peer-bob", "peer-carol", "peer-dave"}
	m := NewModel(nil)
	relayed := Link{State: LinkRelayed, Transport: "TCP", Relay: "relay-1", Why: "hole punching", Text: "relayed via relay: hole punching"}
	m.SetLink(ids[2], relayed) // before the seating: kept, not shown
	for s, sv := range m.Snapshot().Seats {
		if sv.Link != nil {
			t.Errorf("seat %d shows a link before the seating: %+v", s, sv.Link)
		}
	}
	m.Observe(protocol.Observation{Hand: 1, Stage: "shuffle", Seat: 1, Seats: ids, Nicks: []string{"alice", "bob", "carol", "dave"}})
	direct := Link{State: LinkDirect, Transport: "QUIC", How: "hole punched", Text: "direct (QUIC, hole punched)"}
	m.SetLink(ids[0], direct)
	m.SetLink(ids[1], direct) // this node's own ID: never shown
	m.SetLink("peer-stranger", direct)
	s := m.Snapshot()
	want := []*Link{&direct, nil, &relayed, nil}
	for seat, w := range want {
		got := s.Seats[seat].Link
		if (got == nil) != (w == nil) || got != nil && *got != *w {
			t.Errorf("seat %d: link %+v, want %+v", seat, got, w)
		}
	}

	m.PauseFor(protocol.Pause{Peer: ids[2], Nick: "carol", Left: 105 * time.Second})
	lost := Link{State: LinkNone, Text: "not connected"}
	m.SetLink(ids[2], lost)
	p := m.Snapshot()
	if p.State != StatePaused || p.Status != "waiting for carol to reconnect (1:45 left)" {
		t.Errorf("paused table: state %q, status %q", p.State, p.Status)
	}
	if l := p.Seats[2].Link; l == nil || l.State != LinkNone || l.Text != "not connected" || l.Pause != "waiting for carol to reconnect (1:45 left)" || l.LeftMs != 105000 {
		t.Errorf("carol's seat while paused: %+v", l)
	}
	if l := p.Seats[0].Link; l == nil || l.Pause != "" {
		t.Errorf("alice's seat while carol is waited for: %+v", l)
	}
	if l := s.Seats[2].Link; *l != relayed {
		t.Errorf("an earlier Snapshot changed: %+v", l)
	}

	m.PauseFor(protocol.Pause{})
	r := m.Snapshot()
	if r.State == StatePaused || r.Seats[2].Link == nil || r.Seats[2].Link.Pause != "" || r.Seats[2].Link.LeftMs != 0 {
		t.Errorf("after the pause: state %q, carol's seat %+v", r.State, r.Seats[2].Link)
	}

	// The others leave after a game that ended well: no news.
	m.Finish(nil, nil)
	m.SetLink(ids[0], lost)
	for s, sv := range m.Snapshot().Seats {
		if sv.Link != nil {
			t.Errorf("seat %d shows a link after the game: %+v", s, sv.Link)
		}
	}
}

// TestPauseBeforeAnyPath: a pause for a player no path event has named yet
// marks its seat as not connected, with the pause's words.
func TestPauseBeforeAnyPath(t *testing.T) {
	ids := []peer.ID{"peer-alice", "peer-bob", "peer-carol", "peer-dave"}
	m := NewModel(nil)
	m.Observe(protocol.Observation{Hand: 1, Stage: "shuffle", Seat: 0, Seats: ids, Nicks: []string{"alice", "bob", "carol", "dave"}})
	m.PauseFor(protocol.Pause{Peer: ids[3], Nick: "dave", Left: 2 * time.Minute})
	l := m.Snapshot().Seats[3].Link
	if l == nil || l.State != LinkNone || l.Pause != "waiting for dave to reconnect (2:00 left)" || l.LeftMs != 120000 {
		t.Errorf("dave's seat: %+v", l)
	}
}
