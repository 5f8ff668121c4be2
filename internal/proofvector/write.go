package proofvector

import (
	"fmt"
	"io"

	"golang.org/x/crypto/chacha20"
)

// Write writes v as one record of a vector file, in the form Read reads,
// followed by a blank line. The fields come in the statement's order: a
// shuffle's (no Commitments) n, input, output, key; a rekey's n, key,
// input, output, commitments; proof last. It returns w's error.
func (v Vector) Write(w io.Writer) error {
	head := fmt.Sprintf("vector %s\nexpect %s\nversion %s\ngame %x\nhand %d\npass %d\nprover %x\nn %d\n",
		v.Name, v.Expect, v.Ctx.Version, v.Ctx.GameID, v.Ctx.Hand, v.Ctx.Pass, v.Ctx.Prover, v.N)
	var body string
	if v.Commitments == nil {
		body = fmt.Sprintf("input %x\noutput %x\nkey %x\n", v.Input, v.Output, v.Key)
	} else {
		body = fmt.Sprintf("key %x\ninput %x\noutput %x\ncommitments %x\n", v.Key, v.Input, v.Output, v.Commitments)
	}
	_, err := fmt.Fprintf(w, "%s%sproof %x\n\n", head, body, v.Proof)
	return err
}

// DetRand returns a deterministic stream for regenerating vector files
// reproducibly: the ChaCha20 keystream (RFC 8439 §2.4) under the key
// seed, zero-padded or cut to 32 bytes, with a zero nonce. It never
// fails. For test vectors only: it is no source of secret keys.
func DetRand(seed string) io.Reader {
	key := make([]byte, chacha20.KeySize)
	copy(key, seed)
	c, err := chacha20.NewUnauthenticatedCipher(key, make([]byte, chacha20.NonceSize))
	if err != nil {
		panic(err) // unreachable: the key and nonce have the sizes chacha20 wants
	}
	return &detRand{c}
}

// detRand is DetRand's stream.
type detRand struct{ c *chacha20.Cipher }

// Read fills p with the next len(p) bytes of the keystream.
func (r *detRand) Read(p []byte) (int, error) {
	clear(p)
	r.c.XORKeyStream(p, p)
	return len(p), nil
}
