package rekeyproof

import (
	"errors"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Domain is the transcript domain and the prefix of every
// domain-separation tag of this argument.
const Domain = "mentalmj/v1/rekeyproof"

// MaxN bounds the number of positions a proof may claim.
const MaxN = 1024

const size = 32

var g = group.Ristretto255

// Errors returned (wrapped) by Decode, Prove and Verify.
var (
	// ErrEncoding: wrong length, a non-canonical element or scalar, or
	// the identity.
	ErrEncoding = errors.New("rekeyproof: malformed proof")
	// ErrStatement: slices of different lengths or unset values.
	ErrStatement = errors.New("rekeyproof: malformed statement")
	// ErrInvalid: the proof does not verify for this statement and
	// context.
	ErrInvalid = errors.New("rekeyproof: proof does not verify")
)

// Proof is a batched Chaum–Pedersen argument for n positions (see the
// package doc).
type Proof struct {
	a   []group.Element // n
	b   group.Element
	z   []group.Scalar // n
	enc []byte
}

// Size returns the encoded length in bytes of a proof for n positions:
// 32·(2n + 1).
func Size(n int) int { return size * (2*n + 1) }

// Prove returns the argument for the rekey pass out[i] = s[i]·in[i],
// commits[i] = s[i]·K, where s[i] = RekeyFactor(r_i, k) and
// K = Commit(k). The caller passes the factors s (the secrets), K, the
// input and output walls and the commitments, all of length n ≥ 1. rand
// supplies the nonces (crypto/rand.Reader in production; 64 bytes each,
// n of them).
//
// Prove does not check the statement: wrong values yield a proof that
// Verify rejects. Errors: ErrStatement for mismatched lengths or unset
// values; a wrapped read error from rand.
func Prove(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element, s []commcrypto.Scalar, rand io.Reader) (*Proof, error) {
	n := len(in)
	if n < 1 || n > MaxN || len(out) != n || len(commits) != n || len(s) != n || K.IsZero() {
		return nil, fmt.Errorf("%w: %d inputs, %d outputs, %d commitments, %d factors", ErrStatement, n, len(out), len(commits), len(s))
	}
	C, err := points(in)
	if err != nil {
		return nil, err
	}
	if _, err := points(out); err != nil {
		return nil, err
	}
	if _, err := points(commits); err != nil {
		return nil, err
	}
	for i := range s {
		if s[i].IsZero() {
			return nil, fmt.Errorf("%w: factor %d unset", ErrStatement, i)
		}
	}
	t := start(ctx, K, in, out, commits)
	// Every nonce in one read, reduced in parallel; A_i = w_i·C_i computed
	// and encoded in place in parallel.
	if rand == nil {
		return nil, errors.New("rekeyproof: nil random source")
	}
	buf := make([]byte, 64*n)
	defer clear(buf)
	if _, err := io.ReadFull(rand, buf); err != nil {
		return nil, fmt.Errorf("rekeyproof: random source: %w", err)
	}
	dst := []byte(Domain + "/nonce")
	w := make([]group.Scalar, n)
	pr := &Proof{a: make([]group.Element, n), z: make([]group.Scalar, n), enc: make([]byte, n*size, Size(n))}
	commcrypto.Parallel(n, func(i int) {
		w[i] = g.HashToScalar(buf[64*i:64*(i+1)], dst)
		pr.a[i] = g.NewElement().Mul(C[i], w[i])
		enc, err := pr.a[i].MarshalBinary()
		if err != nil || len(enc) != size {
			panic(fmt.Sprintf("rekeyproof: ristretto255 encoding failed: %v", err)) // cannot happen with circl
		}
		copy(pr.enc[i*size:], enc)
	})
	t.Append("a", pr.enc)
	beta := t.Challenges("beta", n)
	bw := g.NewScalar()
	tmp := g.NewScalar()
	for i := range n {
		bw.Add(bw, tmp.Mul(beta[i], w[i]))
	}
	pr.b = g.NewElement().Mul(K.Point(), bw)
	pr.enc = appendElem(pr.enc, pr.b)
	t.Append("b", pr.enc[n*size:])
	e := t.Challenge("e")
	for i := range n {
		z := g.NewScalar().Mul(e, s[i].GroupScalar())
		pr.z[i] = z.Add(z, w[i])
		pr.enc = appendScalar(pr.enc, pr.z[i])
	}
	return pr, nil
}

// Verify checks the proof that out[i] = s_i·in[i] and commits[i] = s_i·K
// for some s_i, for every i, in the context ctx. All slices must have the
// proof's length n. It returns nil if the proof verifies, otherwise an
// error wrapping ErrStatement or ErrInvalid. Cost: one multi-scalar
// multiplication of 4n + 2 points plus hashing.
func Verify(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element, pr *Proof) error {
	n := len(in)
	if pr == nil || len(pr.a) != n || len(pr.z) != n || pr.b == nil || len(pr.enc) != Size(n) || len(out) != n || len(commits) != n || K.IsZero() || n < 1 {
		return fmt.Errorf("%w: %d inputs, %d outputs, %d commitments for the proof", ErrStatement, n, len(out), len(commits))
	}
	C, err := points(in)
	if err != nil {
		return err
	}
	Cp, err := points(out)
	if err != nil {
		return err
	}
	R, err := points(commits)
	if err != nil {
		return err
	}
	t := start(ctx, K, in, out, commits)
	t.Append("a", pr.enc[:n*size])
	beta := t.Challenges("beta", n)
	t.Append("b", pr.enc[n*size:(n+1)*size])
	e := t.Challenge("e")
	t.Append("z", pr.enc[(n+1)*size:])
	rho := t.Challenges("batch", n+1)
	gamma := rho[n]

	ss := make([]group.Scalar, 0, 4*n+2)
	ps := make([]group.Element, 0, 4*n+2)
	add := func(s group.Scalar, p group.Element) {
		ss = append(ss, s)
		ps = append(ps, p)
	}
	ge := g.NewScalar().Mul(gamma, e)
	bz := g.NewScalar()
	tmp := g.NewScalar()
	for i := range n {
		// ρ_i·(z_i·C_i − e·C'_i − A_i)
		add(g.NewScalar().Mul(rho[i], pr.z[i]), C[i])
		add(g.NewScalar().Neg(tmp.Mul(rho[i], e)), Cp[i])
		add(g.NewScalar().Neg(rho[i]), pr.a[i])
		// γ·(−e·β_i·R_i)
		add(g.NewScalar().Neg(tmp.Mul(ge, beta[i])), R[i])
		bz.Add(bz, tmp.Mul(beta[i], pr.z[i]))
	}
	// γ·((Σ β_i z_i)·K − B)
	add(g.NewScalar().Mul(gamma, bz), K.Point())
	add(g.NewScalar().Neg(gamma), pr.b)
	sum, err := msm.MultiScalarMult(ss, ps)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrStatement, err)
	}
	if !sum.IsIdentity() {
		return ErrInvalid
	}
	return nil
}

