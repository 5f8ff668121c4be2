package protocol

import (
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// PublicEntry is one public entry a player recorded (its own, or one it
// received), as the table's host publishes it to the spectators
// (Config.Publish; SPEC.md §25).
type PublicEntry struct {
	// Envelope is the signed entry (a serialized pb.Envelope), exactly as
	// the players exchanged it, signed by its author.
	Envelope []byte
	// Sender is the entry's author (a player of the table).
	Sender peer.ID
	// Index is the number of public entries this player recorded in the
	// game before this one: 0 for the first (its own Hello), then 1, 2, …
	// with no gap, in the order it recorded them, which is an order the
	// audit's replay of the kyoku (§15) takes. A spectator takes the
	// entries in that order and sees one missing.
	Index uint64
}

// publicCounts counts the public entries a game recorded.
type publicCounts struct {
	mu sync.Mutex
	n  uint64
}

// count counts o and returns the PublicEntry to publish if o is a public
// entry (one without a recipient), else nil.
func (c *publicCounts) count(o *Opened) *PublicEntry {
	if o.Recipient != "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &PublicEntry{Envelope: o.Envelope, Sender: o.Sender, Index: c.n}
	c.n++
	return e
}
