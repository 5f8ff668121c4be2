package protocol

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// privateReveal is the end-of-hand KeyReveal of private-hands mode: no
// global key, and this player's keys r for positions only (ascending).
func privateReveal(positions []int, r []commcrypto.Scalar) *pb.KeyReveal {
	body := &pb.KeyReveal{PositionKeys: make([]byte, 0, len(positions)*commcrypto.ScalarSize)}
	for _, pos := range positions {
		body.Positions = append(body.Positions, uint32(pos))
		body.PositionKeys = append(body.PositionKeys, r[pos].Bytes()...)
	}
	return body
}

// runPrivate is the audit of a private-hands hand. Every pass must carry a
// proof that verifies (the proven wall C_i with the commitments R_{j,i});
// no global key and only the position keys the rules need are revealed,
// so the wall is not decrypted: every tile the kyoku shows is opened from
// the keys its message carries (each checked against its commitment) and
// the proven wall, the key reveals are checked against the riichi checks
// the public engine left open, and those checks are decided on the
// revealed tiles. The Tenhou wall model (a permutation of the tile set)
// is not checked: the proofs already show that the wall is one.
func (a *auditor) runPrivate() {
	proven := a.proven()
	a.passInputs()
	if !a.verifyProofs() {
		return
	}
	if !proven {
		for _, p := range a.in.Seats {
			sp, rk := a.need("shuffle pass", p), a.need("rekey pass", p)
			if sp != nil && rk != nil {
				// A pass without its proof: verifyProofs blamed it when
				// the table requires proofs; private hands always does.
				a.fault("", FaultLocal, "a shuffle or rekey pass of %s has no proof, which private hands needs", p)
				return
			}
		}
		return
	}
	if a.wall[a.n] == nil && !a.finalWall() {
		return
	}
	if a.wall[a.n] == nil {
		return
	}
	for j, p := range a.in.Seats {
		rk := a.need("rekey pass", p)
		if rk == nil {
			return
		}
		if a.commits[j] == nil { // not decoded yet by verifyProofs (or the live node)
			commits, err := commcrypto.DecodeElements(rk.Entry.GetRekey().Commitments, a.layout.Size)
			if err != nil {
				a.blame(BlameRekey, entries(rk), "rekey pass has bad commitments: %v", err)
				return
			}
			a.commits[j] = commits
		}
		a.r[j] = make([]commcrypto.Scalar, a.layout.Size)
	}
	a.yama = make([]wall.Tile, a.layout.Size)
	for i := range a.yama {
		a.yama[i] = game.Unknown
	}
	a.out.Proven = true
	a.out.PrivateHands = true
	a.kyoku()
	if len(a.out.Blame) == 0 && a.out.Result != nil {
		a.out.Yama = make([]int, len(a.yama))
		for i, t := range a.yama {
			a.out.Yama[i] = int(t)
			if t != game.Unknown {
				a.out.Shown++
			}
		}
	}
}

// checkCommit checks seat j's key for position pos against its
// commitment R_{j,pos}, and keeps the key.
func (a *auditor) checkCommit(j, pos int, key commcrypto.Scalar) error {
	if pos < 0 || pos >= a.layout.Size || a.commits[j] == nil {
		return fmt.Errorf("no commitment of seat %d for position %d", j, pos)
	}
	if err := commcrypto.CheckCommitment(key, a.commits[j][pos]); err != nil {
		return fmt.Errorf("key of seat %d for position %d fails its commitment: %w", j, pos, err)
	}
	a.r[j][pos] = key
	return nil
}

// openPrivate decrypts position pos of the proven wall with every seat's
// key (each already checked against its commitment) and records its tile.
// With proofs, keys that match their commitments always decrypt to a tile
// point; anything else is a fault of the audit.
func (a *auditor) openPrivate(pos int, keys []commcrypto.Scalar) (wall.Tile, error) {
	id, ok := a.in.Tiles.Lookup(commcrypto.Decrypt(a.wall[a.n][pos], keys...))
	if !ok {
		return -1, faultf("", a.in.Hand, FaultBadWall, nil, "position %d of the proven wall does not decrypt to a tile under keys that match their commitments", pos)
	}
	a.yama[pos] = wall.Tile(id)
	return wall.Tile(id), nil
}

