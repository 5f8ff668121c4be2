package logshuffle

import (
	"encoding/binary"
	"fmt"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
)

// Domain is the transcript domain and the prefix of every
// domain-separation tag of this argument.
const Domain = "mentalmj/v1/logshuffle"

// MaxN bounds the deck length a proof may claim, so that a decoder never
// allocates for a length taken from untrusted input beyond this.
const MaxN = 1020

// Rounds is the number of halving rounds of each inner-product
// argument; the recursion stops at vectors of length n/2^Rounds, which
// the prover then sends (Bootle et al., EUROCRYPT 2016, §3: the recursion
// may stop at any length and send the witness).
const Rounds = 4

// Blinders is n_bl of Curdleproofs: the number of blinding generators
// H_0..H_3 appended to the ℓ vector generators (Curdleproofs, "Full Zero
// Knowledge Construction", step 2: n_bl ≥ 4).
const Blinders = 4

const size = 32 // bytes of an encoded element or scalar

var g = group.Ristretto255

// Params are the public parameters of the argument for decks of N
// elements: the vector length n (the smallest multiple of 2^Rounds with
// n ≥ N + Blinders), the final length f = n/2^Rounds, ℓ = n − Blinders
// padded deck positions, and the
// independent generators G_0..G_{ℓ−1}, H_0..H_3, G_T and H, each RFC 9380
// hash_to_ristretto255 (suite ristretto255_XMD:SHA-512_R255MAP_RO_) of
// its label with DST "mentalmj/v1/logshuffle/generator": "G" ‖ BE32(i),
// "H" ‖ BE32(j), "GT", "HT". Params are immutable; build them once per
// deck length with NewParams and share them.
type Params struct {
	bigN, n, ell, rounds, f int
	gs                      []group.Element // G_0..G_{ℓ−1}
	hs                      []group.Element // H_0..H_3
	gT, hT                  group.Element
	// gens is gs ‖ hs: the bases of the grand-product inner-product
	// argument (Curdleproofs' G = g ‖ h).
	gens []group.Element
	// msmGens is gs ‖ H_0..H_2 ‖ G_T: the bases of the same-multiscalar
	// argument.
	msmGens []group.Element
	// tab is the precomputed table (commcrypto/msm.Table) of the fixed
	// points gs ‖ hs ‖ G_T ‖ H ‖ G, indexed as the verifier's combination
	// orders them: every sum over the generators, the prover's and the
	// verifier's, is evaluated there without doublings.
	tab *msm.Table
}

// Table indices of G_T, H and the base point G.
func (p *Params) idxGT() int { return p.n }
func (p *Params) idxH() int  { return p.n + 1 }

// msmIndex maps index k of msmGens to the table.
func (p *Params) msmIndex(k int) int {
	if k == p.n-1 {
		return p.idxGT()
	}
	return k
}

// genIndex returns 0, 1, …, ℓ+Blinders+2: the table's indices of the
// fixed generators, in a combination's gen order.
func (p *Params) genIndex() []int {
	idx := make([]int, p.ell+Blinders+3)
	for k := range idx {
		idx[k] = k
	}
	return idx
}

// tableSum returns Σ ss[i]·P_{idx[i]} over the table.
func (p *Params) tableSum(idx []int, ss []group.Scalar) group.Element {
	e, err := p.tab.MultiScalarMult(idx, ss)
	if err != nil {
		panic(err) // indices and lengths by construction
	}
	return e
}

// VectorLength returns n for decks of N elements: the smallest multiple
// of 2^Rounds = 16 that is at least N + Blinders (144 for N = 136, 112
// for N = 108).
func VectorLength(bigN int) int {
	const unit = 1 << Rounds
	return (bigN + Blinders + unit - 1) / unit * unit
}

// NewParams returns the parameters for decks of N elements,
// 1 ≤ N ≤ MaxN (about 20 µs of CPU per generator, spread over the
// cores, and about 5 ms for the table of their multiples). It panics on another N (programmer error).
func NewParams(bigN int) *Params {
	if bigN < 1 || bigN > MaxN {
		panic(fmt.Sprintf("logshuffle: NewParams(%d): N out of range", bigN))
	}
	n := VectorLength(bigN)
	p := &Params{bigN: bigN, n: n, ell: n - Blinders, rounds: Rounds, f: n >> Rounds}
	p.gs = make([]group.Element, p.ell)
	p.hs = make([]group.Element, Blinders)
	dst := []byte(Domain + "/generator")
	gen := func(label string, i int) group.Element {
		msg := []byte(label)
		if i >= 0 {
			msg = binary.BigEndian.AppendUint32(msg, uint32(i))
		}
		return g.HashToElement(msg, dst)
	}
	commcrypto.Parallel(p.ell+Blinders+2, func(i int) {
		switch {
		case i < p.ell:
			p.gs[i] = gen("G", i)
		case i < p.ell+Blinders:
			p.hs[i-p.ell] = gen("H", i-p.ell)
		case i == p.ell+Blinders:
			p.gT = gen("GT", -1)
		default:
			p.hT = gen("HT", -1)
		}
	})
	p.gens = append(append([]group.Element{}, p.gs...), p.hs...)
	p.msmGens = append(append([]group.Element{}, p.gs...), p.hs[0], p.hs[1], p.hs[2], p.gT)
	p.tab = msm.NewTable(append(append([]group.Element{}, p.gens...), p.gT, p.hT, g.Generator()))
	return p
}

// N returns the deck length the params are for.
func (p *Params) N() int { return p.bigN }

// Size returns the encoded length in bytes of a proof for decks of N
// elements: 32·(8·Rounds + 15 + 3f) with f = VectorLength(N)/2^Rounds;
// 2 368 bytes for N = 136 (f = 9) and 2 176 for N = 108 (f = 7).
func Size(bigN int) int {
	return size * (8*Rounds + 15 + 3*(VectorLength(bigN)>>Rounds))
}
