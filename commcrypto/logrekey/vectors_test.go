package logrekey

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/chacha20"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
	"github.com/mentalmj/mentalmj/internal/proofvector"
)

var update = flag.Bool("update", false, "regenerate testdata/vectors.txt")

// A vector is one statement, context and proof with the expected outcome
// (accept, reject-encoding, reject-invalid).
type vector struct {
	name, expect         string
	ctx                  transcript.Context
	n                    int
	key, in, out, commit []byte
	proof                []byte
}

func (v vector) write(w io.Writer) {
	fmt.Fprintf(w, "vector %s\nexpect %s\nversion %s\ngame %x\nhand %d\npass %d\nprover %x\nn %d\nkey %x\ninput %x\noutput %x\ncommitments %x\nproof %x\n\n",
		v.name, v.expect, v.ctx.Version, v.ctx.GameID, v.ctx.Hand, v.ctx.Pass, v.ctx.Prover, v.n, v.key, v.in, v.out, v.commit, v.proof)
}

func readVectorFile(t *testing.T) []vector {
	vs, err := proofvector.Read(filepath.Join("testdata", "vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]vector, len(vs))
	for i, v := range vs {
		out[i] = vector{name: v.Name, expect: v.Expect, ctx: v.Ctx, n: v.N, key: v.Key, in: v.Input, out: v.Output, commit: v.Commitments, proof: v.Proof}
	}
	return out
}

func (v vector) check(t *testing.T) string {
	dec := func(b []byte, what string) []commcrypto.Element {
		es, err := commcrypto.DecodeElements(b, v.n)
		if err != nil {
			t.Fatalf("%s: %s: %v", v.name, what, err)
		}
		return es
	}
	in, out, com := dec(v.in, "input"), dec(v.out, "output"), dec(v.commit, "commitments")
	K, err := commcrypto.DecodeElement(v.key)
	if err != nil {
		t.Fatalf("%s: key: %v", v.name, err)
	}
	pr, err := Decode(v.proof, v.n)
	if err != nil {
		if !errors.Is(err, ErrEncoding) {
			t.Fatalf("%s: %v does not wrap ErrEncoding", v.name, err)
		}
		return "reject-encoding"
	}
	if err := Verify(v.ctx, K, in, out, com, pr); err != nil {
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: %v does not wrap ErrInvalid", v.name, err)
		}
		return "reject-invalid"
	}
	return "accept"
}

// TestVectors checks testdata/vectors.txt: honest rekey passes of the
// tile points locked under a key (N = 136, 108, 16) and tampers and false
// statements that must be rejected for the stated reason.
func TestVectors(t *testing.T) {
	if *update {
		writeVectors(t)
	}
	vs := readVectorFile(t)
	if len(vs) < 15 {
		t.Fatalf("%d vectors, want at least 15", len(vs))
	}
	for _, v := range vs {
		if got := v.check(t); got != v.expect {
			t.Errorf("%s: %s, want %s", v.name, got, v.expect)
		}
	}
}

// detRand is a deterministic stream (ChaCha20, RFC 8439, zero nonce).
// Test use only.
type detRand struct{ c *chacha20.Cipher }

func newDetRand(seed string) *detRand {
	key := make([]byte, chacha20.KeySize)
	copy(key, seed)
	c, err := chacha20.NewUnauthenticatedCipher(key, make([]byte, chacha20.NonceSize))
	if err != nil {
		panic(err)
	}
	return &detRand{c}
}

func (r *detRand) Read(p []byte) (int, error) {
	clear(p)
	r.c.XORKeyStream(p, p)
	return len(p), nil
}

func writeVectors(t *testing.T) {
	rnd := newDetRand("mentalmj logrekey vectors")
	ctx := transcript.Context{Version: "mentalmj/1", GameID: bytes.Repeat([]byte{0x42}, 32), Hand: 1, Pass: 1, Prover: []byte("\x00\x24\x08\x01\x12\x20vector-prover-peer-id-0000000001")}
	key := func() commcrypto.Scalar {
		k, err := commcrypto.NewKey(rnd)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	mk := func(n int, mutate func(out, com []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element)) vector {
		k := key()
		K := commcrypto.Commit(k)
		in := commcrypto.LockAll(k, tiles.Points()[:n])
		var rs []commcrypto.Scalar
		var com []commcrypto.Element
		for range n {
			r := key()
			rs = append(rs, r)
			com = append(com, commcrypto.Commit(r))
		}
		s := commcrypto.RekeyFactors(rs, k)
		out := make([]commcrypto.Element, n)
		for i := range n {
			out[i] = commcrypto.Lock(s[i], in[i])
		}
		if mutate != nil {
			mutate(out, com, s, in)
		}
		pr, err := Prove(ctx, K, in, out, com, s, rnd)
		if err != nil {
			t.Fatal(err)
		}
		return vector{ctx: ctx, n: n, key: K.Bytes(), in: commcrypto.EncodeElements(in), out: commcrypto.EncodeElements(out), commit: commcrypto.EncodeElements(com), proof: pr.Bytes()}
	}
	var vs []vector
	for _, n := range []int{136, 108} {
		v := mk(n, nil)
		v.name, v.expect = fmt.Sprintf("honest-rekey-%d", n), "accept"
		vs = append(vs, v)
	}
	base := mk(16, nil)
	base.name, base.expect = "honest-rekey-16", "accept"
	vs = append(vs, base)
	with := func(name, expect string, f func(v *vector)) {
		c := base
		c.name, c.expect = name, expect
		c.proof = bytes.Clone(base.proof)
		c.ctx.GameID = bytes.Clone(base.ctx.GameID)
		f(&c)
		vs = append(vs, c)
	}
	orderLE := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	with("flipped-scalar-byte", "reject-invalid", func(v *vector) { v.proof[len(v.proof)-32] ^= 1 })
	with("swapped-L-R", "reject-invalid", func(v *vector) {
		l := bytes.Clone(v.proof[32:64])
		copy(v.proof[32:64], v.proof[64:96])
		copy(v.proof[64:96], l)
	})
	with("replay-other-hand", "reject-invalid", func(v *vector) { v.ctx.Hand = 2 })
	with("replay-other-prover", "reject-invalid", func(v *vector) { v.ctx.Prover = []byte("another-peer") })
	with("replay-other-pass", "reject-invalid", func(v *vector) { v.ctx.Pass = 2 })
	with("replay-other-game", "reject-invalid", func(v *vector) { v.ctx.GameID[0] ^= 1 })
	with("identity-in-proof", "reject-encoding", func(v *vector) { clear(v.proof[:32]) })
	with("non-canonical-element", "reject-encoding", func(v *vector) { copy(v.proof[32:64], bytes.Repeat([]byte{0xff}, 32)) })
	with("non-canonical-scalar", "reject-encoding", func(v *vector) { copy(v.proof[len(v.proof)-32:], orderLE) })
	with("oversized-proof", "reject-encoding", func(v *vector) { v.proof = append(v.proof, make([]byte, 32)...) })
	with("truncated-proof", "reject-encoding", func(v *vector) { v.proof = v.proof[:len(v.proof)-1] })
	cheat := func(name string, f func(out, com []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element)) {
		v := mk(16, f)
		v.name, v.expect = name, "reject-invalid"
		vs = append(vs, v)
	}
	cheat("swapped-positions", func(out, _ []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element) {
		out[3], out[5] = commcrypto.Lock(s[3], in[5]), commcrypto.Lock(s[5], in[3])
	})
	cheat("wrong-commitment", func(_, com []commcrypto.Element, _ []commcrypto.Scalar, _ []commcrypto.Element) {
		com[2] = commcrypto.Commit(key())
	})
	cheat("other-tile", func(out, _ []commcrypto.Element, s []commcrypto.Scalar, _ []commcrypto.Element) {
		out[0] = commcrypto.Lock(s[0], tiles.Point(100))
	})

	var buf bytes.Buffer
	buf.WriteString("# Rekey-argument vectors of commcrypto/logrekey (SPEC.md §13.1: C'_i = s_i·C_i,\n")
	buf.WriteString("# R_i = s_i·K). Inputs are the first N tile points locked under K's key.\n")
	buf.WriteString("# Generated by  go test ./commcrypto/logrekey -run TestVectors -update\n")
	buf.WriteString("# with a ChaCha20 stream as the random source; checked by TestVectors and,\n")
	buf.WriteString("# from SPEC.md alone, by TestVectorsSpecEquation.\n")
	buf.WriteString("# expect: accept | reject-encoding (Decode fails) | reject-invalid (Verify fails)\n\n")
	for _, v := range vs {
		v.write(&buf)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "vectors.txt"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
