// Package proofvector reads and writes the test-vector files of the
// shuffle and rekey arguments (testdata/vectors.txt of
// commcrypto/shuffleproof, rekeyproof, logshuffle and logrekey; SPEC.md
// §20), for the tests of those packages and the must-reject vectors of
// package protocol, and gives their generators a reproducible random
// stream (DetRand).
//
// A file is a sequence of records separated by blank lines; "#" starts a
// comment line. A record opens with "vector NAME" and holds one field per
// line, "KEY VALUE": expect (accept, reject-encoding or reject-invalid),
// version, game (hex), hand, pass, prover (hex), n, key, input, output,
// commitments and proof (hex). Fields a statement does not have are left
// out.
package proofvector

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Vector is one record: a statement, its Fiat–Shamir context and proof,
// and the outcome expected.
type Vector struct {
	// Name and Expect are the record's "vector" and "expect" fields.
	Name, Expect string
	// Ctx is the context the proof binds (version, game, hand, pass,
	// prover).
	Ctx transcript.Context
	// N is the number of elements of the pass.
	N int
	// Key is the 32-byte key commitment K; Input, Output and Commitments
	// are N·32 bytes of encoded elements (Commitments only for a rekey);
	// Proof is the proof's encoding. All as the file gives them,
	// undecoded.
	Key, Input, Output, Commitments, Proof []byte
}

// Read returns the records of the vector file at path, in order. Errors
// name the path and the line: a file that cannot be read, a field before
// the first record, an unknown field, bad hex or a bad number.
func Read(path string) ([]Vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var vs []Vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		k, val, _ := strings.Cut(text, " ")
		if k == "vector" {
			vs = append(vs, Vector{Name: val})
			continue
		}
		if len(vs) == 0 {
			return nil, fmt.Errorf("%s:%d: field %q before the first vector", path, line, k)
		}
		if err := set(&vs[len(vs)-1], k, val); err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", path, line, k, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return vs, nil
}

// set stores the field k of v from its text val.
func set(v *Vector, k, val string) (err error) {
	num := func() int {
		x, e := strconv.Atoi(val)
		err = e
		return x
	}
	bytes := func() []byte {
		b, e := hex.DecodeString(val)
		err = e
		return b
	}
	switch k {
	case "expect":
		v.Expect = val
	case "version":
		v.Ctx.Version = val
	case "game":
		v.Ctx.GameID = bytes()
	case "hand":
		v.Ctx.Hand = uint32(num())
	case "pass":
		v.Ctx.Pass = uint32(num())
	case "prover":
		v.Ctx.Prover = bytes()
	case "n":
		v.N = num()
	case "key":
		v.Key = bytes()
	case "input":
		v.Input = bytes()
	case "output":
		v.Output = bytes()
	case "commitments":
		v.Commitments = bytes()
	case "proof":
		v.Proof = bytes()
	default:
		return fmt.Errorf("unknown field")
	}
	return err
}
