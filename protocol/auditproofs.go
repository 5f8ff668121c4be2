package protocol

import (
	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/wall"
)

// proven reports whether every seat's shuffle and rekey pass carries a
// proof. A hand played without proofs is audited by replaying its passes.
func (a *auditor) proven() bool {
	for _, p := range a.in.Seats {
		sp, rk := a.byKind["shuffle pass"][p], a.byKind["rekey pass"][p]
		if sp == nil || rk == nil || len(sp.Entry.GetShuffle().Proof) == 0 || len(rk.Entry.GetRekey().Proof) == 0 {
			return false
		}
	}
	return true
}

// DecodedPasses are the values of a hand's passes a live node decoded
// (strictly) from the signed passes while it verified their proofs.
type DecodedPasses struct {
	// Commitments[j] are seat j's rekey commitments R_{j,i} (136, or 108
	// in sanma); nil for a seat whose pass was not verified.
	Commitments [maxSeats][]commcrypto.Element
	// Wall is the last rekey pass's wall, nil if not held.
	Wall []commcrypto.Element
	// Tiles[i] is the tile id the node decrypted at position i of Wall
	// during the hand, with keys it checked against the commitments, or
	// −1; nil if none. The revealed keys match the same commitments, so
	// the audit's decryption of position i would give the same tile: it
	// takes it instead of decrypting again.
	Tiles []int
}

// verifyProofs walks the passes in order while they are present and carry
// proofs: it decodes each and, unless the live node verified them on
// arrival, verifies its proof, blaming the first seat whose proof fails
// (the signed pass is the evidence; a rekey pass's also the shuffle pass
// whose key commitment it is checked against). It stops quietly at the
// first pass that is missing or has no proof: the reveal and the replay
// deal with those. It reports false once it has blamed someone.
func (a *auditor) verifyProofs() bool {
	if a.in.ProofsVerified {
		if d := a.in.Decoded; d != nil {
			for j := range a.n {
				if len(d.Commitments[j]) == a.layout.Size {
					a.commits[j] = d.Commitments[j]
				}
			}
		}
		return a.finalWall()
	}
	a.deck[0] = deckPoints(a.in.Tiles, a.layout)
	if a.in.ShuffleParams == nil {
		a.in.ShuffleParams = NewProofParams(a.in.Proofs, a.layout.Size)
	}
	// One batch for every proof of the hand; when it holds, the walk
	// below decodes and checks as before but verifies no proof again.
	// When it does not (or cannot be formed), the walk verifies each
	// proof in order and blames the first that fails, as without it.
	batched := a.batchVerified()
	for j, p := range a.in.Seats {
		if a.diverged(j) {
			return false
		}
		so := a.byKind["shuffle pass"][p]
		if so == nil {
			return true
		}
		if len(so.Entry.GetShuffle().Proof) == 0 {
			if a.in.RequireProofs {
				a.blame(BlameShuffle, entries(so), "shuffle pass %d fails its proof: it comes without one at a table that plays with proofs", j)
				return false
			}
			return true
		}
		sp := so.Entry.GetShuffle()
		next, err := commcrypto.DecodeElements(sp.Deck, a.layout.Size)
		if err != nil {
			a.blame(BlameShuffle, entries(so), "shuffle pass does not decode: %v", err)
			return false
		}
		a.deck[j+1] = next
		K, err := a.in.ShuffleParams.shuffleKey(proofContext(a.in.GameID, a.in.Hand, j, p), sp, a.deck[j], next, !batched)
		if err != nil {
			a.blame(BlameShuffle, entries(so), "shuffle pass %d fails its proof: %v", j, err)
			return false
		}
		a.keyCommits[j] = K
	}
	a.wall[0] = a.deck[a.n]
	for j, p := range a.in.Seats {
		if a.diverged(a.n + j) {
			return false
		}
		ro := a.byKind["rekey pass"][p]
		if ro == nil {
			return true
		}
		if len(ro.Entry.GetRekey().Proof) == 0 {
			if a.in.RequireProofs {
				a.blame(BlameRekey, entries(ro), "rekey pass %d fails its proof: it comes without one at a table that plays with proofs", j)
				return false
			}
			return true
		}
		rk := ro.Entry.GetRekey()
		next, err := commcrypto.DecodeElements(rk.Wall, a.layout.Size)
		if err != nil {
			a.blame(BlameRekey, entries(ro), "rekey pass does not decode: %v", err)
			return false
		}
		commits, err := commcrypto.DecodeElements(rk.Commitments, a.layout.Size)
		if err != nil {
			a.blame(BlameRekey, entries(ro), "rekey pass has bad commitments: %v", err)
			return false
		}
		if batched {
			a.wall[j+1] = next
			a.commits[j] = commits
			continue
		}
		if err := a.in.ShuffleParams.verifyRekey(proofContext(a.in.GameID, a.in.Hand, j, p), a.keyCommits[j], rk, a.wall[j], next, commits); err != nil {
			a.blame(BlameRekey, entries(ro, a.byKind["shuffle pass"][p]), "rekey pass %d fails its proof: %v", j, err)
			return false
		}
		a.wall[j+1] = next
		a.commits[j] = commits // reveals checks the keys against them
	}
	return true
}

