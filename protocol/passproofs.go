package protocol

import (
	"time"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Verifying the received passes' proofs, several at once (SPEC.md §9.2
// "Verification on arrival", §22; docs/DESIGN.md "Batch verification").
//
// A received pass is checked at once — its input, its deck or wall, its
// commitments (takeShuffle, takeRekey) — and its proof is queued. The
// queue is verified in the background, as one batch, at the two points
// where a proof must be known good:
//
//   - this player starts making its own pass, which builds on every pass
//     before it (the pass leaves only once the batch verified: awaitPass,
//     advance);
//   - the hand's last pass is in: the deal, the first decryption, needs
//     every pass (rekeyPasses, takeInTurn; settle waits for it).
//
// So a seat s of n receives its 2n−2 passes in at most three batches:
// the shuffle passes before its own, then the shuffle passes after it
// with the rekey passes before its own rekey pass, then the rekey passes
// after it. Nothing is sent or decrypted on a pass earlier than without
// batches; the proofs are only verified later, together.
//
// A batch is one random linear combination and one multi-scalar
// multiplication (ProofParams.batchVerify): each proof's verification
// equation times a fresh random weight, summed, the elements the
// statements share merged (a pass's output is the next pass's input).
// When the sum is not the identity, or a batch cannot be formed (a proof
// that does not decode; the "tw" system, which has no batch), its passes
// are verified one by one in order, exactly as without batches, and the
// first that fails is the blame: the same pass, reason and evidence.

// passProof is a received pass whose proof is to be verified: what a
// batch needs of it, its verification alone (the fallback, and the
// verdict), and the values the verification decodes.
type passProof struct {
	seat    int
	shuffle bool // a shuffle pass; else a rekey pass
	ctx     transcript.Context
	// in and out are the pass's input and output deck (shuffle) or wall
	// (rekey): N decoded elements each.
	in, out []commcrypto.Element
	// entry is the signed pass; keyEntry, for a rekey pass, the same
	// seat's shuffle pass, whose key commitment K_j the proof is checked
	// against (nil when this player does not hold it).
	entry, keyEntry *Opened
	// alone verifies the proof by itself, sets K or commits, and returns
	// nil or the blame on the pass's sender.
	alone func(*passProof) error

	K       commcrypto.Element   // a shuffle pass's key commitment K_j
	commits []commcrypto.Element // a rekey pass's decoded commitments R_{j,i}
}

// verification is a batch of received passes' proofs being verified in
// the background: the player may make its own pass meanwhile, but sends
// nothing that depends on a pass before that pass verified.
type verification struct {
	done   chan struct{}
	passes []*passProof
	err    error // nil, or the blame for the first pass that fails its proof
}

// await waits for the verification and returns its error.
func (v *verification) await() error {
	<-v.done
	return v.err
}

// queueProof queues a received pass's proof for the next batch. A rekey
// pass is never batched with its seat's shuffle pass (whose K_j its
// verification alone awaits): that shuffle pass's batch is started
// first. (In the order passes come this does not happen; it keeps a
// frozen hand, which makes no pass of its own, from waiting on itself.)
func (h *hand) queueProof(pp *passProof) {
	if !pp.shuffle {
		for _, q := range h.queued {
			if q.shuffle && q.seat == pp.seat {
				h.flushProofs()
				break
			}
		}
	}
	h.queued = append(h.queued, pp)
}

// flushProofs starts verifying the queued proofs in the background as one
// batch, adds it to checks (and each shuffle pass's to shuffleCheck) and
// returns it; nil when nothing is queued.
func (h *hand) flushProofs() *verification {
	if len(h.queued) == 0 {
		return nil
	}
	v := &verification{done: make(chan struct{}), passes: h.queued}
	h.queued = nil
	for _, pp := range v.passes {
		if pp.shuffle {
			h.shuffleCheck[pp.seat], h.shuffleProof[pp.seat] = v, pp
		}
	}
	h.checks = append(h.checks, v)
	g, params := h.g, h.g.shuffleParams()
	go func() {
		defer close(v.done)
		begin := time.Now()
		batched := len(v.passes) > 1 && params.batchPasses(v.passes)
		if !batched {
			for _, pp := range v.passes {
				if v.err = pp.alone(pp); v.err != nil {
					break
				}
			}
		}
		g.log.Debug("passes verified", "hand", h.num, "passes", len(v.passes), "batched", batched, "ok", v.err == nil, "elapsed", time.Since(begin))
	}()
	return v
}

// take takes in a verified batch's decoded values: each shuffle pass's
// K_j and each rekey pass's commitments.
func (h *hand) take(v *verification) {
	for _, pp := range v.passes {
		if pp.shuffle {
			h.keyCommits[pp.seat] = pp.K
		} else {
			h.decoded[pp.seat] = pp.commits
		}
	}
}

// keyCommit returns, for seat j's rekey pass, how its verification alone
// gets K_j: from the batch verifying seat j's shuffle pass (waiting for
// it, and returning its blame if it failed), else from keyCommits (this
// player's own pass, or one verified already).
func (h *hand) keyCommit(j int) func() (commcrypto.Element, error) {
	check, sp := h.shuffleCheck[j], h.shuffleProof[j]
	if check == nil {
		K := h.keyCommits[j]
		return func() (commcrypto.Element, error) { return K, nil }
	}
	return func() (commcrypto.Element, error) {
		err := check.await()
		return sp.K, err
	}
}

// batchPasses reports whether the passes' proofs all verify together in
// one batch (batchVerify), and then sets each pass's K or commits. It
// decodes each shuffle pass's K_j and each rekey pass's commitments
// itself; any that does not decode, or a rekey pass without its shuffle
// pass, leaves the passes to be verified one by one.
func (p *ProofParams) batchPasses(passes []*passProof) bool {
	var sh []shuffleStatement
	var rk []rekeyStatement
	keys := make([]commcrypto.Element, len(passes))
	commits := make([][]commcrypto.Element, len(passes))
	for i, pp := range passes {
		var err error
		if pp.shuffle {
			sp := pp.entry.Entry.GetShuffle()
			if keys[i], err = commcrypto.DecodeElement(sp.KeyCommitment); err != nil {
				return false
			}
			sh = append(sh, shuffleStatement{ctx: pp.ctx, in: pp.in, out: pp.out, K: keys[i], proof: sp.Proof})
			continue
		}
		if pp.keyEntry == nil {
			return false
		}
		if keys[i], err = commcrypto.DecodeElement(pp.keyEntry.Entry.GetShuffle().KeyCommitment); err != nil {
			return false
		}
		r := pp.entry.Entry.GetRekey()
		if commits[i], err = commcrypto.DecodeElements(r.Commitments, len(pp.in)); err != nil {
			return false
		}
		rk = append(rk, rekeyStatement{ctx: pp.ctx, K: keys[i], in: pp.in, out: pp.out, commits: commits[i], proof: r.Proof})
	}
	if !p.batchVerify(sh, rk) {
		return false
	}
	for i, pp := range passes {
		if pp.shuffle {
			pp.K = keys[i]
		} else {
			pp.commits = commits[i]
		}
	}
	return true
}
