package protocol

import (
	"crypto/rand"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/rekeyproof"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// Proofs of the shuffle and rekey passes (docs/DESIGN.md "Proofs").
//
// Shuffle pass j publishes K_j = k_j·G and a shuffle argument
// (commcrypto/shuffleproof) that its deck is π_j(k_j·D); rekey pass j
// publishes a batched Chaum–Pedersen argument (commcrypto/rekeyproof)
// that C'_i = s_i·C_i and R_{j,i} = s_i·K_j. Both are bound to the
// protocol version, the game id, the hand, the pass index (the prover's
// seat) and the prover's peer ID. Every node verifies each pass as it
// arrives, before it sends anything that depends on it; a pass whose
// proof fails is blamed on its sender at once, with the signed pass as
// evidence. With every pass proven, the end-of-hand audit decrypts the
// wall with the revealed keys instead of replaying the passes.

// proofContext returns the Fiat–Shamir context of pass j of hand num in
// game gameID, made by prover.
func proofContext(gameID []byte, num uint32, j int, prover peer.ID) transcript.Context {
	return transcript.Context{Version: Version, GameID: gameID, Hand: num, Pass: uint32(j), Prover: []byte(prover)}
}

// proveShuffle fills in the key commitment and the shuffle argument of
// this player's shuffle pass.
//
// The argument's nonces come from crypto/rand, not Config.Rand: they are
// not secrets a resumed game must find again. A resumed game replaying its
// transcript takes the recorded proof and makes none.
func (h *hand) proveShuffle(body *pb.ShufflePass, in, out []commcrypto.Element) error {
	if h.g.replayHolds("shuffle pass") {
		body.KeyCommitment = commcrypto.Commit(h.k).Bytes()
		return nil
	}
	pr, err := shuffleproof.Prove(h.g.shuffleParams(), proofContext(h.g.gameID, h.num, h.seat, h.g.self), in, out, h.k, h.perm, rand.Reader)
	if err != nil {
		return fmt.Errorf("shuffle proof: %w", err)
	}
	body.KeyCommitment = commcrypto.Commit(h.k).Bytes()
	body.Proof = pr.Bytes()
	return nil
}

// verifyShuffle checks the shuffle argument of seat j's pass from deck in
// to deck out and returns j's key commitment K_j.
func verifyShuffle(params *shuffleproof.Params, ctx transcript.Context, sp *pb.ShufflePass, in, out []commcrypto.Element) (commcrypto.Element, error) {
	K, err := commcrypto.DecodeElement(sp.KeyCommitment)
	if err != nil {
		return K, fmt.Errorf("key commitment: %w", err)
	}
	pr, err := shuffleproof.Decode(sp.Proof, len(in))
	if err != nil {
		return K, err
	}
	if err := shuffleproof.Verify(params, ctx, in, out, K, pr); err != nil {
		return K, err
	}
	return K, nil
}

// proveRekey fills in the rekey argument of this player's rekey pass.
// Its nonces come from crypto/rand, as proveShuffle's do.
func (h *hand) proveRekey(body *pb.RekeyPass, in, out, commits []commcrypto.Element, factors []commcrypto.Scalar) error {
	if h.g.replayHolds("rekey pass") {
		return nil
	}
	pr, err := rekeyproof.Prove(proofContext(h.g.gameID, h.num, h.seat, h.g.self), commcrypto.Commit(h.k), in, out, commits, factors, rand.Reader)
	if err != nil {
		return fmt.Errorf("rekey proof: %w", err)
	}
	body.Proof = pr.Bytes()
	return nil
}

// verifyRekey checks the rekey argument of a pass from wall in to wall
// out with commitments commits, under the prover's key commitment K.
func verifyRekey(ctx transcript.Context, K commcrypto.Element, rk *pb.RekeyPass, in, out, commits []commcrypto.Element) error {
	pr, err := rekeyproof.Decode(rk.Proof, len(in))
	if err != nil {
		return err
	}
	return rekeyproof.Verify(ctx, K, in, out, commits, pr)
}

// prepareProofs starts building the shuffle argument's generators for the
// game's decks (136 tiles, or 108 in sanma; about 3–10 ms of CPU) in the
// background, so that the first hand does not wait for them: Run calls it
// before the Hellos. It does nothing at a table without proofs or when
// they are already under way.
func (g *Game) prepareProofs() {
	if g.cfg.NoProofs || g.params != nil || g.paramsCh != nil {
		return
	}
	ch := make(chan *shuffleproof.Params, 1)
	g.paramsCh = ch
	n := g.layout.Size
	go func() { ch <- shuffleproof.NewParams(n) }()
}

// shuffleParams returns the shuffle argument's generators for the game's
// decks, waiting for prepareProofs' build or, without it, building them
// now; they are kept for the game.
func (g *Game) shuffleParams() *shuffleproof.Params {
	if g.params == nil {
		if g.paramsCh != nil {
			g.params = <-g.paramsCh
		} else {
			g.params = shuffleproof.NewParams(g.layout.Size)
		}
	}
	return g.params
}

// verification is a pass's proof being verified in the background while
// this player computes and proves its own pass on it: the player may make
// its pass as soon as it holds the previous one, but sends nothing that
// depends on a pass before that pass verified (hand.awaitPass).
type verification struct {
	done    chan struct{}
	K       commcrypto.Element   // a shuffle pass's key commitment K_j
	commits []commcrypto.Element // a rekey pass's decoded commitments R_{j,i}
	err     error                // nil, or the blame for a pass that fails its proof
}

// verifyAsync runs verify on a new verification in a new goroutine and
// returns the verification at once.
func verifyAsync(verify func(v *verification) error) *verification {
	v := &verification{done: make(chan struct{})}
	go func() {
		defer close(v.done)
		v.err = verify(v)
	}()
	return v
}

// await waits for the verification and returns its error.
func (v *verification) await() error {
	<-v.done
	return v.err
}
