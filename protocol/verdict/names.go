package verdict

import (
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// windNames are the seat winds, East first.
var windNames = [...]string{"East", "South", "West", "North"}

// Names names a table's players: nickname, seat wind and seat, then the
// peer ID.
type Names struct {
	// Seats are the peer IDs in seat order (seat 0 = first East); nil
	// when the seating is not known.
	Seats []peer.ID
	// Nicks are the nicknames the players announced ("" or absent for
	// none).
	Nicks map[peer.ID]string
}

// Short returns "alice (East, seat 0)" for p in a hand whose dealer sits
// at seat oya (0..3, 0..2 with three seats, sanma; a negative oya leaves
// the wind out); a peer without a
// nickname is named by the end of its ID, one not at the table by its ID.
func (n Names) Short(p peer.ID, oya int) string {
	if p == "" {
		return "no player"
	}
	nick := n.Nicks[p]
	if nick == "" {
		nick = shortID(p)
	}
	s := slices.Index(n.Seats, p)
	switch {
	case s < 0:
		return nick
	case oya < 0:
		return fmt.Sprintf("%s (seat %d)", nick, s)
	}
	winds := len(windNames)
	if len(n.Seats) == 3 {
		winds = 3 // sanma: East, South, West from the dealer
	}
	return fmt.Sprintf("%s (%s, seat %d)", nick, windNames[(s-oya+winds)%winds], s)
}

// Long returns Short followed by the whole peer ID.
func (n Names) Long(p peer.ID, oya int) string {
	if p == "" {
		return n.Short(p, oya)
	}
	return n.Short(p, oya) + " " + p.String()
}

// shortID is the last 8 characters of a peer ID after an ellipsis.
func shortID(p peer.ID) string {
	s := p.String()
	if len(s) > 12 {
		return "…" + s[len(s)-8:]
	}
	return s
}

// Seat returns a function naming seats as Short does, for DescribeResult
// and FormatStandings.
func (n Names) Seat(oya int) func(game.Seat) string {
	return func(s game.Seat) string {
		if int(s) < 0 || int(s) >= len(n.Seats) {
			return fmt.Sprintf("seat %d", s)
		}
		return n.Short(n.Seats[s], oya)
	}
}
