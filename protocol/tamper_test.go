package protocol

import (
	"bytes"
	"crypto/rand"
	"errors"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// randomKey returns the encoding of a fresh valid key, different from any
// key a player committed to.
func randomKey(t *testing.T) []byte {
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k.Bytes()
}

// checkBlame asserts that every player except the cheater ended with an
// error, that no error blames anyone but the cheater, and that at least
// the players in mustBlame (indices) blamed it.
func checkBlame(t *testing.T, tb *table, out []outcome, cheater int, mustBlame []int) {
	t.Helper()
	for i, o := range out {
		if o.err == nil && i != cheater {
			t.Errorf("player %d finished without noticing the cheat", i)
			continue
		}
		if b := blamed(o.err); b != "" && b != tb.ids[cheater] {
			t.Errorf("player %d blamed %s, not the cheater %s: %v", i, b, tb.ids[cheater], o.err)
		}
	}
	for _, i := range mustBlame {
		if blamed(out[i].err) != tb.ids[cheater] {
			t.Errorf("player %d did not blame the cheater: %v", i, out[i].err)
		}
	}
}

func TestWrongKeyReleaseBlamedAtOnce(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 1
	var victim peer.ID
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if kr := e.GetKeyRelease(); kr != nil && to != "" && victim == "" {
				victim = to
				copy(kr.Keys[:32], randomKey(t))
			}
		})
	})
	v := -1
	for i, id := range tb.ids {
		if id == victim {
			v = i
		}
	}
	if v < 0 {
		t.Fatal("the cheater never sent a private key release")
	}
	checkBlame(t, tb, out, cheater, []int{v})
	var be *BlameError
	if errors.As(out[v].err, &be) && be.Kind != BlameKey {
		t.Errorf("a key that fails its commitment is blamed as %q, want %q", be.Kind, BlameKey)
	}
	if errors.As(out[v].err, &be) && !errors.Is(be, commcrypto.ErrCommitment) {
		t.Errorf("victim's blame does not come from the commitment check: %v", be)
	}
}

func TestDahaiClaimingWrongTileBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 2
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		done := false
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if d := e.GetTurn(); d != nil && d.Kind == pb.TurnKind_TURN_DAHAI && !done {
				done = true
				d.Shown.Tiles[0] = (d.Shown.Tiles[0] + 4) % 136 // another kind
			}
		})
	})
	var others []int
	for i := range out {
		if i != cheater {
			others = append(others, i)
		}
	}
	checkBlame(t, tb, out, cheater, others)
}

func TestDahaiFromPositionNotHeldBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 0
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if d := e.GetTurn(); d != nil && d.Kind == pb.TurnKind_TURN_DAHAI {
				d.Shown.Positions[0] = 5 // the dora indicator: never in a hand
			}
		})
	})
	checkBlame(t, tb, out, cheater, []int{1, 2, 3})
}

func TestShuffleDuplicatingATileBlamedAtOnce(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 3
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if s := e.GetShuffle(); s != nil {
				copy(s.Deck[0:32], s.Deck[32:64])
			}
		})
	})
	checkBlame(t, tb, out, cheater, []int{0, 1, 2})
}

// Without proofs (--no-proofs), a shuffle pass that replaces one
// encrypted tile by some other group element cannot be seen until keys
// are revealed: the tile fails to decrypt when it is dealt or drawn (or,
// in the dead wall, the final replay fails). Either way the replay of the
// passes names the cheater. (With proofs it is blamed before the deal:
// TestShuffleReplacingATileBlamedBeforeTheDeal.)
func TestShuffleReplacingATileBlamedAfterRevealWithoutProofs(t *testing.T) {
	t.Parallel()
	for run := 0; run < 2; run++ {
		tb := newTable(t)
		const cheater = 1
		out := tb.play(t, 1, func(i int, c *Config) {
			c.NoProofs = true
			if i != cheater {
				return
			}
			c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
				if s := e.GetShuffle(); s != nil {
					k, _ := commcrypto.NewKey(rand.Reader)
					copy(s.Deck[64:96], commcrypto.Commit(k).Bytes())
				}
			})
		})
		checkBlame(t, tb, out, cheater, []int{0, 2, 3})
		for _, i := range []int{0, 2, 3} {
			var be *BlameError
			if errors.As(out[i].err, &be) && !bytes.Contains([]byte(be.Reason), []byte("shuffle pass")) {
				t.Errorf("player %d blames for %q, want the shuffle pass", i, be.Reason)
			}
		}
	}
}

func TestTranscriptAuditHonestAndFlippedByte(t *testing.T) {
	t.Parallel()
	tb, out := sharedHonestGame(t)
	for i, buf := range tb.transcripts {
		recs, err := ReadRecords(bytes.NewReader(buf.Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		a := AuditTranscript(recs)
		if !a.OK() {
			t.Fatalf("player %d: honest transcript fails: %v", i, a.Blame)
		}
		if len(a.Hands) != 2 {
			t.Fatalf("player %d: %d hands audited, want 2", i, len(a.Hands))
		}
		for h, ha := range a.Hands {
			if !slices.Equal(ha.Yama, out[i].results[h].Yama) {
				t.Errorf("player %d hand %d: offline yama differs from the live audit", i, h+1)
			}
		}
	}
	// Flip one byte inside a dahai entry of player 0's transcript.
	data := bytes.Clone(tb.transcripts[0].Bytes())
	recs, _ := ReadRecords(bytes.NewReader(data), "transcript")
	var target Record
	var sender peer.ID
	for _, r := range recs {
		o, _ := Open(r.Envelope)
		if o.Entry.GetTurn() != nil {
			target, sender = r, o.Sender
			break
		}
	}
	at := target.Offset + int64(uvarintLen(uint64(len(target.Envelope)))) + int64(len(target.Envelope))/2
	data[at] ^= 0x01
	recs, err := ReadRecords(bytes.NewReader(data), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	a := AuditTranscript(recs)
	if a.OK() {
		t.Fatal("transcript with a flipped byte passed the audit")
	}
	// A damaged record proves nothing against the player it names, and
	// what follows it is not judged: no blame, a damaged-transcript fault.
	if len(a.Blame) > 0 {
		t.Errorf("flipped byte in %s's record blamed %v", sender, a.Blame)
	}
	if !a.Damaged() || a.Faults[0].Kind != FaultDamaged || a.Faults[0].Peer != "" {
		t.Errorf("faults %v, want a damaged-transcript fault naming no peer first", a.Faults)
	}
}
