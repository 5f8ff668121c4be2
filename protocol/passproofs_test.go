package protocol

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// proofPasses are the 2n proven passes of one hand of n players on the
// layout's N tiles, made with the provers (not the node), as the signed
// passes a node receives: shuffle 0..n−1, then rekey 0..n−1.
type proofPasses struct {
	params  *ProofParams
	entries []*Opened // shuffle passes, then rekey passes
	decks   [][]commcrypto.Element
	walls   [][]commcrypto.Element
	commits [][]commcrypto.Element
	keys    []commcrypto.Element // K_j
}

func makeProofPasses(tb testing.TB, system string, n, size int) *proofPasses {
	tb.Helper()
	p := NewProofParams(system, size)
	pp := &proofPasses{params: p}
	deck := commcrypto.NewTileTable().Points()[:size]
	pp.decks = append(pp.decks, deck)
	ks := make([]commcrypto.Scalar, n)
	for j := range n {
		k, err := commcrypto.NewKey(rand.Reader)
		if err != nil {
			tb.Fatal(err)
		}
		ks[j] = k
		perm, err := commcrypto.Permutation(rand.Reader, size)
		if err != nil {
			tb.Fatal(err)
		}
		locked := commcrypto.LockAll(k, deck)
		next := make([]commcrypto.Element, size)
		for i, q := range perm {
			next[i] = locked[q]
		}
		proof, err := p.proveShuffle(pp.ctx(j), deck, next, k, perm)
		if err != nil {
			tb.Fatal(err)
		}
		K := commcrypto.Commit(k)
		pp.keys = append(pp.keys, K)
		pp.entries = append(pp.entries, pp.entry(j, &pb.Entry{Body: &pb.Entry_Shuffle{Shuffle: &pb.ShufflePass{Deck: commcrypto.EncodeElements(next), KeyCommitment: K.Bytes(), Proof: proof}}}))
		deck = next
		pp.decks = append(pp.decks, deck)
	}
	pp.walls = append(pp.walls, deck)
	for j := range n {
		rs := make([]commcrypto.Scalar, size)
		commits := make([]commcrypto.Element, size)
		for i := range rs {
			var err error
			if rs[i], err = commcrypto.NewKey(rand.Reader); err != nil {
				tb.Fatal(err)
			}
			commits[i] = commcrypto.Commit(rs[i])
		}
		f := commcrypto.RekeyFactors(rs, ks[j])
		next := make([]commcrypto.Element, size)
		for i := range next {
			next[i] = commcrypto.Lock(f[i], deck[i])
		}
		proof, err := p.proveRekey(pp.ctx(j), pp.keys[j], deck, next, commits, f)
		if err != nil {
			tb.Fatal(err)
		}
		pp.entries = append(pp.entries, pp.entry(j, &pb.Entry{Body: &pb.Entry_Rekey{Rekey: &pb.RekeyPass{Wall: commcrypto.EncodeElements(next), Commitments: commcrypto.EncodeElements(commits), Proof: proof}}}))
		pp.commits = append(pp.commits, commits)
		deck = next
		pp.walls = append(pp.walls, deck)
	}
	return pp
}

func (pp *proofPasses) ctx(j int) transcript.Context {
	return proofContext([]byte("passproofs test game"), 7, j, seatPeer(j))
}

// seatPeer names seat j's prover in the proofs' context.
func seatPeer(j int) peer.ID { return peer.ID(fmt.Sprintf("seat %d", j)) }

func (pp *proofPasses) entry(j int, e *pb.Entry) *Opened {
	e.Seq = uint64(10 + len(pp.entries))
	return &Opened{Entry: e, Sender: seatPeer(j), Hash: sha256.Sum256(fmt.Appendf(nil, "entry %d", len(pp.entries)))}
}