// openShownPrivate is the private-hands audit's check of a shown tile:
// every key against its commitment, then the tile the keys decrypt the
// proven wall to.
func (a *auditor) openShownPrivate(st shownTile) (wall.Tile, error) {
	for j, k := range st.keys {
		if err := a.checkCommit(j, st.pos, k); err != nil {
			return -1, err
		}
	}
	return a.openPrivate(st.pos, st.keys)
}

// privateDora collects the public keys of the first dora indicator in a
// private-hands audit; once every seat's is in, it opens the position
// and reveals it to the engine.
func (a *auditor) privateDora(o *Opened, s int, pos int, key commcrypto.Scalar, k *game.Kyoku) bool {
	if err := a.checkCommit(s, pos, key); err != nil {
		a.blame(BlameKey, entries(o, a.byKind["rekey pass"][o.Sender]), "published a key for the dora indicator that %v", err)
		return false
	}
	for j := 0; j < a.n; j++ {
		if a.r[j][pos].IsZero() {
			return true
		}
	}
	keys := make([]commcrypto.Scalar, a.n)
	for j := range keys {
		keys[j] = a.r[j][pos]
	}
	t, err := a.openPrivate(pos, keys)
	if err != nil {
		a.blameErr(err)
		return false
	}
	a.out.DoraIndicator = int(t)
	if err := k.Reveal(pos, t); err != nil {
		a.fault("", FaultLocal, "dora indicator: %v", err)
		return false
	}
	return true
}

// privateReveals checks every seat's private-hands key reveal against the
// riichi checks the public engine k left open: it must carry no global
// key and exactly the keys of those positions (RiichiCheckPositions), each
// matching its commitment. The positions are then opened and revealed to
// k, so that Recheck decides the riichi checks. A reveal that fails is
// blamed on its signer; a missing one is a fault (need).
func (a *auditor) privateReveals(k *game.Kyoku) bool {
	want := k.RiichiCheckPositions()
	ok := true
	for j, p := range a.in.Seats {
		o := a.need("key reveal", p)
		if o == nil {
			ok = false
			continue
		}
		kr := o.Entry.GetKeyReveal()
		got := make([]int, len(kr.Positions))
		for i, pos := range kr.Positions {
			got[i] = int(pos)
		}
		switch {
		case len(kr.GlobalKey) != 0:
			a.blame(BlameKey, entries(o), "published its global key in a private-hands game (it would expose the wall)")
			return false
		case !slices.Equal(got, want):
			a.blame(BlameKey, entries(o), "revealed the keys of positions %v; private hands reveals exactly the concealed riichi positions the rules need, %v", got, want)
			return false
		}
		keys, err := decodeKeys(kr.PositionKeys, len(want))
		if err != nil {
			a.blame(BlameKey, entries(o), "revealed bad position keys: %v", err)
			return false
		}
		for i, pos := range want {
			if err := a.checkCommit(j, pos, keys[i]); err != nil {
				a.blame(BlameKey, entries(a.byKind["rekey pass"][p], o), "revealed a key that %v", err)
				return false
			}
		}
	}
	if !ok {
		return false
	}
	keys := make([]commcrypto.Scalar, a.n)
	for _, pos := range want {
		for j := range keys {
			keys[j] = a.r[j][pos]
		}
		t, err := a.openPrivate(pos, keys)
		if err != nil {
			a.blameErr(err)
			return false
		}
		if err := k.Reveal(pos, t); err != nil {
			a.fault("", FaultLocal, "the revealed riichi hand contradicts the kyoku at position %d: %v", pos, err)
			return false
		}
	}
	return true
}

// viewYama is the wall as the auditing player saw it: the tiles shown to
// everyone and its own (AuditInput.Mine), game.Unknown elsewhere.
func (a *auditor) viewYama() []wall.Tile {
	out := slices.Clone(a.yama)
	for pos, t := range a.in.Mine {
		if pos >= 0 && pos < len(out) && t.Valid() {
			out[pos] = t
		}
	}
	return out
}
