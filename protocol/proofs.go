package protocol

import (
	"crypto/rand"
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/logrekey"
	"github.com/mentalmj/mentalmj/commcrypto/logshuffle"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
	"github.com/mentalmj/mentalmj/commcrypto/rekeyproof"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// Proofs of the shuffle and rekey passes (docs/DESIGN.md "Proofs").
//
// Shuffle pass j publishes K_j = k_j·G and a shuffle argument that its
// deck is π_j(k_j·D); rekey pass j publishes a rekey argument that
// C'_i = s_i·C_i and R_{j,i} = s_i·K_j. The table's proof system
// (Config.Proofs, announced in the Hello's settings) chooses the pair:
// by default the logarithmic-size commcrypto/logshuffle and
// commcrypto/logrekey, or the first release's commcrypto/shuffleproof
// (Terelius–Wikström) and commcrypto/rekeyproof (batched Chaum–Pedersen).
// Both are bound to the
// protocol version, the game id, the hand, the pass index (the prover's
// seat) and the prover's peer ID. Every node verifies each pass it
// receives before it sends anything that depends on it, several at once
// in one batch where it can (passproofs.go); a pass whose proof fails is
// blamed on its sender, with the signed pass as evidence. With every
// pass proven, the end-of-hand audit decrypts the wall with the revealed
// keys instead of replaying the passes.

// proofContext returns the Fiat–Shamir context of pass j of hand num in
// game gameID, made by prover.
func proofContext(gameID []byte, num uint32, j int, prover peer.ID) transcript.Context {
	return transcript.Context{Version: Version, GameID: gameID, Hand: num, Pass: uint32(j), Prover: []byte(prover)}
}

// ProofParams are a table's proof system (settings.ProofsLog or
// settings.ProofsTW; SPEC §12, §13) with its public parameters for one
// wall size (136 tiles, or 108 in sanma): the shuffle argument's
// generators. Build them with NewProofParams; they are immutable and
// shared by every hand of a game.
type ProofParams struct {
	system string
	size   int
	tw     *shuffleproof.Params
	log    *logshuffle.Params
}

// NewProofParams returns the parameters of the proof system named system
// ("" is the default, settings.ProofsLog; an unknown name is taken as the
// default too, since settings.FromProto refuses one before a game starts)
// for walls of size elements: about 3–10 ms of CPU the first time in a
// process, and the same parameters, shared, every later time
// (proofParamsMemo).
func NewProofParams(system string, size int) *ProofParams {
	key := proofParamsKey{proofSystem(system), size}
	if p, ok := proofParamsMemo.Load(key); ok {
		return p.(*ProofParams)
	}
	p, _ := proofParamsMemo.LoadOrStore(key, buildProofParams(system, size))
	return p.(*ProofParams)
}

// proofParamsMemo holds the ProofParams built so far in this process, by
// proofParamsKey. They are immutable, and a function of the system and
// the size alone (their generators are hashed from fixed labels: SPEC
// §12, §13), so each is built once and shared by every game and audit,
// as the standard library builds its edwards25519 base-point table once:
// a cache of constants, not state (a game never writes to its
// parameters, and hands in the pipeline already share them
// concurrently).
var proofParamsMemo sync.Map

// proofParamsKey is a proof system's name (proofSystem's) and a wall
// size.
type proofParamsKey struct {
	system string
	size   int
}

// buildProofParams builds what NewProofParams returns.
func buildProofParams(system string, size int) *ProofParams {
	p := &ProofParams{system: system, size: size}
	if system == settings.ProofsTW {
		p.tw = shuffleproof.NewParams(size)
	} else {
		p.system = settings.ProofsLog
		p.log = logshuffle.NewParams(size)
	}
	return p
}

// System returns the proof system's name: settings.ProofsLog or
// settings.ProofsTW.
func (p *ProofParams) System() string { return p.system }

// N returns the wall size the parameters are for.
func (p *ProofParams) N() int { return p.size }

// proveShuffle returns the shuffle argument that out = perm(k·in).
func (p *ProofParams) proveShuffle(ctx transcript.Context, in, out []commcrypto.Element, k commcrypto.Scalar, perm []int) ([]byte, error) {
	if p.tw != nil {
		pr, err := shuffleproof.Prove(p.tw, ctx, in, out, k, perm, rand.Reader)
		if err != nil {
			return nil, err
		}
		return pr.Bytes(), nil
	}
	pr, err := logshuffle.Prove(p.log, ctx, in, out, k, perm, rand.Reader)
	if err != nil {
		return nil, err
	}
	return pr.Bytes(), nil
}

// verifyShuffle checks the shuffle argument of a pass from deck in to
// deck out and returns the prover's key commitment K_j. Its errors wrap
// the argument's ErrEncoding or ErrInvalid, or say the key commitment
// does not decode.
func (p *ProofParams) verifyShuffle(ctx transcript.Context, sp *pb.ShufflePass, in, out []commcrypto.Element) (commcrypto.Element, error) {
	K, err := commcrypto.DecodeElement(sp.KeyCommitment)
	if err != nil {
		return K, fmt.Errorf("key commitment: %w", err)
	}
	if p.tw != nil {
		pr, err := shuffleproof.Decode(sp.Proof, len(in))
		if err != nil {
			return K, err
		}
		return K, shuffleproof.Verify(p.tw, ctx, in, out, K, pr)
	}
	pr, err := logshuffle.Decode(sp.Proof, len(in))
	if err != nil {
		return K, err
	}
	return K, logshuffle.Verify(p.log, ctx, in, out, K, pr)
}

// shuffleKey decodes the key commitment of a shuffle pass and, with
// verify, verifies its proof (verifyShuffle); without, it only decodes
// K_j, for a pass whose proof a batch verified.
func (p *ProofParams) shuffleKey(ctx transcript.Context, sp *pb.ShufflePass, in, out []commcrypto.Element, verify bool) (commcrypto.Element, error) {
	if verify {
		return p.verifyShuffle(ctx, sp, in, out)
	}
	K, err := commcrypto.DecodeElement(sp.KeyCommitment)
	if err != nil {
		return K, fmt.Errorf("key commitment: %w", err)
	}
	return K, nil
}

// shuffleStatement and rekeyStatement are a pass's statement and proof
// bytes for batchVerify.
type shuffleStatement struct {
	ctx     transcript.Context
	in, out []commcrypto.Element
	K       commcrypto.Element
	proof   []byte
}

type rekeyStatement struct {
	ctx              transcript.Context
	K                commcrypto.Element
	in, out, commits []commcrypto.Element
	proof            []byte
}

// batchVerify reports whether every proof decodes and all verify
// together, with one random linear combination and one multi-scalar
// multiplication: the shuffle proofs in a logshuffle.Batch (their
// generators' coefficients summed onto the table), the rekey proofs in a
// logrekey.Batch, both added to one msm.Terms, where the elements the
// statements share (a pass's output is the next pass's input; K_j is in
// both of seat j's statements) are one term each. It reports false for
// the "tw" system (which has no batch), for any proof that does not
// decode and when the sum is not the identity; the caller then verifies
// each proof on its own, so that the blame is the one verification pass
// by pass gives.
func (p *ProofParams) batchVerify(sh []shuffleStatement, rk []rekeyStatement) bool {
	if p.log == nil {
		return false
	}
	sb := logshuffle.NewBatch(p.log, nil)
	for _, s := range sh {
		pr, err := logshuffle.Decode(s.proof, len(s.in))
		if err != nil {
			return false
		}
		if _, err := sb.Add(s.ctx, s.in, s.out, s.K, pr); err != nil {
			return false
		}
	}
	rb := logrekey.NewBatch(nil)
	for _, r := range rk {
		pr, err := logrekey.Decode(r.proof, len(r.in))
		if err != nil {
			return false
		}
		if _, err := rb.Add(r.ctx, r.K, r.in, r.out, r.commits, pr); err != nil {
			return false
		}
	}
	var sum msm.Terms
	sb.AddTo(&sum)
	rb.AddTo(&sum)
	return sum.Sum().IsIdentity()
}

// proveRekey returns the rekey argument that out[i] = factors[i]·in[i]
// and commits[i] = factors[i]·K.
func (p *ProofParams) proveRekey(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element, factors []commcrypto.Scalar) ([]byte, error) {
	if p.tw != nil {
		pr, err := rekeyproof.Prove(ctx, K, in, out, commits, factors, rand.Reader)
		if err != nil {
			return nil, err
		}
		return pr.Bytes(), nil
	}
	pr, err := logrekey.Prove(ctx, K, in, out, commits, factors, rand.Reader)
	if err != nil {
		return nil, err
	}
	return pr.Bytes(), nil
}

// verifyRekey checks the rekey argument of a pass from wall in to wall
// out with commitments commits, under the prover's key commitment K.
func (p *ProofParams) verifyRekey(ctx transcript.Context, K commcrypto.Element, rk *pb.RekeyPass, in, out, commits []commcrypto.Element) error {
	if p.tw != nil {
		pr, err := rekeyproof.Decode(rk.Proof, len(in))
		if err != nil {
			return err
		}
		return rekeyproof.Verify(ctx, K, in, out, commits, pr)
	}
	pr, err := logrekey.Decode(rk.Proof, len(in))
	if err != nil {
		return err
	}
	return logrekey.Verify(ctx, K, in, out, commits, pr)
}

// proveShuffle fills in the key commitment and the shuffle argument of
// this player's shuffle pass.
//
// The argument's nonces come from crypto/rand, not Config.Rand: they are
// not secrets a resumed game must find again. A resumed game replaying its
// transcript takes the recorded proof and makes none.
func (h *hand) proveShuffle(body *pb.ShufflePass, in, out []commcrypto.Element) error {
	body.KeyCommitment = commcrypto.Commit(h.k).Bytes()
	if h.g.replayHolds("shuffle pass") {
		return nil
	}
	pr, err := h.g.shuffleParams().proveShuffle(proofContext(h.g.gameID, h.num, h.seat, h.g.self), in, out, h.k, h.perm)
	if err != nil {
		return fmt.Errorf("shuffle proof: %w", err)
	}
	body.Proof = pr
	return nil
}

// proveRekey fills in the rekey argument of this player's rekey pass.
// Its nonces come from crypto/rand, as proveShuffle's do.
func (h *hand) proveRekey(body *pb.RekeyPass, in, out, commits []commcrypto.Element, factors []commcrypto.Scalar) error {
	if h.g.replayHolds("rekey pass") {
		return nil
	}
	pr, err := h.g.shuffleParams().proveRekey(proofContext(h.g.gameID, h.num, h.seat, h.g.self), commcrypto.Commit(h.k), in, out, commits, factors)
	if err != nil {
		return fmt.Errorf("rekey proof: %w", err)
	}
	body.Proof = pr
	return nil
}

// prepareProofs starts building the proof system's parameters for the
// game's decks (136 tiles, or 108 in sanma; about 3–10 ms of CPU) in the
// background, so that the first hand does not wait for them: Run calls it
// before the Hellos. It does nothing at a table without proofs or when
// they are already under way.
func (g *Game) prepareProofs() {
	if g.cfg.NoProofs || g.params != nil || g.paramsCh != nil {
		return
	}
	ch := make(chan *ProofParams, 1)
	g.paramsCh = ch
	n, system := g.layout.Size, g.cfg.Proofs
	go func() { ch <- NewProofParams(system, n) }()
}

// shuffleParams returns the proof system's parameters for the game's
// decks, waiting for prepareProofs' build or, without it, building them
// now; they are kept for the game.
func (g *Game) shuffleParams() *ProofParams {
	if g.params == nil {
		if g.paramsCh != nil {
			g.params = <-g.paramsCh
		} else {
			g.params = NewProofParams(g.cfg.Proofs, g.layout.Size)
		}
	}
	return g.params
}

// proofSystem returns the name NewProofParams gives system: the default
// settings.ProofsLog for "" (or any name but settings.ProofsTW).
func proofSystem(system string) string {
	if system == settings.ProofsTW {
		return settings.ProofsTW
	}
	return settings.ProofsLog
}
