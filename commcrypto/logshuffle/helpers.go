package logshuffle

import (
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/internal/fold"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// The scalar arithmetic, multi-scalar sums and halving steps of
// commcrypto/internal/fold, under short names.
var (
	sAdd, sSub, sMul             = fold.Add, fold.Sub, fold.Mul
	sNeg, sInv, sUint            = fold.Neg, fold.Inv, fold.Uint
	inner, encode, encodeScalars = fold.Inner, fold.Encode, fold.EncodeScalars
	foldScalars, cross, reweight = fold.Halve, fold.Cross, fold.Reweight
	foldWeights                  = fold.Weights
)

type sum = fold.Sum

// points returns copies of the elements as circl group elements, or
// ErrStatement for an unset one.
func points(es []commcrypto.Element) ([]group.Element, error) {
	out, i, ok := fold.Points(es)
	if !ok {
		return nil, fmt.Errorf("%w: element %d unset", ErrStatement, i)
	}
	return out, nil
}

// nonces returns count uniform scalars mod ℓ from rand (DST Domain +
// "/nonce"; fold.Nonces).
func nonces(rand io.Reader, count int) ([]group.Scalar, error) {
	out, err := fold.Nonces(rand, count, Domain+"/nonce")
	if err != nil {
		return nil, fmt.Errorf("logshuffle: %w", err)
	}
	return out, nil
}

// start opens the transcript of a proof: the context, N, the input and
// output decks and K (SPEC.md §12.1).
func start(ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element) *transcript.Transcript {
	t := transcript.New(Domain, ctx)
	t.AppendUint("n", uint64(len(in)))
	t.Append("input", commcrypto.EncodeElements(in))
	t.Append("output", commcrypto.EncodeElements(out))
	t.Append("key", K.Bytes())
	return t
}

// invertible returns x⁻¹, or ErrInvalid for a zero challenge (probability
// 2^−252 per challenge).
func invertible(x group.Scalar, what string) (group.Scalar, error) {
	if x.IsZero() {
		return nil, fmt.Errorf("%w: challenge %s is zero", ErrInvalid, what)
	}
	return sInv(x), nil
}
