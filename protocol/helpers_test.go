package protocol

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol/memnet"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// table is four (or three) in-process players on a memnet.Network.
type table struct {
	keys        []crypto.PrivKey
	ids         []peer.ID
	net         *memnet.Network
	transcripts []*bytes.Buffer
}

func newTable(t testing.TB) *table { return newTableN(t, Players) }

// newTableN returns a table of n players: 4, or 3 for sanma.
func newTableN(t testing.TB, n int) *table { return newTableFrom(t, n, rand.Reader) }

// newFixedTable returns a table of four players whose identity keys come
// from a fixed seed: the same peer IDs, and so (with fixed Config.Rand
// and bots) the same seating and walls, every run.
func newFixedTable(t testing.TB, seed byte) *table {
	s := make([]byte, SeedSize)
	s[0], s[1] = seed, 0xfe
	return newTableFrom(t, Players, SeedRand(s))
}

// newTableFrom returns a table of n players with keys read from keys.
func newTableFrom(t testing.TB, n int, keys io.Reader) *table {
	t.Helper()
	tb := &table{net: memnet.New()}
	for i := 0; i < n; i++ {
		k, _, err := crypto.GenerateEd25519Key(keys)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		tb.keys = append(tb.keys, k)
		tb.ids = append(tb.ids, id)
		tb.transcripts = append(tb.transcripts, &bytes.Buffer{})
	}
	return tb
}

type outcome struct {
	results []HandResult
	err     error
}

// play runs n hands with the four players; configure may change each
// player's Config (e.g. to make one of them cheat).
func (tb *table) play(t testing.TB, n int, configure func(i int, c *Config)) []outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out := make([]outcome, len(tb.ids))
	var wg sync.WaitGroup
	for i := range tb.ids {
		cfg := Config{
			Table:      "test",
			Identity:   tb.keys[i],
			Peers:      tb.ids,
			Hands:      n,
			Transport:  tb.net.Transport(tb.ids[i]),
			Transcript: NewTranscript(tb.transcripts[i]),
			Timeout:    10 * time.Second,
		}
		if configure != nil {
			configure(i, &cfg)
		}
		g, err := NewGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := g.Run(ctx)
			out[i] = outcome{res, err}
			if err != nil {
				// A player that gives up disconnects, as a node would.
				tb.net.Disconnect(tb.ids[i])
			}
		}()
	}
	wg.Wait()
	return out
}

// blamed returns the peer named by err's BlameError, "" if none.
// A blame without a kind (BlameKind) is a defect: blamed names it instead
// of a peer, so that the caller's comparison fails and shows it.
func blamed(err error) peer.ID {
	var be *BlameError
	if errors.As(err, &be) {
		if be.Kind == "" {
			return peer.ID("a blame without a kind: " + be.Reason)
		}
		return be.Peer
	}
	return ""
}

// tamper is a Misbehavior that rewrites outgoing entries with f.
type tamper func(hand uint32, to peer.ID, e *pb.Entry)

func (tamper) Fork(uint32, *pb.Entry) ForkMode                                   { return NoFork }
func (tamper) Envelope(_ uint32, _ peer.ID, env []byte) []byte                   { return env }
func (f tamper) Entry(hand uint32, to peer.ID, e *pb.Entry)                      { f(hand, to, e) }
func (tamper) Act(_ *game.Kyoku, _ game.Seat, a game.Action) (game.Action, bool) { return a, false }

// unchecked is a Misbehavior that sends whatever the Player chose, legal
// or not.
type unchecked struct{ Honest }

func (unchecked) Act(_ *game.Kyoku, _ game.Seat, a game.Action) (game.Action, bool) { return a, true }

// honestGame is a game of two hands of four Tsumogiri players with the
// default settings, played once per test binary for the tests that only
// read an honest game's results and transcripts (sharedHonestGame): each
// such test played one of its own, about a second of CPU each.
type honestGame struct {
	once sync.Once
	tb   *table
	out  []outcome
}

// honest is the test binary's one honestGame.
var honest honestGame

// sharedHonestGame returns the shared honest game's table and every
// player's outcome, after checking that every player finished both hands.
// Callers read the transcripts and never write to them (a test that
// tampers works on a copy).
func sharedHonestGame(t *testing.T) (*table, []outcome) {
	t.Helper()
	honest.once.Do(func() {
		honest.tb = newTable(t)
		honest.out = honest.tb.play(t, 2, nil)
	})
	if honest.tb == nil {
		t.Fatal("the shared honest game did not start (see the first test that asked for it)")
	}
	for i, o := range honest.out {
		if o.err != nil || len(o.results) != 2 {
			t.Fatalf("shared honest game: player %d: %d hands, %v", i, len(o.results), o.err)
		}
	}
	return honest.tb, honest.out
}