// batchVerified reports whether every seat's shuffle and rekey pass is
// present with a proof, decodes, and all their proofs verify together in
// one batch (ProofParams.batchVerify). It records nothing: any failure
// leaves the proofs to verifyProofs' walk, pass by pass.
func (a *auditor) batchVerified() bool {
	var sh []shuffleStatement
	var rk []rekeyStatement
	deck := a.deck[0]
	keys := make([]commcrypto.Element, len(a.in.Seats))
	for j, p := range a.in.Seats {
		so := a.byKind["shuffle pass"][p]
		if so == nil || len(so.Entry.GetShuffle().Proof) == 0 {
			return false
		}
		sp := so.Entry.GetShuffle()
		next, err := commcrypto.DecodeElements(sp.Deck, a.layout.Size)
		if err != nil {
			return false
		}
		if keys[j], err = commcrypto.DecodeElement(sp.KeyCommitment); err != nil {
			return false
		}
		sh = append(sh, shuffleStatement{ctx: proofContext(a.in.GameID, a.in.Hand, j, p), in: deck, out: next, K: keys[j], proof: sp.Proof})
		deck = next
	}
	for j, p := range a.in.Seats {
		ro := a.byKind["rekey pass"][p]
		if ro == nil || len(ro.Entry.GetRekey().Proof) == 0 {
			return false
		}
		r := ro.Entry.GetRekey()
		next, err1 := commcrypto.DecodeElements(r.Wall, a.layout.Size)
		commits, err2 := commcrypto.DecodeElements(r.Commitments, a.layout.Size)
		if err1 != nil || err2 != nil {
			return false
		}
		rk = append(rk, rekeyStatement{ctx: proofContext(a.in.GameID, a.in.Hand, j, p), K: keys[j], in: deck, out: next, commits: commits, proof: r.Proof})
		deck = next
	}
	return a.in.ShuffleParams.batchVerify(sh, rk)
}

// finalWall is verifyProofs for a live node that verified every proof on
// arrival: only the wall of the last rekey pass is decoded, for the
// decryption (a pass missing its proof was blamed on arrival).
func (a *auditor) finalWall() bool {
	last := a.byKind["rekey pass"][a.in.Seats[a.n-1]]
	if last == nil {
		return true
	}
	if d := a.in.Decoded; d != nil && len(d.Wall) == a.layout.Size {
		a.wall[a.n] = d.Wall
		return true
	}
	w, err := commcrypto.DecodeElements(last.Entry.GetRekey().Wall, a.layout.Size)
	if err != nil {
		a.blame(BlameRekey, entries(last), "rekey pass does not decode: %v", err)
		return false
	}
	a.wall[a.n] = w
	return true
}

// decryptProven decrypts the proven wall with the revealed position keys:
// the proofs show C_i = (Π_j r_{j,i})·T_{yama[i]} once every revealed key
// matches its commitment (checked by reveals), so no pass is replayed.
// The offline audit also checks each revealed global key against its
// shuffle pass's K_j.
func (a *auditor) decryptProven() bool {
	for j, p := range a.in.Seats {
		if !a.keyCommits[j].IsZero() && !commcrypto.Commit(a.k[j]).Equal(a.keyCommits[j]) {
			a.blame(BlameKey, entries(a.byKind["key reveal"][p], a.byKind["shuffle pass"][p]), "revealed a global key that does not match the key commitment of its shuffle pass")
			return false
		}
	}
	// (Π_j r_{j,i})⁻¹ for every position with one inversion (Montgomery's
	// trick: invert the product of all, then peel it with prefix
	// products).
	n := len(a.wall[a.n])
	if n != a.layout.Size {
		a.fault("", FaultLocal, "the proven wall has %d positions, want %d", n, a.layout.Size)
		return false
	}
	keys := make([]commcrypto.Scalar, a.n)
	prod := make([]commcrypto.Scalar, n)
	prefix := make([]commcrypto.Scalar, n)
	for i := range prod {
		for j := range keys {
			keys[j] = a.r[j][i]
		}
		prod[i] = commcrypto.ProductOf(keys...)
		prefix[i] = prod[i]
		if i > 0 {
			prefix[i] = prefix[i-1].Mul(prod[i])
		}
	}
	inv := make([]commcrypto.Scalar, n)
	acc := prefix[n-1].Inverse()
	for i := n - 1; i > 0; i-- {
		inv[i] = acc.Mul(prefix[i-1])
		acc = acc.Mul(prod[i])
	}
	inv[0] = acc
	a.yama = make([]wall.Tile, n)
	var known []int
	if d := a.in.Decoded; a.in.ProofsVerified && d != nil && len(d.Tiles) == n && len(d.Wall) == n {
		known = d.Tiles
	}
	for i, c := range a.wall[a.n] {
		if known != nil && known[i] >= 0 {
			a.yama[i] = wall.Tile(known[i])
			continue
		}
		id, ok := a.in.Tiles.Lookup(commcrypto.Lock(inv[i], c))
		if !ok {
			a.fault("", FaultLocal, "position %d of the proven wall does not decrypt to a tile under the revealed keys", i)
			return false
		}
		a.yama[i] = wall.Tile(id)
	}
	if err := a.layout.CheckPermutation(a.yama); err != nil {
		a.fault("", FaultLocal, "decrypted wall is not a permutation of the tiles: %v", err)
		return false
	}
	a.out.DoraIndicator = int(a.yama[a.layout.DoraIndicatorIndex(0)])
	a.out.Proven = true
	return true
}