// proof returns pass idx (shuffle 0..n−1, rekey n..2n−1) as a node
// queues it, with a verification alone that records that it ran in ran
// and blames the pass's seat when the proof fails.
func (pp *proofPasses) proof(idx int, ran *[]int) *passProof {
	n := len(pp.keys)
	o := pp.entries[idx]
	if idx < n {
		j := idx
		return &passProof{seat: j, shuffle: true, ctx: pp.ctx(j), in: pp.decks[j], out: pp.decks[j+1], entry: o, alone: func(q *passProof) error {
			*ran = append(*ran, idx)
			var err error
			if q.K, err = pp.params.verifyShuffle(pp.ctx(j), o.Entry.GetShuffle(), pp.decks[j], pp.decks[j+1]); err != nil {
				return blamef(o, 7, BlameShuffle, err, "shuffle pass %d fails its proof", j)
			}
			return nil
		}}
	}
	j := idx - n
	return &passProof{seat: j, ctx: pp.ctx(j), in: pp.walls[j], out: pp.walls[j+1], entry: o, keyEntry: pp.entries[j], alone: func(q *passProof) error {
		*ran = append(*ran, idx)
		rk := o.Entry.GetRekey()
		var err error
		if q.commits, err = commcrypto.DecodeElements(rk.Commitments, len(pp.walls[j])); err != nil {
			return blamef(o, 7, BlameRekey, err, "rekey pass commitments do not decode")
		}
		if err := pp.params.verifyRekey(pp.ctx(j), pp.keys[j], rk, pp.walls[j], pp.walls[j+1], q.commits); err != nil {
			return blamef(o, 7, BlameRekey, err, "rekey pass %d fails its proof", j)
		}
		return nil
	}}
}

// verifyQueued queues the passes idx on a bare hand, verifies them as one
// batch (flushProofs, settle) and returns the passes verified alone (in
// order), the queued passes and the verdict.
func (pp *proofPasses) verifyQueued(t *testing.T, idx []int) ([]int, []*passProof, error) {
	t.Helper()
	h := &hand{g: &Game{params: pp.params, log: slog.New(slog.DiscardHandler)}, num: 7}
	var ran []int
	var queued []*passProof
	for _, i := range idx {
		q := pp.proof(i, &ran)
		queued = append(queued, q)
		h.queueProof(q)
	}
	err := h.settle()
	return ran, queued, err
}

// TestBatchedProofsVerdictAsAlone holds the live batch to the promise of
// SPEC §9.2: an honest batch verifies with no proof checked alone and
// yields the values verification alone decodes (K_j, the commitments);
// a batch with one false proof — at any place, shuffle or rekey — names
// exactly that pass, with its own entry as evidence, having verified
// alone only the passes up to it; with two, the first in pass order.
func TestBatchedProofsVerdictAsAlone(t *testing.T) {
	const n = 4
	pp := makeProofPasses(t, "", n, 136)
	// Seat 0's batches (the shuffle passes after its own, then the rekey
	// passes after its own), seat 1's and seat 2's second batch (the
	// shuffle passes after its own and the rekey passes before it).
	for _, idx := range [][]int{{1, 2, 3}, {5, 6, 7}, {2, 3, 4}, {3, 4, 5}} {
		t.Run(fmt.Sprint(idx), func(t *testing.T) {
			ran, queued, err := pp.verifyQueued(t, idx)
			if err != nil || len(ran) != 0 {
				t.Fatalf("honest batch: %v, verified alone %v", err, ran)
			}
			for _, q := range queued {
				if q.shuffle && !q.K.Equal(pp.keys[q.seat]) {
					t.Errorf("shuffle pass %d: K %v, want %v", q.seat, q.K, pp.keys[q.seat])
				}
				if !q.shuffle && !slices.EqualFunc(q.commits, pp.commits[q.seat], commcrypto.Element.Equal) {
					t.Errorf("rekey pass %d: commitments differ from those sent", q.seat)
				}
			}
			for _, bad := range idx {
				restore := pp.flip(bad)
				ran, _, err := pp.verifyQueued(t, idx)
				restore()
				pp.wantBlame(t, err, bad)
				if want := idx[:slices.Index(idx, bad)+1]; !slices.Equal(ran, want) {
					t.Errorf("pass %d false: verified alone %v, want %v", bad, ran, want)
				}
			}
			first, second := idx[0], idx[len(idx)-1]
			r1, r2 := pp.flip(second), pp.flip(first)
			_, _, err = pp.verifyQueued(t, idx)
			r1()
			r2()
			pp.wantBlame(t, err, first)
		})
	}
}

