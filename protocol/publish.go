package protocol

import (
	"maps"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// PublicEntry is one public entry a player signed, as it publishes it to
// the table's spectators (Config.Publish; SPEC.md §25).
type PublicEntry struct {
	// Envelope is the signed entry (a serialized pb.Envelope), exactly as
	// sent to the other players.
	Envelope []byte
	// Index is the number of public entries this player signed in the
	// game before this one: 0 for its Hello, then 1, 2, … with no gap,
	// so that a spectator puts one player's entries in order and sees
	// one missing.
	Index uint64
	// After is, for each other player, how many of that player's public
	// entries this player had recorded when it signed this one (a vector
	// clock: Lamport, "Time, clocks, and the ordering of events", CACM
	// 21(7), 1978; Fidge and Mattern's vector form). A spectator takes
	// this entry only after those, so it sees the game in an order one
	// of the players saw: the order the audit's replay of the kyoku
	// needs. A player absent has recorded none.
	After map[peer.ID]uint64
}

// publicCounts counts the public entries a game recorded: its own and,
// per sender, those it received.
type publicCounts struct {
	mu   sync.Mutex
	own  uint64
	seen map[peer.ID]uint64
}

// count counts o, recorded by player self, and returns the PublicEntry to
// publish if o is a public entry self signed, else nil.
func (c *publicCounts) count(self peer.ID, o *Opened) *PublicEntry {
	if o.Recipient != "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if o.Sender != self {
		if c.seen == nil {
			c.seen = map[peer.ID]uint64{}
		}
		c.seen[o.Sender]++
		return nil
	}
	e := &PublicEntry{Envelope: o.Envelope, Index: c.own, After: maps.Clone(c.seen)}
	c.own++
	return e
}
