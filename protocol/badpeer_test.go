package protocol

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// playThree runs the three honest players 0..2 while player 3 is replaced
// by adversary, which gets player 3's transport and key.
func playThree(t *testing.T, tb *table, adversary func(ctx context.Context, tr Transport)) []outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go adversary(ctx, tb.net.Transport(tb.ids[3]))
	out := make([]outcome, 3)
	done := make(chan int, 3)
	for i := 0; i < 3; i++ {
		g, err := NewGame(Config{Table: "test", Identity: tb.keys[i], Peers: tb.ids, Hands: 1,
			Transport: tb.net.Transport(tb.ids[i]), Timeout: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			res, err := g.Run(ctx)
			out[i] = outcome{res, err}
			done <- i
		}()
	}
	for range 3 {
		<-done
	}
	return out
}

func expectBlame(t *testing.T, out []outcome, who peer.ID, reason string) {
	t.Helper()
	for i, o := range out {
		var be *BlameError
		if !errors.As(o.err, &be) {
			t.Errorf("player %d: error %v, want blame of %s", i, o.err, who)
			continue
		}
		if be.Peer != who || !strings.Contains(be.Reason, reason) {
			t.Errorf("player %d: blamed %s for %q, want %s for %q", i, be.Peer, be.Reason, who, reason)
		}
	}
}

// expectFault asserts that every player's game ended with a fault of kind
// naming who, whose reason contains reason, and blamed no one.
func expectFault(t *testing.T, out []outcome, who peer.ID, kind FaultKind, reason string) {
	t.Helper()
	for i, o := range out {
		var fe *FaultError
		if !errors.As(o.err, &fe) {
			t.Errorf("player %d: error %v, want a %s fault of %s", i, o.err, kind, who)
			continue
		}
		if fe.Peer != who || fe.Kind != kind || !strings.Contains(fe.Reason, reason) {
			t.Errorf("player %d: fault %v, want a %s fault of %s for %q", i, fe.Fault, kind, who, reason)
		}
	}
}

// Silence is a fault, never a blame.
func TestSilentPeerIsAFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(context.Context, Transport) {})
	expectFault(t, out, tb.ids[3], FaultSilence, "silent")
}

// Bytes without a valid signature prove nothing against anyone: a fault
// naming the peer that delivered them.
func TestGarbageFromPeerIsAFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		for _, p := range tb.ids[:3] {
			tr.Send(ctx, p, []byte("\x0a\xff\xff\xff\xff\x0fnot an envelope"))
		}
	})
	expectFault(t, out, tb.ids[3], FaultUnverifiable, "does not verify")
}

// sealAs signs an entry with key and sends it to the three honest players.
func sendAll(ctx context.Context, t *testing.T, tb *table, tr Transport, key crypto.PrivKey, e *pb.Entry) {
	id, _ := peer.IDFromPrivateKey(key)
	e.Sender = []byte(id)
	o, err := Seal(key, e)
	if err != nil {
		t.Error(err)
		return
	}
	for _, p := range tb.ids[:3] {
		tr.Send(ctx, p, o.Envelope)
	}
}

func TestMessageOutOfTurnBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		// A turn instead of a hello.
		sendAll(ctx, t, tb, tr, tb.keys[3], &pb.Entry{Body: &pb.Entry_Turn{Turn: &pb.Turn{}}})
	})
	expectBlame(t, out, tb.ids[3], "out of turn")
}

// A message signed by someone else proves nothing against the peer that
// passed it on.
func TestMessageSignedByOutsiderIsAFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	outsider, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		sendAll(ctx, t, tb, tr, outsider, &pb.Entry{Body: &pb.Entry_Hello{Hello: &pb.Hello{Table: "test", Version: Version}}})
	})
	expectFault(t, out, tb.ids[3], FaultUnverifiable, "signed by")
}

// testSettings returns the settings of a test table of players players
// playing hands hands with the default Config: Tenhou rules, no time
// control.
func testSettings(players, hands int) settings.Settings {
	return settings.Settings{Players: players, Hands: hands, Rules: rules.Default()}
}

