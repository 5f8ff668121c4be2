package protocol

import (
	"bytes"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/logrekey"
	"github.com/mentalmj/mentalmj/commcrypto/logshuffle"
	"github.com/mentalmj/mentalmj/commcrypto/rekeyproof"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// noDeal asserts that no honest player sent a key release: the cheat was
// caught before the haipai. (The cheater, which does not check its own
// pass, may deal.)
func noDeal(t *testing.T, tb *table, cheater int) {
	t.Helper()
	for i, buf := range tb.transcripts {
		if i == cheater {
			continue
		}
		recs, err := ReadRecords(bytes.NewReader(buf.Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			o, err := Open(r.Envelope)
			if err != nil {
				t.Fatal(err)
			}
			if o.Entry.GetKeyRelease() != nil && o.Sender != tb.ids[cheater] {
				t.Errorf("player %d: a key release was sent; the bad pass was not caught before the deal", i)
				return
			}
		}
	}
}

// noPassBuiltOn asserts that no honest player sent a pass built on a pass
// of kind ("shuffle pass" or "rekey pass") from the cheater, whose proof
// fails: the player next in turn verifies that pass while it makes its
// own, and must send nothing that depends on it until it verified.
func noPassBuiltOn(t *testing.T, tb *table, cheater int, kind string) {
	t.Helper()
	bad := map[string]bool{}
	var passes []*Opened
	for _, buf := range tb.transcripts {
		recs, err := ReadRecords(bytes.NewReader(buf.Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			o, err := Open(r.Envelope)
			if err != nil {
				t.Fatal(err)
			}
			if o.Sender == tb.ids[cheater] && o.Kind() == kind {
				bad[string(o.Hash[:])] = true
			}
			if o.Sender != tb.ids[cheater] && (o.Entry.GetShuffle() != nil || o.Entry.GetRekey() != nil) {
				passes = append(passes, o)
			}
		}
	}
	if len(bad) == 0 {
		t.Fatalf("no %s of the cheater in any transcript", kind)
	}
	for _, o := range passes {
		input := o.Entry.GetShuffle().GetInput()
		if rk := o.Entry.GetRekey(); rk != nil {
			input = rk.Input
		}
		if bad[string(input)] {
			t.Errorf("%s sent a %s built on the cheater's %s before its proof was checked", o.Sender, o.Kind(), kind)
		}
	}
}

// expectProofBlame asserts that every honest player blamed the cheater
// with a reason naming the failed proof and an error wrapping one of want.
func expectProofBlame(t *testing.T, tb *table, out []outcome, cheater int, reason string, want ...error) {
	t.Helper()
	for i, o := range out {
		if i == cheater {
			continue
		}
		var be *BlameError
		if !errors.As(o.err, &be) || be.Peer != tb.ids[cheater] {
			t.Errorf("player %d: %v, want a blame of the cheater %s", i, o.err, tb.ids[cheater])
			continue
		}
		if !strings.Contains(be.Reason, reason) {
			t.Errorf("player %d blames for %q, want %q", i, be.Reason, reason)
		}
		// The kind a player reads follows the pass that failed.
		if kind := map[bool]BlameKind{true: BlameRekey, false: BlameShuffle}[strings.HasPrefix(be.Reason, "rekey")]; be.Kind != kind {
			t.Errorf("player %d: blame of kind %q for %q, want %q", i, be.Kind, be.Reason, kind)
		}
		found := false
		for _, w := range want {
			found = found || errors.Is(be, w)
		}
		if !found {
			t.Errorf("player %d: %v wraps none of %v", i, be, want)
		}
	}
	noDeal(t, tb, cheater)
	// The offline audit of an honest transcript blames the cheater too,
	// from the signed pass, although the hand was aborted before any key
	// was revealed.
	h := (cheater + 1) % Players
	recs, err := ReadRecords(bytes.NewReader(tb.transcripts[h].Bytes()), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	a := AuditTranscript(recs)
	if len(a.Blame) == 0 || a.Blame[0].Peer != tb.ids[cheater] || !strings.Contains(a.Blame[0].Reason, reason) {
		t.Errorf("offline audit of player %d: blames %v, want %s for %q", h, a.Blame, tb.ids[cheater], reason)
	}
}

// tamperShuffle makes player cheater rewrite its shuffle pass.
func tamperShuffle(cheater int, f func(hand uint32, s *pb.ShufflePass)) func(int, *Config) {
	return func(i int, c *Config) {
		if i == cheater {
			c.Misbehavior = tamper(func(hand uint32, _ peer.ID, e *pb.Entry) {
				if s := e.GetShuffle(); s != nil {
					f(hand, s)
				}
			})
		}
	}
}

func tamperRekey(cheater int, f func(r *pb.RekeyPass)) func(int, *Config) {
	return func(i int, c *Config) {
		if i == cheater {
			c.Misbehavior = tamper(func(_ uint32, _ peer.ID, e *pb.Entry) {
				if r := e.GetRekey(); r != nil {
					f(r)
				}
			})
		}
	}
}

func TestShuffleReplacingATileBlamedBeforeTheDeal(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, tamperShuffle(1, func(_ uint32, s *pb.ShufflePass) {
		k, _ := commcrypto.NewKey(rand.Reader)
		copy(s.Deck[64:96], commcrypto.Commit(k).Bytes())
	}))
	expectProofBlame(t, tb, out, 1, "fails its proof", logshuffle.ErrInvalid)
	noPassBuiltOn(t, tb, 1, "shuffle pass")
}

func TestShuffleUnderTwoKeysBlamedBeforeTheDeal(t *testing.T) {
	t.Parallel()
	// Half the deck re-locked with a second key, the proof left as made
	// for the honest deck: the statement changed, so the proof fails.
	tb := newTable(t)
	out := tb.play(t, 1, tamperShuffle(2, func(_ uint32, s *pb.ShufflePass) {
		k2, _ := commcrypto.NewKey(rand.Reader)
		for i := 0; i < 68; i++ {
			e, _ := commcrypto.DecodeElement(s.Deck[i*32 : (i+1)*32])
			copy(s.Deck[i*32:], commcrypto.Lock(k2, e).Bytes())
		}
	}))
	expectProofBlame(t, tb, out, 2, "fails its proof", logshuffle.ErrInvalid)
}

func TestShuffleProofFlippedByteBlamedBeforeTheDeal(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, tamperShuffle(0, func(_ uint32, s *pb.ShufflePass) {
		s.Proof[len(s.Proof)/2] ^= 0x04
	}))
	expectProofBlame(t, tb, out, 0, "fails its proof", logshuffle.ErrInvalid, logshuffle.ErrEncoding)
	noPassBuiltOn(t, tb, 0, "shuffle pass")
}

func TestShufflePassWithoutProofBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, tamperShuffle(3, func(_ uint32, s *pb.ShufflePass) {
		s.Proof = nil
	}))
	expectProofBlame(t, tb, out, 3, "fails its proof", logshuffle.ErrEncoding)
}

