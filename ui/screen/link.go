package screen

import (
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// The states of a Link.
const (
	// LinkDirect: the node holds a direct connection to the player (a hole
	// punch, a LAN, a dialled address); the table's stream runs on it.
	LinkDirect = "direct"
	// LinkRelayed: the player is reached only through a relay.
	LinkRelayed = "relayed"
	// LinkNone: the player was reached once and is not now.
	LinkNone = "not connected"
)

// Link is how this player's node reaches the player of a seat, as the
// node's connection manager reports it (node.Path; docs/networking.md, "Playing from
// home"). The model takes it from the caller, which converts the node's
// path events; Text is the sentence the terminal and the progress line
// print after the player's name, so every screen says the same.
type Link struct {
	// State is LinkDirect, LinkRelayed or LinkNone.
	State string `json:"state"`
	// Transport is "QUIC" or "TCP" (for a relayed link, the transport to
	// the relay); "" with no connection.
	Transport string `json:"transport,omitempty"`
	// Family is "IPv4" or "IPv6" for a direct link (node.Path.Family);
	// "" otherwise or when not known.
	Family string `json:"family,omitempty"`
	// How says how a direct link came about: "hole punched", "LAN" or
	// "dialled"; "" otherwise.
	How string `json:"how,omitempty"`
	// Relay is the full peer ID of the relay a relayed link goes through.
	Relay string `json:"relay,omitempty"`
	// RelayPlayer is set when that relay is a player of the table
	// (node.Path.RelayPlayer).
	RelayPlayer bool `json:"relayPlayer,omitempty"`
	// Why says why a relayed link is not direct (yet): hole punching's
	// state, or the NAT that prevents it.
	Why string `json:"why,omitempty"`
	// Text is the whole link in words, node.Path.String: "direct (QUIC,
	// hole punched)", "relayed via 12D3Ko…mMMw: their NAT gives a new
	// port for every destination, so hole punching cannot work", "not
	// connected".
	Text string `json:"text"`
	// Pause is set while the table waits for this player to reconnect:
	// the line the status shows (protocol.Pause.Text, "waiting for bob to
	// reconnect (1:45 left)"), with LeftMs the reconnect grace left in
	// ms. "" and 0 otherwise.
	Pause  string `json:"pause,omitempty"`
	LeftMs int64  `json:"leftMs,omitempty"`
}

// SetLink records how the node reaches peer id now, l (a path event of
// the node), and shows it at id's seat once the seating is known; links
// of peers that never sit at the table are kept but not shown. A pause
// mark on id (PauseFor) stays until the pause ends.
func (m *Model) SetLink(id peer.ID, l Link) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.links == nil {
		m.links = map[peer.ID]Link{}
	}
	l.Pause, l.LeftMs = m.links[id].Pause, m.links[id].LeftMs
	m.links[id] = l
	m.seatLinks()
	m.commit()
}

// PauseFor shows p (protocol.PauseObserver's Pause): as Pause(p.Text())
// does, and at the seat of p.Peer the pause with the reconnect grace left
// (Link.Pause, Link.LeftMs). The zero Pause ends every seat's pause mark.
func (m *Model) PauseFor(p protocol.Pause) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.links == nil {
		m.links = map[peer.ID]Link{}
	}
	for id, l := range m.links {
		if id != p.Peer && l.Pause != "" {
			l.Pause, l.LeftMs = "", 0
			m.links[id] = l
		}
	}
	if p.Peer != "" {
		l, ok := m.links[p.Peer]
		if !ok {
			// Paused before any path event: nothing known but that the
			// player is gone.
			l = Link{State: LinkNone}
		}
		l.Pause, l.LeftMs = p.Text(), max(p.Left, 0).Milliseconds()
		m.links[p.Peer] = l
	}
	m.seatLinks()
	if !m.pause(p.Text(), PauseMsg(p)) {
		m.commit() // the pause marks ended without a pause (a fault, say)
	}
}

// seatLinks shows the links at the seats (every seat but this player's
// own) until the game is over: then the others leaving is no news. m.mu
// must be held. Each SeatView gets a Link of its own, so that Snapshots
// taken earlier never change.
func (m *Model) seatLinks() {
	for s := range m.s.Seats {
		sv := &m.s.Seats[s]
		sv.Link = nil
		if s >= len(m.names.Seats) || s == m.s.Self || m.s.State == StateOver {
			continue
		}
		if l, ok := m.links[m.names.Seats[s]]; ok {
			sv.Link = &l
		}
	}
}

// PauseMsg is p.Text() as a message (key info.pause), nil for the zero
// Pause.
func PauseMsg(p protocol.Pause) *i18n.Msg {
	if p.Peer == "" {
		return nil
	}
	who := p.Nick
	if who == "" {
		who = p.Peer.ShortString()
	}
	left := max(p.Left, 0).Round(time.Second)
	msg := i18n.M("info.pause", who, fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60))
	return &msg
}
