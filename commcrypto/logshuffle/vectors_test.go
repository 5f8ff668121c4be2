package logshuffle

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

const vectorFile = "vectors.txt"

func readVectorFile(t *testing.T) []proofvector.Vector {
	vs, err := proofvector.Read(filepath.Join("testdata", vectorFile))
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// check runs one vector through Decode and Verify and returns the
// outcome.
func check(t *testing.T, v proofvector.Vector) string {
	in, err := commcrypto.DecodeElements(v.Input, v.N)
	if err != nil {
		t.Fatalf("%s: input: %v", v.Name, err)
	}
	out, err := commcrypto.DecodeElements(v.Output, v.N)
	if err != nil {
		t.Fatalf("%s: output: %v", v.Name, err)
	}
	K, err := commcrypto.DecodeElement(v.Key)
	if err != nil {
		t.Fatalf("%s: key: %v", v.Name, err)
	}
	pr, err := Decode(v.Proof, v.N)
	if err != nil {
		if !errors.Is(err, ErrEncoding) {
			t.Fatalf("%s: decode error %v does not wrap ErrEncoding", v.Name, err)
		}
		return "reject-encoding"
	}
	if err := Verify(NewParams(v.N), v.Ctx, in, out, K, pr); err != nil {
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: verify error %v does not wrap ErrInvalid", v.Name, err)
		}
		return "reject-invalid"
	}
	if !bytes.Equal(pr.Bytes(), v.Proof) {
		t.Errorf("%s: re-encoding differs from the vector", v.Name)
	}
	return "accept"
}

// TestVectors checks testdata/vectors.txt: honest first shuffle passes of
// the tile points (commcrypto.TileTable, itself checked against
// libsodium) for N = 136, 108 and 8 with their proofs, and deliberate
// tampers and false statements that must be rejected, each for the
// stated reason.
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

// orderLE is ℓ, the group order, little-endian: the smallest
// non-canonical scalar.
var orderLE = []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}

func writeVectors(t *testing.T) {
	rnd := proofvector.DetRand("mentalmj logshuffle vectors")
	tiles := commcrypto.NewTileTable()
	ctx := transcript.Context{Version: "mentalmj/1", GameID: bytes.Repeat([]byte{0x42}, 32), Hand: 1, Pass: 0, Prover: []byte("\x00\x24\x08\x01\x12\x20vector-prover-peer-id-0000000000")}
	mk := func(n int, mutate func(out []commcrypto.Element, k commcrypto.Scalar, perm []int)) proofvector.Vector {
		in := tiles.Points()[:n]
		k, err := commcrypto.NewKey(rnd)
		if err != nil {
			t.Fatal(err)
		}
		perm, err := commcrypto.Permutation(rnd, n)
		if err != nil {
			t.Fatal(err)
		}
		locked := commcrypto.LockAll(k, in)
		out := make([]commcrypto.Element, n)
		for i, j := range perm {
			out[i] = locked[j]
		}
		if mutate != nil {
			mutate(out, k, perm)
		}
		pr, err := Prove(NewParams(n), ctx, in, out, k, perm, rnd)
		if err != nil {
			t.Fatal(err)
		}
		return proofvector.Vector{Ctx: ctx, N: n, Input: commcrypto.EncodeElements(in), Output: commcrypto.EncodeElements(out), Key: commcrypto.Commit(k).Bytes(), Proof: pr.Bytes()}
	}
	var vs []proofvector.Vector
	for _, n := range []int{136, 108} {
		v := mk(n, nil)
		v.Name, v.Expect = fmt.Sprintf("honest-pass-%d", n), "accept"
		vs = append(vs, v)
	}
	base := mk(8, nil)
	base.Name, base.Expect = "honest-pass-8", "accept"
	vs = append(vs, base)
	with := func(name, expect string, f func(v *proofvector.Vector)) {
		c := base
		c.Name, c.Expect = name, expect
		c.Proof = bytes.Clone(base.Proof)
		c.Ctx.GameID = bytes.Clone(base.Ctx.GameID)
		f(&c)
		vs = append(vs, c)
	}
	with("flipped-final-scalar-byte", "reject-invalid", func(v *proofvector.Vector) { v.Proof[len(v.Proof)-32] ^= 1 })
	with("flipped-rp-byte", "reject-invalid", func(v *proofvector.Vector) { v.Proof[5*32+3] ^= 1 })
	with("swapped-round-elements", "reject-invalid", func(v *proofvector.Vector) {
		l := v.Proof[8*32 : 9*32]
		r := bytes.Clone(v.Proof[9*32 : 10*32])
		copy(v.Proof[9*32:10*32], l)
		copy(v.Proof[8*32:9*32], r)
	})
	with("replay-other-hand", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.Hand = 2 })
	with("replay-other-prover", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.Prover = []byte("another-peer") })
	with("replay-other-pass", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.Pass = 1 })
	with("replay-other-game", "reject-invalid", func(v *proofvector.Vector) { v.Ctx.GameID[0] ^= 1 })
	with("identity-in-proof", "reject-encoding", func(v *proofvector.Vector) { clear(v.Proof[:32]) })
	with("non-canonical-element", "reject-encoding", func(v *proofvector.Vector) { copy(v.Proof[32:64], bytes.Repeat([]byte{0xff}, 32)) })
	with("non-canonical-scalar", "reject-encoding", func(v *proofvector.Vector) { copy(v.Proof[len(v.Proof)-32:], orderLE) })
	with("oversized-proof", "reject-encoding", func(v *proofvector.Vector) { v.Proof = append(v.Proof, make([]byte, 32)...) })
	with("truncated-proof", "reject-encoding", func(v *proofvector.Vector) { v.Proof = v.Proof[:len(v.Proof)-1] })

	cheat := func(name string, f func(out []commcrypto.Element, k commcrypto.Scalar, perm []int)) {
		v := mk(8, f)
		v.Name, v.Expect = name, "reject-invalid"
		vs = append(vs, v)
	}
	cheat("duplicated-element", func(out []commcrypto.Element, _ commcrypto.Scalar, _ []int) { out[2] = out[3] })
	cheat("replaced-element", func(out []commcrypto.Element, k commcrypto.Scalar, _ []int) {
		out[5] = commcrypto.Lock(k, tiles.Points()[100])
	})
	cheat("two-keys", func(out []commcrypto.Element, _ commcrypto.Scalar, perm []int) {
		k2, _ := commcrypto.NewKey(rnd)
		for i := range 4 {
			out[i] = commcrypto.Lock(k2, tiles.Points()[perm[i]])
		}
	})
	cheat("one-element-off", func(out []commcrypto.Element, k commcrypto.Scalar, _ []int) {
		out[6] = commcrypto.Lock(k, out[6])
	})

	var buf bytes.Buffer
	buf.WriteString("# Shuffle-argument vectors of commcrypto/logshuffle (SPEC.md §12.1: the\n")
	buf.WriteString("# Curdleproofs-style argument for D'_i = k·D_{ψ(i)}, K = k·G). Input decks\n")
	buf.WriteString("# are the first N tile points of commcrypto (TileDST). Generated by\n")
	buf.WriteString("#   go test ./commcrypto/logshuffle -run TestVectors -update\n")
	buf.WriteString("# with a ChaCha20 stream as the random source; checked by TestVectors and,\n")
	buf.WriteString("# from SPEC.md alone, by TestVectorsSpecEquations.\n")
	buf.WriteString("# expect: accept | reject-encoding (Decode fails) | reject-invalid (Verify fails)\n\n")
	for _, v := range vs {
		v.Write(&buf)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", vectorFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