func TestShuffleProofOfAnotherPlayerBlamed(t *testing.T) {
	t.Parallel()
	// The cheater shuffles honestly but sends a valid shuffle proof made
	// in another player's name (as if taken from another transcript): the
	// verifiers bind every proof to its sender's peer ID and game.
	tb := newTable(t)
	const cheater = 1
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, _ peer.ID, e *pb.Entry) {
			s := e.GetShuffle()
			if s == nil {
				return
			}
			s.Proof = foreignProof(t, tb.ids[0])
		})
	})
	expectProofBlame(t, tb, out, cheater, "fails its proof", logshuffle.ErrInvalid)
}

// foreignProof returns a structurally valid shuffle proof for a pass of
// fresh tiles made in the name of peer other: a proof from another
// player's transcript.
func foreignProof(t *testing.T, other peer.ID) []byte {
	tiles := commcrypto.NewTileTable().Points()
	k, _ := commcrypto.NewKey(rand.Reader)
	perm, _ := commcrypto.Permutation(rand.Reader, 136)
	locked := commcrypto.LockAll(k, tiles)
	out := make([]commcrypto.Element, 136)
	for i, j := range perm {
		out[i] = locked[j]
	}
	pr, err := logshuffle.Prove(logshuffle.NewParams(136), proofContext([]byte("another game"), 1, 0, other), tiles, out, k, perm, rand.Reader)
	if err != nil {
		t.Error(err)
		return nil
	}
	return pr.Bytes()
}

