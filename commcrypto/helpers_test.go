package commcrypto

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readVectors returns the non-comment, non-blank lines of testdata/name,
// split into whitespace-separated fields.
func readVectors(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Fields(line))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func mustKey(t testing.TB) Scalar {
	t.Helper()
	k, err := NewKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustDecodeScalar(t testing.TB, s string) Scalar {
	t.Helper()
	k, err := DecodeScalar(mustHex(t, s))
	if err != nil {
		t.Fatalf("DecodeScalar(%s): %v", s, err)
	}
	return k
}

func mustDecodeElement(t testing.TB, s string) Element {
	t.Helper()
	e, err := DecodeElement(mustHex(t, s))
	if err != nil {
		t.Fatalf("DecodeElement(%s): %v", s, err)
	}
	return e
}

// smallScalar returns the scalar n (n ≥ 1) through the public decoder.
func smallScalar(t testing.TB, n uint64) Scalar {
	t.Helper()
	var b [ScalarSize]byte
	for i := range 8 {
		b[i] = byte(n >> (8 * i))
	}
	s, err := DecodeScalar(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustPanic fails the test unless f panics.
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: did not panic", name)
		}
	}()
	f()
}
