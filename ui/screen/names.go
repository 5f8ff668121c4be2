package screen

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// WindNames are the seat-wind names by distance from the dealer.
var WindNames = [4]string{"East", "South", "West", "North"}

// Names names the four players of a kyoku the same way everywhere: the
// nickname (or the end of the peer ID when none was announced) and the
// seat wind, "alice (East)".
type Names struct {
	// Seats are the peer IDs and Nicks the nicknames, in seat order (4
	// each, or nil when not yet known).
	Seats []peer.ID
	Nicks []string
	// Oya is the dealer's seat of the kyoku named.
	Oya game.Seat
}

// Nick returns seat s's nickname, or "…" and the last 8 characters of its
// peer ID when it announced none, or "seat N" when the seating is unknown.
func (n Names) Nick(s game.Seat) string {
	switch {
	case !s.Valid():
	case int(s) < len(n.Nicks) && n.Nicks[s] != "":
		return n.Nicks[s]
	case int(s) < len(n.Seats) && n.Seats[s] != "":
		return ShortID(n.Seats[s])
	}
	return fmt.Sprintf("seat %d", int(s))
}

// Wind returns seat s's seat-wind name ("East" for the dealer).
func (n Names) Wind(s game.Seat) string {
	if !s.Valid() || !n.Oya.Valid() {
		return "?"
	}
	return WindNames[n.Oya.Relative(s)]
}

// Name returns "nickname (Wind)", e.g. "alice (East)".
func (n Names) Name(s game.Seat) string {
	return fmt.Sprintf("%s (%s)", n.Nick(s), n.Wind(s))
}

// NameMsg is Name as a message (key "name": "alice (East)", "alice(東)").
func (n Names) NameMsg(s game.Seat) i18n.Msg {
	w := n.Wind(s)
	if w == "?" {
		return i18n.M("name", n.Nick(s), w)
	}
	return i18n.M("name", n.Nick(s), i18n.M("wind."+w))
}

// ShortID returns "…" and the last 8 characters of a peer ID (the whole ID
// when it is short).
func ShortID(p peer.ID) string {
	id := p.String()
	if len(id) > 12 {
		return "…" + id[len(id)-8:]
	}
	return id
}
