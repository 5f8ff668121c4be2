package protocol

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Version is the protocol version every player announces in its Hello; a
// player announcing another version is refused.
const Version = "mentalmj/2"

// Players is the number of players at a table.
const Players = 4

// sortPeers returns the peer IDs in ascending byte order, the canonical
// order used for hashing.
func sortPeers(ids []peer.ID) []peer.ID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b peer.ID) int { return bytes.Compare([]byte(a), []byte(b)) })
	return out
}

// checkTablePeers returns an error if ids is not four distinct valid peer
// IDs that include self.
func checkTablePeers(ids []peer.ID, self peer.ID) error {
	if len(ids) != Players {
		return fmt.Errorf("a table has %d players, got %d peer IDs", Players, len(ids))
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