// flip flips a byte in the middle of pass idx's proof and returns the
// function that restores it.
func (pp *proofPasses) flip(idx int) func() {
	e := pp.entries[idx].Entry
	proof := e.GetShuffle().GetProof()
	if r := e.GetRekey(); r != nil {
		proof = r.Proof
	}
	i := len(proof) / 2
	proof[i] ^= 0x40
	return func() { proof[i] ^= 0x40 }
}

func (pp *proofPasses) wantBlame(t *testing.T, err error, idx int) {
	t.Helper()
	var be *BlameError
	if !errors.As(err, &be) {
		t.Fatalf("pass %d false: %v, want a blame", idx, err)
	}
	o := pp.entries[idx]
	if be.Peer != o.Sender || len(be.Evidence) != 1 || be.Evidence[0].Hash != o.Hash {
		t.Errorf("pass %d false: blames %s with %d entries of evidence, want %s with its pass", idx, be.Peer, len(be.Evidence), o.Sender)
	}
}

// TestQueueNeverBatchesARekeyWithItsShuffle: a rekey pass's verification
// alone waits for its seat's shuffle pass's batch, so the two never share
// one (the queue starts the shuffle pass's batch first); a false shuffle
// proof then comes first in the verdict, as in pass order.
func TestQueueNeverBatchesARekeyWithItsShuffle(t *testing.T) {
	pp := makeProofPasses(t, "", 3, 108)
	h := &hand{g: &Game{params: pp.params, log: slog.New(slog.DiscardHandler)}, num: 7}
	var ran []int
	for _, i := range []int{1, 2, 3, 4, 5} {
		h.queueProof(pp.proof(i, &ran))
	}
	// Rekey 1 comes while shuffle 1 is queued: [shuffle 1, shuffle 2,
	// rekey 0] is started first, and [rekey 1, rekey 2] stays queued.
	if len(h.checks) != 1 || len(h.checks[0].passes) != 3 || len(h.queued) != 2 {
		t.Fatalf("%d batches started, %d passes queued; want [shuffle 1, 2, rekey 0] started and [rekey 1, 2] queued", len(h.checks), len(h.queued))
	}
	if err := h.settle(); err != nil {
		t.Fatal(err)
	}
	restore := pp.flip(2)
	defer restore()
	_, _, err := pp.verifyQueued(t, []int{1, 2, 3, 4, 5})
	pp.wantBlame(t, err, 2)
}

// BenchmarkPassBatch verifies the three received passes of one batch of
// a four-player hand (seat 0's: shuffle passes 1, 2 and 3, N = 136) one
// by one ("alone", as without batches) and as one batch ("batched",
// flushProofs' batchPasses: one random linear combination, one
// multi-scalar multiplication, the decks the statements share merged).
//
//	go test -run XXX -bench BenchmarkPassBatch ./protocol/
func BenchmarkPassBatch(b *testing.B) {
	pp := makeProofPasses(b, "", 4, 136)
	for _, idx := range [][]int{{1, 2, 3}, {5, 6, 7}} {
		var ran []int
		queued := make([]*passProof, len(idx))
		for i, x := range idx {
			queued[i] = pp.proof(x, &ran)
		}
		b.Run(fmt.Sprintf("passes=%v/alone", idx), func(b *testing.B) {
			for b.Loop() {
				for _, q := range queued {
					if err := q.alone(q); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(fmt.Sprintf("passes=%v/batched", idx), func(b *testing.B) {
			for b.Loop() {
				if !pp.params.batchPasses(queued) {
					b.Fatal("an honest batch failed")
				}
			}
		})
	}
}