func TestShuffleReplayedFromAnEarlierHandBlamed(t *testing.T) {
	t.Parallel()
	// Every player resends in hand 2 the shuffle pass it made in hand 1
	// (deck, key commitment and proof). The pass of seat 0 starts from the
	// tile points in every hand, so only the hand number in the
	// Fiat–Shamir transcript tells the replay apart; the first verifier
	// blames seat 0 before the deal.
	tb := newTable(t)
	saved := make([]*pb.ShufflePass, Players)
	out := tb.play(t, 2, func(i int, c *Config) {
		c.Misbehavior = tamper(func(hand uint32, _ peer.ID, e *pb.Entry) {
			s := e.GetShuffle()
			switch {
			case s == nil:
			case hand == 1 && saved[i] == nil:
				saved[i] = &pb.ShufflePass{Deck: bytes.Clone(s.Deck), KeyCommitment: bytes.Clone(s.KeyCommitment), Proof: bytes.Clone(s.Proof)}
			case hand == 2:
				s.Deck, s.KeyCommitment, s.Proof = saved[i].Deck, saved[i].KeyCommitment, saved[i].Proof
			}
		})
	})
	var seat0 peer.ID
	for _, o := range out {
		if len(o.results) > 0 {
			seat0 = o.results[0].Seats[0]
			break
		}
	}
	if seat0 == "" {
		t.Fatal("hand 1 did not complete")
	}
	for i, o := range out {
		if tb.ids[i] == seat0 {
			continue
		}
		// With the pipelined setup the replayed pass comes during hand 1:
		// the first verifier ends hand 1 with its blame, and a node whose
		// hand 1 that Abort ended finds the failing proof itself when it
		// settles the prepared passes; its BlameError then wraps the
		// Abort, not logshuffle.ErrInvalid, so the blame's reason says
		// what failed.
		var be *BlameError
		if !errors.As(o.err, &be) || be.Peer != seat0 || be.Hand != 2 || !strings.HasPrefix(be.Reason, "shuffle pass 0 (seq") || !strings.HasSuffix(be.Reason, "fails its proof") {
			t.Errorf("player %d: %v, want hand-2 blame of seat 0 (%s) for a failing shuffle proof", i, o.err, seat0)
		}
	}
}

func TestRekeyWithOneWrongPositionBlamedBeforeTheDeal(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, tamperRekey(2, func(r *pb.RekeyPass) {
		// Position 40 of the wall re-locked with a key nobody committed to.
		e, _ := commcrypto.DecodeElement(r.Wall[40*32 : 41*32])
		k, _ := commcrypto.NewKey(rand.Reader)
		copy(r.Wall[40*32:], commcrypto.Lock(k, e).Bytes())
	}))
	expectProofBlame(t, tb, out, 2, "fails its proof", logrekey.ErrInvalid)
	noPassBuiltOn(t, tb, 2, "rekey pass")
}

func TestRekeyWithOneWrongCommitmentBlamedBeforeTheDeal(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, tamperRekey(3, func(r *pb.RekeyPass) {
		k, _ := commcrypto.NewKey(rand.Reader)
		copy(r.Commitments[7*32:], commcrypto.Commit(k).Bytes())
	}))
	expectProofBlame(t, tb, out, 3, "fails its proof", logrekey.ErrInvalid)
}

func TestRekeyProofTruncatedBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, tamperRekey(0, func(r *pb.RekeyPass) {
		r.Proof = r.Proof[:len(r.Proof)-1]
	}))
	expectProofBlame(t, tb, out, 0, "fails its proof", logrekey.ErrEncoding)
	noPassBuiltOn(t, tb, 0, "rekey pass")
}

// The first release's arguments stay a named alternative (--proofs tw,
// Config.Proofs = settings.ProofsTW): a table playing them blames a
// flipped shuffle-proof byte and a truncated rekey proof with their
// errors, before the deal.
func TestTWProofsBlamed(t *testing.T) {
	t.Parallel()
	tw := func(f func(int, *Config)) func(int, *Config) {
		return func(i int, c *Config) {
			c.Proofs = settings.ProofsTW
			f(i, c)
		}
	}
	tb := newTable(t)
	out := tb.play(t, 1, tw(tamperShuffle(1, func(_ uint32, s *pb.ShufflePass) {
		s.Proof[len(s.Proof)/2] ^= 0x04
	})))
	expectProofBlame(t, tb, out, 1, "fails its proof", shuffleproof.ErrInvalid, shuffleproof.ErrEncoding)
	tb = newTable(t)
	out = tb.play(t, 1, tw(tamperRekey(2, func(r *pb.RekeyPass) {
		r.Proof = r.Proof[:len(r.Proof)-1]
	})))
	expectProofBlame(t, tb, out, 2, "fails its proof", rekeyproof.ErrEncoding)
}

