package rekeyproof

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

// A vector is a rekey statement, its context and proof, with the expected
// outcome: accept, reject-encoding (Decode fails) or reject-invalid.
type vector struct {
	name, expect    string
	ctx             transcript.Context
	n               int
	key             []byte
	in, out, commit []byte
	proof           []byte
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
		t.Fatal(err)
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

// TestVectors checks testdata/vectors.txt: an honest rekey of a wall of
// 136 tile points locked under k, then deliberate tampers.
func TestVectors(t *testing.T) {
	if *update {
		writeVectors(t)
	}
	vs := readVectorFile(t)
	if len(vs) < 8 {
		t.Fatalf("%d vectors, want at least 8", len(vs))
	}
	for _, v := range vs {
		if got := v.check(t); got != v.expect {
			t.Errorf("%s: %s, want %s", v.name, got, v.expect)
		}
	}
}

type detRand struct{ c *chacha20.Cipher }

func (r *detRand) Read(p []byte) (int, error) {
	clear(p)
	r.c.XORKeyStream(p, p)
	return len(p), nil
}

func writeVectors(t *testing.T) {
	key := make([]byte, chacha20.KeySize)
	copy(key, "mentalmj rekeyproof vectors")
	c, err := chacha20.NewUnauthenticatedCipher(key, make([]byte, chacha20.NonceSize))
	if err != nil {
		t.Fatal(err)
	}
	rnd := &detRand{c}
	ctx := transcript.Context{Version: "mentalmj/1", GameID: bytes.Repeat([]byte{0x42}, 32), Hand: 1, Pass: 2, Prover: []byte("vector-prover-peer-id")}
	mk := func(n int, mutate func(out, com []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element)) vector {
		k, err := commcrypto.NewKey(rnd)
		if err != nil {
			t.Fatal(err)
		}
		in := commcrypto.LockAll(k, tiles.Points()[:n])
		r := make([]commcrypto.Scalar, n)
		com := make([]commcrypto.Element, n)
		for i := range r {
			if r[i], err = commcrypto.NewKey(rnd); err != nil {
				t.Fatal(err)
			}
			com[i] = commcrypto.Commit(r[i])
		}
		s := commcrypto.RekeyFactors(r, k)
		out := make([]commcrypto.Element, n)
		for i := range out {
			out[i] = commcrypto.Lock(s[i], in[i])
		}
		if mutate != nil {
			mutate(out, com, s, in)
		}
		K := commcrypto.Commit(k)
		pr, err := Prove(ctx, K, in, out, com, s, rnd)
		if err != nil {
			t.Fatal(err)
		}
		return vector{ctx: ctx, n: n, key: K.Bytes(), in: commcrypto.EncodeElements(in), out: commcrypto.EncodeElements(out), commit: commcrypto.EncodeElements(com), proof: pr.Bytes()}
	}
	var vs []vector
	v := mk(136, nil)
	v.name, v.expect = "honest-rekey-136", "accept"
	vs = append(vs, v)
	base := mk(8, nil)
	base.name, base.expect = "honest-rekey-8", "accept"
	vs = append(vs, base)
	with := func(name, expect string, f func(v *vector)) {
		c := base
		c.name, c.expect = name, expect
		c.proof = bytes.Clone(base.proof)
		f(&c)
		vs = append(vs, c)
	}
	with("flipped-response-byte", "reject-invalid", func(v *vector) { v.proof[len(v.proof)-40] ^= 1 })
	with("replay-other-hand", "reject-invalid", func(v *vector) { v.ctx.Hand = 2 })
	with("replay-other-prover", "reject-invalid", func(v *vector) { v.ctx.Prover = []byte("another-peer") })
	with("identity-in-proof", "reject-encoding", func(v *vector) { clear(v.proof[:32]) })
	with("oversized-proof", "reject-encoding", func(v *vector) { v.proof = append(v.proof, make([]byte, 32)...) })
	cheat := func(name string, f func(out, com []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element)) {
		v := mk(8, f)
		v.name, v.expect = name, "reject-invalid"
		vs = append(vs, v)
	}
	cheat("one-wrong-position", func(out, _ []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element) {
		x, _ := commcrypto.NewKey(rnd)
		out[3], s[3] = commcrypto.Lock(x, in[3]), x
	})
	cheat("one-wrong-commitment", func(_, com []commcrypto.Element, _ []commcrypto.Scalar, _ []commcrypto.Element) {
		x, _ := commcrypto.NewKey(rnd)
		com[5] = commcrypto.Commit(x)
	})
	cheat("positions-swapped", func(out, _ []commcrypto.Element, _ []commcrypto.Scalar, _ []commcrypto.Element) {
		out[0], out[1] = out[1], out[0]
	})

	var buf bytes.Buffer
	buf.WriteString("# Rekey-argument vectors of commcrypto/rekeyproof (batched Chaum–Pedersen:\n")
	buf.WriteString("# C'_i = s_i·C_i and R_i = s_i·K). Inputs are the first n tile points of\n")
	buf.WriteString("# commcrypto locked under k, K = k·G. Generated by\n")
	buf.WriteString("#   go test ./commcrypto/rekeyproof -run TestVectors -update\n")
	buf.WriteString("# with a ChaCha20 stream as the random source; checked by TestVectors.\n")
	buf.WriteString("# expect: accept | reject-encoding (Decode fails) | reject-invalid (Verify fails)\n\n")
	for _, v := range vs {
		v.write(&buf)
	}
	if err := os.WriteFile(filepath.Join("testdata", "vectors.txt"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
