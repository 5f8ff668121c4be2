package protocol

import (
	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
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

// verifyProofs decodes every pass and, unless the live node verified them
// on arrival, verifies every shuffle and rekey proof in pass order,
// blaming the first seat whose proof fails.
func (a *auditor) verifyProofs() bool {
	a.deck[0] = a.in.Tiles.Points()
	var keyCommits [Players]commcrypto.Element
	for j, p := range a.in.Seats {
		so := a.byKind["shuffle pass"][p]
		sp := so.Entry.GetShuffle()
		next, err := commcrypto.DecodeElements(sp.Deck, wall.NumTiles)
		if err != nil {
			a.blame(entries(so), "shuffle pass does not decode: %v", err)
			return false
		}
		a.deck[j+1] = next
		if a.in.ProofsVerified {
			continue
		}
		if a.in.ShuffleParams == nil {
			a.in.ShuffleParams = shuffleproof.NewParams(wall.NumTiles)
		}
		K, err := verifyShuffle(a.in.ShuffleParams, proofContext(a.in.GameID, a.in.Hand, j, p), sp, a.deck[j], next)
		if err != nil {
			a.blame(entries(so), "shuffle pass %d fails its proof: %v", j, err)
			return false
		}
		if !a.k[j].IsZero() && !commcrypto.Commit(a.k[j]).Equal(K) {
			a.blame(entries(a.byKind["key reveal"][p], so), "revealed a global key that does not match the key commitment of its shuffle pass")
			return false
		}
		keyCommits[j] = K
	}
	a.wall[0] = a.deck[Players]
	for j, p := range a.in.Seats {
		ro := a.byKind["rekey pass"][p]
		rk := ro.Entry.GetRekey()
		next, err := commcrypto.DecodeElements(rk.Wall, wall.NumTiles)
		if err != nil {
			a.blame(entries(ro), "rekey pass does not decode: %v", err)
			return false
		}
		if !a.in.ProofsVerified {
			if err := verifyRekey(proofContext(a.in.GameID, a.in.Hand, j, p), keyCommits[j], rk, a.wall[j], next, a.commits[j]); err != nil {
				a.blame(entries(ro, a.byKind["shuffle pass"][p]), "rekey pass %d fails its proof: %v", j, err)
				return false
			}
		}
		a.wall[j+1] = next
	}
	a.out.Proven = true
	return true
}

// decryptProven decrypts the proven wall with the revealed position keys:
// the proofs show C_i = (Π_j r_{j,i})·T_{yama[i]} once every revealed key
// matches its commitment (checked by reveals), so no pass is replayed.
func (a *auditor) decryptProven() bool {
	a.yama = make([]wall.Tile, wall.NumTiles)
	for i, c := range a.wall[Players] {
		id, ok := a.in.Tiles.Lookup(commcrypto.Decrypt(c, a.r[0][i], a.r[1][i], a.r[2][i], a.r[3][i]))
		if !ok {
			a.fault("", FaultLocal, "position %d of the proven wall does not decrypt to a tile under the revealed keys", i)
			return false
		}
		a.yama[i] = wall.Tile(id)
	}
	if err := wall.FourPlayer.CheckPermutation(a.yama); err != nil {
		a.fault("", FaultLocal, "decrypted wall is not a permutation of the tiles: %v", err)
		return false
	}
	a.out.DoraIndicator = int(a.yama[wall.FourPlayer.DoraIndicatorIndex(0)])
	return true
}