// The offline audit verifies every proof of an honest game, and no pass
// is replayed (HandAudit.Proven); a game played without proofs is still
// audited by the replay.
func TestOfflineAuditVerifiesProofs(t *testing.T) {
	t.Parallel()
	for _, noProofs := range []bool{false, true} {
		tb := newTable(t)
		out := tb.play(t, 1, func(_ int, c *Config) { c.NoProofs = noProofs })
		for i, o := range out {
			if o.err != nil {
				t.Fatalf("no proofs %v: player %d: %v", noProofs, i, o.err)
			}
		}
		recs, err := ReadRecords(bytes.NewReader(tb.transcripts[1].Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		a := AuditTranscript(recs)
		if !a.OK() {
			t.Fatalf("no proofs %v: audit fails: %v", noProofs, a.Blame)
		}
		if a.Hands[0].Proven == noProofs {
			t.Errorf("no proofs %v: Proven = %v", noProofs, a.Hands[0].Proven)
		}
		if string(intsKey(a.Hands[0].Yama)) != string(intsKey(out[1].results[0].Yama)) {
			t.Errorf("no proofs %v: offline yama differs from the live one", noProofs)
		}
	}
}

// A transcript whose shuffle proof was replaced (and re-signed by its
// sender, as a cheater would) fails the offline audit with a blame of
// that sender.
func TestOfflineAuditBlamesABadProof(t *testing.T) {
	t.Parallel()
	tb, _ := sharedHonestGame(t)
	recs, err := ReadRecords(bytes.NewReader(tb.transcripts[0].Bytes()), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	// Rebuild the rekey pass of one player with one proof byte changed,
	// re-signed with that player's key and re-chained.
	idx := map[peer.ID]int{}
	for i, id := range tb.ids {
		idx[id] = i
	}
	var forged []Record
	var cheater peer.ID
	var prev [32]byte
	for _, r := range recs {
		o, err := Open(r.Envelope)
		if err != nil {
			t.Fatal(err)
		}
		if cheater == "" && o.Entry.GetRekey() != nil {
			cheater = o.Sender
		}
		if o.Sender == cheater {
			e := o.Entry
			if rk := e.GetRekey(); rk != nil {
				rk.Proof[100] ^= 1
			}
			if e.Seq > 0 && prev != ([32]byte{}) {
				e.PrevHash = prev[:]
			}
			s, err := Seal(tb.keys[idx[cheater]], e)
			if err != nil {
				t.Fatal(err)
			}
			prev = s.Hash
			r.Envelope = s.Envelope
		}
		forged = append(forged, r)
	}
	a := AuditTranscript(forged)
	if a.OK() {
		t.Fatal("a transcript with a bad rekey proof passes the audit")
	}
	if a.Blame[0].Peer != cheater || !strings.Contains(a.Blame[0].Reason, "proof") {
		t.Errorf("blame %v, want %s for its rekey proof", a.Blame[0], cheater)
	}
}

func intsKey(xs []int) []byte {
	b := make([]byte, len(xs))
	for i, x := range xs {
		b[i] = byte(x)
	}
	return b
}

// A player that plays --no-proofs at a table that plays with proofs is a
// configuration fault naming it, caught in the Hellos before any pass.
func TestNoProofsMismatchIsAConfigFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const odd = 2
	out := tb.play(t, 1, func(i int, c *Config) { c.NoProofs = i == odd })
	for i, o := range out {
		if i == odd {
			continue
		}
		var fe *FaultError
		if !errors.As(o.err, &fe) || fe.Peer != tb.ids[odd] || fe.Kind != FaultConfig || !strings.Contains(fe.Reason, "no_proofs") {
			t.Errorf("player %d: %v, want a configuration fault of %s for no_proofs", i, o.err, tb.ids[odd])
		}
	}
}

// A pass that names another input than the pass the others hold is not
// judged (its proof would be checked against an input its sender may
// never have had, if the previous player signed two passes): every other
// player stops the hand with a diverged-passes fault naming no one, and
// nobody is blamed.
func TestPassOnAnotherInputIsAFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const liar = 2
	out := tb.play(t, 1, func(i int, c *Config) {
		if i == liar {
			c.Misbehavior = tamper(func(_ uint32, _ peer.ID, e *pb.Entry) {
				if sp := e.GetShuffle(); sp != nil {
					sp.Input = bytes.Repeat([]byte{7}, 32)
				}
			})
		}
	})
	for i, o := range out {
		if b := blamed(o.err); b != "" {
			t.Errorf("player %d blamed %s: %v", i, b, o.err)
		}
		var fe *FaultError
		if i != liar && (!errors.As(o.err, &fe) || fe.Kind != FaultDiverged || fe.Peer != "") {
			t.Errorf("player %d: %v, want a diverged-passes fault", i, o.err)
		}
	}
}
