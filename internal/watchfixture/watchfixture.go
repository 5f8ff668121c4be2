// Package watchfixture plays a whole game of bots on an in-memory
// network (protocol/memnet) and keeps what its host publishes to
// spectators (protocol.Config.Publish, SPEC.md §25): a fixture for the
// tests of the spectators' tables (packages ui/spectator, ui/web,
// ui/terminal), which feed those entries to a table at their own pace —
// a hand half played, then the rest — and check what it shows.
//
// Nothing here is a spectator's network code (package node/spectate is):
// Feed does what node/spectate.Watch.Run does with the entries it takes,
// in the same order — each entry to the table, and after each hand's key
// reveals the offline audit of the entries taken so far
// (protocol.AuditTranscript), whose hand goes to the table.
package watchfixture

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// fixedSeed returns the protocol.SeedSize-byte seed of player i's
// source named what ("identity" or "game"): SHA-256 of
// "mentalmj watchfixture", what and i.
func fixedSeed(what string, i int) []byte {
	h := sha256.Sum256(fmt.Appendf(nil, "mentalmj watchfixture %s %d", what, i))
	return h[:protocol.SeedSize]
}

// Game is a played game as a spectator receives it.
type Game struct {
	// Entries are the host's public entries, in its order (Index 0, 1, …).
	Entries []*protocol.Opened
	// Players is the number of players, 4 or 3 (sanma).
	Players int
}

// Play plays hands hands of n players (4, or 3 for sanma) of bots, the
// first player the host, and returns its public entries; configure, if
// given, changes every player's Config (private hands, say). Every
// player's identity key and secrets come from a fixed seed of its own
// (fixedSeed, protocol.SeedRand), so the same call plays the same game
// in every run: the same seats, walls and bots' choices. A test's
// premise (two hands played, none cut short by a player below zero) is
// then checked once, not left to a random wall. It returns a player's
// error, or ctx's.
func Play(ctx context.Context, n, hands int, configure ...func(*protocol.Config)) (*Game, error) {
	net := memnet.New()
	var keys []crypto.PrivKey
	var ids []peer.ID
	for i := range n {
		k, _, err := crypto.GenerateEd25519Key(protocol.SeedRand(fixedSeed("identity", i)))
		if err != nil {
			return nil, err
		}
		id, _ := peer.IDFromPrivateKey(k)
		keys, ids = append(keys, k), append(ids, id)
	}
	nicks := []string{"alice", "bob", "carol", "dave"}
	g := &Game{Players: n}
	var mu sync.Mutex
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		b := bot.New(uint64(i + 1))
		cfg := protocol.Config{
			Table: "watched", Identity: keys[i], Peers: ids, Nick: nicks[i], Hands: hands, Spectators: 2,
			Transport: net.Transport(ids[i]), Timeout: 20 * time.Second, Rand: protocol.SeedRand(fixedSeed("game", i)),
			Player: protocol.PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return b.Choose(v, s) }),
		}
		for _, c := range configure {
			c(&cfg)
		}
		if i == 0 {
			cfg.Publish = func(e protocol.PublicEntry) {
				o, err := protocol.Open(e.Envelope)
				mu.Lock()
				defer mu.Unlock()
				if err != nil || e.Index != uint64(len(g.Entries)) {
					errs[0] = fmt.Errorf("published entry %d: %v", e.Index, err)
					return
				}
				g.Entries = append(g.Entries, o)
			}
		}
		pg, err := protocol.NewGame(cfg)
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := pg.Run(ctx); err != nil {
				mu.Lock()
				errs[i] = fmt.Errorf("player %d: %w", i, err)
				mu.Unlock()
				net.Disconnect(ids[i])
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Late returns the entries of g a spectator that joined during hand n
// gets from the host's catch-up and the topic (SPEC.md §25): the Hellos,
// hand 1's nonce commitments and reveals, and every entry of the hands
// from n on.
func (g *Game) Late(n uint32) *Game {
	late := &Game{Players: g.Players}
	for _, o := range g.Entries {
		e := o.Entry
		if e.Hand == 0 || e.Hand == 1 && (e.GetNonceCommit() != nil || e.GetNonceReveal() != nil) || e.Hand >= n {
			late.Entries = append(late.Entries, o)
		}
	}
	return late
}

// Table is what a spectator's table takes: every entry, in order, and
// each hand's audit after its key reveal (ui/spectator.Table).
type Table interface {
	Entry(*protocol.Opened) error
	Hand(*protocol.HandAudit)
}

// Feeder feeds a Game's entries to a Table as node/spectate.Watch.Run
// does: after the last key reveal of a hand, the audit of the entries fed
// so far gives that hand to the Table.
type Feeder struct {
	g       *Game
	t       Table
	next    int
	recs    []protocol.Record
	reveals map[uint32]map[peer.ID]bool
}

// NewFeeder returns a Feeder of g's entries to t, from the first.
func NewFeeder(g *Game, t Table) *Feeder {
	return &Feeder{g: g, t: t, reveals: map[uint32]map[peer.ID]bool{}}
}

// Fed returns the number of entries fed.
func (f *Feeder) Fed() int { return f.next }

// Done reports whether every entry was fed.
func (f *Feeder) Done() bool { return f.next >= len(f.g.Entries) }

// Step feeds the next entry and reports whether a hand was audited after
// it (its number; 0 if none). It returns the Table's error for the entry.
func (f *Feeder) Step() (int, error) {
	if f.Done() {
		return 0, nil
	}
	o := f.g.Entries[f.next]
	f.next++
	f.recs = append(f.recs, protocol.Record{Index: len(f.recs) + 1, Envelope: o.Envelope})
	err := f.t.Entry(o)
	e := o.Entry
	if e.GetKeyReveal() == nil {
		return 0, err
	}
	if f.reveals[e.Hand] == nil {
		f.reveals[e.Hand] = map[peer.ID]bool{}
	}
	f.reveals[e.Hand][o.Sender] = true
	if len(f.reveals[e.Hand]) < f.g.Players {
		return 0, err
	}
	a := protocol.AuditTranscript(f.recs)
	for _, h := range a.Hands {
		if h.Hand == int(e.Hand) {
			f.t.Hand(h)
			return int(e.Hand), err
		}
	}
	return 0, fmt.Errorf("hand %d: the audit of the entries taken has no such hand (%d hands)", e.Hand, len(a.Hands))
}

// Until feeds entries until stop, asked after each, says so or every
// entry is fed; it returns the first error.
func (f *Feeder) Until(stop func(o *protocol.Opened, audited int) bool) error {
	for !f.Done() {
		o := f.g.Entries[f.next]
		n, err := f.Step()
		if err != nil {
			return err
		}
		if stop(o, n) {
			return nil
		}
	}
	return nil
}
