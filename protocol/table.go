package protocol

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// Version is the protocol version every player announces in its Hello; a
// player announcing another version is refused.
const Version = "mentalmj/4"

// Players is the number of players at a four-player table, the default
// and the most a table seats. A game's own count is the number of its
// peers (Config.Peers): 4, or 3 for Tenhou three-player (sanma) rules on
// the 108-tile wall (Game.Players).
const Players = 4

// maxSeats sizes the per-seat arrays of a hand; a three-player hand uses
// the first three entries.
const maxSeats = Players

// layoutFor returns the wall layout of a game with n players:
// wall.ThreePlayer (108 tiles) for 3, wall.FourPlayer (136) otherwise.
func layoutFor(n int) wall.Layout {
	if n == 3 {
		return wall.ThreePlayer
	}
	return wall.FourPlayer
}

// rulesPlayers returns the number of players rules are for: 3 or 4.
func rulesPlayers(r game.Rules) int {
	if r.Players == 3 {
		return 3
	}
	return 4
}

// deckPoints returns the tile points of the layout's tile set, in the
// order of l.Set(): the deck the first shuffle pass starts from (136
// points, or 108 for three players).
func deckPoints(tiles *commcrypto.TileTable, l wall.Layout) []commcrypto.Element {
	set := l.Set()
	out := make([]commcrypto.Element, len(set))
	for i, t := range set {
		out[i] = tiles.Point(int(t))
	}
	return out
}

// sortPeers returns the peer IDs in ascending byte order, the canonical
// order used for hashing.
func sortPeers(ids []peer.ID) []peer.ID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b peer.ID) int { return bytes.Compare([]byte(a), []byte(b)) })
	return out
}

// checkTablePeers returns an error if ids is not three or four distinct
// valid peer IDs that include self.
func checkTablePeers(ids []peer.ID, self peer.ID) error {
	if len(ids) != 3 && len(ids) != Players {
		return fmt.Errorf("a table has 3 or %d players, got %d peer IDs", Players, len(ids))
	}
	seen := map[peer.ID]bool{}
	for _, id := range ids {
		if err := id.Validate(); err != nil {
			return fmt.Errorf("peer ID %q: %w", id, err)
		}
		if seen[id] {
			return fmt.Errorf("peer %s is listed twice", id)
		}
		seen[id] = true
	}
	if !seen[self] {
		return fmt.Errorf("own peer ID %s is not among the table's peers", self)
	}
	return nil
}

// gameID returns SHA-256("mentalmj/v1/game" ‖ len-prefixed table ‖
// version ‖ for each peer in ascending order: len-prefixed peer ID ‖ its
// Hello nonce). Every Entry after the Hellos carries it.
func gameID(table string, peers []peer.ID, nonces map[peer.ID][]byte) []byte {
	h := sha256.New()
	h.Write([]byte("mentalmj/v1/game"))
	writeLP(h, []byte(table))
	writeLP(h, []byte(Version))
	for _, p := range sortPeers(peers) {
		writeLP(h, []byte(p))
		writeLP(h, nonces[p])
	}
	return h.Sum(nil)
}

type byteWriter interface{ Write([]byte) (int, error) }

// writeLP writes b with a 4-byte big-endian length prefix, so that
// concatenated fields cannot be confused.
func writeLP(w byteWriter, b []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	w.Write(n[:])
	w.Write(b)
}