// Bytes returns a copy of the proof's encoding (see the package doc),
// Size(n) bytes.
func (pr *Proof) Bytes() []byte { return append([]byte(nil), pr.enc...) }

// Decode parses a proof for n positions (1 ≤ n ≤ MaxN) strictly: exactly
// Size(n) bytes, canonical non-identity elements, canonical scalars.
// Errors wrap ErrEncoding and name the value and its byte offset. Decode
// never panics.
func Decode(b []byte, n int) (*Proof, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("%w: %d positions out of range 1..%d", ErrEncoding, n, MaxN)
	}
	if len(b) != Size(n) {
		return nil, fmt.Errorf("%w: %d bytes, want %d for %d positions", ErrEncoding, len(b), Size(n), n)
	}
	pr := &Proof{a: make([]group.Element, n), z: make([]group.Scalar, n), enc: append([]byte(nil), b...)}
	elem := func(off int, what string) (group.Element, error) {
		e := g.NewElement()
		if err := e.UnmarshalBinary(b[off : off+size]); err != nil {
			return nil, fmt.Errorf("%w: %s at byte %d is not a canonical ristretto255 encoding", ErrEncoding, what, off)
		}
		if e.IsIdentity() {
			return nil, fmt.Errorf("%w: %s at byte %d is the identity", ErrEncoding, what, off)
		}
		return e, nil
	}
	// Each decode costs a field inverse square root: spread them over the
	// cores, then report the first failure in order.
	errs := make([]error, n)
	commcrypto.Parallel(n, func(i int) { pr.a[i], errs[i] = elem(i*size, fmt.Sprintf("commitment A_%d", i)) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var err error
	if pr.b, err = elem(n*size, "aggregate B"); err != nil {
		return nil, err
	}
	for i := range n {
		off := (n + 1 + i) * size
		pr.z[i] = g.NewScalar()
		if pr.z[i].UnmarshalBinary(b[off:off+size]) != nil {
			return nil, fmt.Errorf("%w: response z_%d at byte %d is not a canonical scalar (≥ ℓ)", ErrEncoding, i, off)
		}
	}
	return pr, nil
}

func start(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element) *transcript.Transcript {
	t := transcript.New(Domain, ctx)
	t.AppendUint("n", uint64(len(in)))
	t.Append("key", K.Bytes())
	t.Append("input", commcrypto.EncodeElements(in))
	t.Append("output", commcrypto.EncodeElements(out))
	t.Append("commitments", commcrypto.EncodeElements(commits))
	return t
}

func points(es []commcrypto.Element) ([]group.Element, error) {
	out := make([]group.Element, len(es))
	for i, e := range es {
		if e.IsZero() {
			return nil, fmt.Errorf("%w: element %d unset", ErrStatement, i)
		}
		out[i] = e.Point()
	}
	return out, nil
}

func appendElem(b []byte, e group.Element) []byte {
	enc, err := e.MarshalBinary()
	if err != nil || len(enc) != size {
		panic(fmt.Sprintf("rekeyproof: ristretto255 encoding failed: %v", err)) // cannot happen with circl
	}
	return append(b, enc...)
}

func appendScalar(b []byte, s group.Scalar) []byte {
	enc, err := s.MarshalBinary()
	if err != nil || len(enc) != size {
		panic(fmt.Sprintf("rekeyproof: scalar encoding failed: %v", err)) // cannot happen with circl
	}
	return append(b, enc...)
}