// properHello returns the Hello player 3 of tb would send for table.
func properHello(tb *table, table string) *pb.Entry {
	ids := sortPeers(tb.ids)
	raw := make([][]byte, len(ids))
	for i, p := range ids {
		raw[i] = []byte(p)
	}
	nonce := make([]byte, 16)
	rand.Read(nonce)
	return &pb.Entry{Sender: []byte(tb.ids[3]), Body: &pb.Entry_Hello{Hello: &pb.Hello{Table: table, Version: Version, Peers: raw, Nonce: nonce, Settings: testSettings(len(raw), 1).Proto(), Pipeline: true}}}
}

// A player at another table is a configuration fault naming it, for every
// player, not a blame and not silence.
func TestHelloForAnotherTableIsAConfigFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		sendAll(ctx, t, tb, tr, tb.keys[3], properHello(tb, "other"))
	})
	expectFault(t, out, tb.ids[3], FaultConfig, `table "other"`)
}

// A hello with a nonce of the wrong length is a signed malformed message:
// blamed on its signer.
func TestMalformedHelloBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		e.GetHello().Nonce = e.GetHello().Nonce[:5]
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectBlame(t, out, tb.ids[3], "invalid hello")
}

// FuzzOpen feeds arbitrary bytes to Open, the first thing a node does with
// a message from the network: it must return an error or a verified entry,
// never panic.
func FuzzOpen(f *testing.F) {
	key, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	id, _ := peer.IDFromPrivateKey(key)
	o, _ := Seal(key, &pb.Entry{Sender: []byte(id), Body: &pb.Entry_Turn{Turn: &pb.Turn{Shown: &pb.Shown{Positions: []uint32{3}, Tiles: []uint32{7}, Keys: make([]byte, 128)}}}})
	f.Add(o.Envelope)
	f.Add([]byte{})
	f.Add([]byte{0x0a, 0x00, 0x12, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := Open(b)
		if err == nil && o.Sender == "" {
			t.Fatal("opened an entry without a sender")
		}
	})
}

// FuzzAuditTranscript feeds arbitrary records to the offline audit: it
// must never panic and never pass.
func FuzzAuditTranscript(f *testing.F) {
	f.Add([]byte{0x0a, 0x00}, []byte{0x12, 0x00})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if AuditTranscript([]Record{{Index: 1, Envelope: a}, {Index: 2, Envelope: b}}).OK() {
			t.Fatal("two arbitrary records passed the audit")
		}
	})
}

// An exact copy of an earlier entry, delivered again when nobody asked
// for it (no Sync after a reconnection), is no evidence against its signer
// (anyone holding it can replay it): a fault naming the peer that
// delivered it.
func TestReplayedMessageIsAFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		// A proper hello, then the very same envelope again: sequence
		// number 0 twice.
		o, err := Seal(tb.keys[3], properHello(tb, "test"))
		if err != nil {
			t.Error(err)
			return
		}
		for range 2 {
			for _, p := range tb.ids[:3] {
				tr.Send(ctx, p, o.Envelope)
			}
		}
	})
	expectFault(t, out, tb.ids[3], FaultUnverifiable, "")
}

// A shuffle pass holding an encoding that is not a canonical ristretto255
// point (here the identity, 32 zero bytes, which circl would decode
// without complaint) is caught by the player who decodes that deck next,
// and blamed on its author; nobody else is blamed.
func TestIdentityElementInShuffleBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 2
	out := tb.play(t, 1, func(i int, c *Config) {
		if i == cheater {
			c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
				if s := e.GetShuffle(); s != nil {
					clear(s.Deck[32:64])
				}
			})
		}
	})
	checkBlame(t, tb, out, cheater, nil)
	n := 0
	for _, o := range out {
		if blamed(o.err) == tb.ids[cheater] && strings.Contains(o.err.Error(), "identity") {
			n++
		}
	}
	if n == 0 {
		t.Error("nobody blamed the cheater for the identity element")
	}
}

// One player at table "saturday" while three are at "test": every node,
// the misconfigured one included, names that player in a configuration
// fault; nobody is blamed and nobody is called silent.
func TestTableMismatchNamedByEveryNode(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, func(i int, c *Config) {
		if i == 3 {
			c.Table = "saturday"
		}
	})
	expectFault(t, out, tb.ids[3], FaultConfig, `"saturday"`)
}
