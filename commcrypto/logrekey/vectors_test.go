package logrekey

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
	"github.com/mentalmj/mentalmj/internal/proofvector"
)

var update = flag.Bool("update", false, "regenerate testdata/vectors.txt")

func readVectorFile(t *testing.T) []proofvector.Vector {
	vs, err := proofvector.Read(filepath.Join("testdata", "vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func check(t *testing.T, v proofvector.Vector) string {
	dec := func(b []byte, what string) []commcrypto.Element {
		es, err := commcrypto.DecodeElements(b, v.N)
		if err != nil {
			t.Fatalf("%s: %s: %v", v.Name, what, err)
		}
		return es
	}
	in, out, com := dec(v.Input, "input"), dec(v.Output, "output"), dec(v.Commitments, "commitments")
	K, err := commcrypto.DecodeElement(v.Key)
	if err != nil {
		t.Fatalf("%s: key: %v", v.Name, err)
	}
	pr, err := Decode(v.Proof, v.N)
	if err != nil {
		if !errors.Is(err, ErrEncoding) {
			t.Fatalf("%s: %v does not wrap ErrEncoding", v.Name, err)
		}
		return "reject-encoding"
	}
	if err := Verify(v.Ctx, K, in, out, com, pr); err != nil {
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: %v does not wrap ErrInvalid", v.Name, err)
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
		if got := check(t, v); got != v.Expect {
			t.Errorf("%s: %s, want %s", v.Name, got, v.Expect)
		}
	}
}

func writeVectors(t *testing.T) {
	rnd := proofvector.DetRand("mentalmj logrekey vectors")
	ctx := transcript.Context{Version: "mentalmj/1", GameID: bytes.Repeat([]byte{0x42}, 32), Hand: 1, Pass: 1, Prover: []byte("\x00\x24\x08\x01\x12\x20vector-prover-peer-id-0000000001")}
	key := func() commcrypto.Scalar {
		k, err := commcrypto.NewKey(rnd)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	mk := func(n int, mutate func(out, com []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element)) proofvector.Vector {
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
		return proofvector.Vector{Ctx: ctx, N: n, Key: K.Bytes(), Input: commcrypto.EncodeElements(in), Output: commcrypto.EncodeElements(out), Commitments: commcrypto.EncodeElements(com), Proof: pr.Bytes()}
	}
	var vs []proofvector.Vector
	for _, n := range []int{136, 108} {
		v := mk(n, nil)
		v.Name, v.Expect = fmt.Sprintf("honest-rekey-%d", n), "accept"
		vs = append(vs, v)
	}
	base := mk(16, nil)
	base.Name, base.Expect = "honest-rekey-16", "accept"
	vs = append(vs, base)
	with := func(name, expect string, f func(v *proofvector.Vector)) {
		c := base
		c.Name, c.Expect = name, expect
		c.Proof = bytes.Clone(base.Proof)
		c.Ctx.GameID = bytes.Clone(base.Ctx.GameID)
		f(&c)
		vs = append(vs, c)
	}
	orderLE := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	with("flipped-scalar-byte", "reject-invalid", func(v *proofvector.Vector) { v.Proof[len(v.Proof)-32] ^= 1 })
	with("swapped-L-R", "reject-invalid", func(v *proofvector.Vector) {
		l := bytes.Clone(v.Proof[32:64])
		copy(v.Proof[32:64], v.Proof[64:96])
		copy(v.Proof[64:96], l)
	})
	with("replay-other-hand", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.Hand = 2 })
	with("replay-other-prover", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.Prover = []byte("another-peer") })
	with("replay-other-pass", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.Pass = 2 })
	with("replay-other-game", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.GameID[0] ^= 1 })
	with("identity-in-proof", "reject-encoding", func(v *proofvector.Vector) { clear(v.Proof[:32]) })
	with("non-canonical-element", "reject-encoding", func(v *proofvector.Vector) { copy(v.Proof[32:64], bytes.Repeat([]byte{0xff}, 32)) })
	with("non-canonical-scalar", "reject-encoding", func(v *proofvector.Vector) { copy(v.Proof[len(v.Proof)-32:], orderLE) })
	with("oversized-proof", "reject-encoding", func(v *proofvector.Vector) { v.Proof = append(v.Proof, make([]byte, 32)...) })
	with("truncated-proof", "reject-encoding", func(v *proofvector.Vector) { v.Proof = v.Proof[:len(v.Proof)-1] })
	cheat := func(name string, f func(out, com []commcrypto.Element, s []commcrypto.Scalar, in []commcrypto.Element)) {
		v := mk(16, f)
		v.Name, v.Expect = name, "reject-invalid"
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
		v.Write(&buf)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "vectors.txt"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
