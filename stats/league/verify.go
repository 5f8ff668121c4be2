package league

import (
	"fmt"

	cryptopb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"

	"github.com/mentalmj/mentalmj/protocol"
)

// batchSize is the most signatures verified in one batch. A batch that
// fails is verified one signature at a time (curve25519-voi's
// BatchVerifier.Verify does it), so a bad file costs its batch that.
const batchSize = 4096

// zip215 verifies Ed25519 signatures as ZIP-215 does (cofactored, the only
// equation a batch can check). Every signature crypto/ed25519 accepts
// (RFC 8032, cofactorless) it accepts too; the two differ only on keys or
// R values with a small-order component, which no honest signer makes
// (docs/league.md, "Signatures").
var zip215 = &voi.Options{Verify: voi.VerifyOptionsZIP_215}

// signature is one player's signature of a certificate to verify: the
// certificate's index in the caller's list and the player's seat.
type signature struct {
	cert, seat int
	protocol.ResultSignature
}

// verifier verifies many certificates' signatures: Ed25519 ones in batches
// of batchSize (random linear combination, one multi-scalar
// multiplication; Bernstein et al., "High-speed high-security
// signatures", §5), each player's key expanded once; any other key type
// one at a time through libp2p.
type verifier struct {
	keys    map[peer.ID]*voi.ExpandedPublicKey
	pending []signature
	// bad is the error of every certificate index refused so far.
	bad map[int]error
}

func newVerifier() *verifier {
	return &verifier{keys: map[peer.ID]*voi.ExpandedPublicKey{}, bad: map[int]error{}}
}

// add queues the signatures sigs of certificate cert (seat order).
func (v *verifier) add(cert int, sigs []protocol.ResultSignature) {
	for seat, s := range sigs {
		v.pending = append(v.pending, signature{cert: cert, seat: seat, ResultSignature: s})
		if len(v.pending) == batchSize {
			v.flush()
		}
	}
}

// done verifies what is queued and returns, by certificate index, the
// error of each certificate with a signature that does not verify (the
// first bad seat's; wrapping protocol.ErrSignature) or a signer whose peer
// ID embeds no usable key.
func (v *verifier) done() map[int]error {
	v.flush()
	return v.bad
}

// flush verifies the queued signatures as one batch.
func (v *verifier) flush() {
	defer func() { v.pending = v.pending[:0] }()
	bv := voi.NewBatchVerifierWithCapacity(len(v.pending))
	var inBatch []signature
	for _, s := range v.pending {
		if v.bad[s.cert] != nil {
			continue
		}
		key, err := v.key(s.Peer)
		switch {
		case err != nil:
			v.refuse(s, err)
		case key == nil:
			// Not an Ed25519 key: libp2p verifies it alone.
			if !v.verifyAlone(s) {
				v.refuse(s, fmt.Errorf("%s: result: %w", s.Peer, protocol.ErrSignature))
			}
		default:
			bv.AddExpandedWithOptions(key, s.Signed, s.Sign.GetSignature(), zip215)
			inBatch = append(inBatch, s)
		}
	}
	if len(inBatch) == 0 {
		return
	}
	if ok, valid := bv.Verify(nil); !ok {
		for i, s := range inBatch {
			if !valid[i] {
				v.refuse(s, fmt.Errorf("%s: result: %w", s.Peer, protocol.ErrSignature))
			}
		}
	}
}

// refuse records err as certificate s.cert's error, naming s's seat,
// unless an earlier seat's error is recorded already.
func (v *verifier) refuse(s signature, err error) {
	if v.bad[s.cert] == nil {
		v.bad[s.cert] = fmt.Errorf("seat %d: %w", s.seat, err)
	}
}

// key is p's Ed25519 public key, expanded (once per peer), or nil for a
// peer whose key is of another type. It returns an error when p's ID
// embeds no public key or an Ed25519 key that is not a valid point.
func (v *verifier) key(p peer.ID) (*voi.ExpandedPublicKey, error) {
	if k, ok := v.keys[p]; ok {
		return k, nil
	}
	pub, err := p.ExtractPublicKey()
	if err != nil {
		return nil, fmt.Errorf("%s: no public key in peer ID: %w", p, err)
	}
	var k *voi.ExpandedPublicKey
	if pub.Type() == cryptopb.KeyType_Ed25519 {
		raw, err := pub.Raw()
		if err == nil {
			k, err = voi.NewExpandedPublicKey(voi.PublicKey(raw))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: Ed25519 key: %w", p, err)
		}
	}
	v.keys[p] = k
	return k, nil
}

// verifyAlone verifies s with its signer's libp2p key, whatever its type.
func (v *verifier) verifyAlone(s signature) bool {
	pub, err := s.Peer.ExtractPublicKey()
	if err != nil {
		return false
	}
	ok, err := pub.Verify(s.Signed, s.Sign.GetSignature())
	return err == nil && ok
}
