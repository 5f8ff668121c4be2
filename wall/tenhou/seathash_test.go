package tenhou

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestSeatHashVectors checks SeatString and SeatHash against digests
// computed outside Go on hand-written messages (testdata/seathash_vectors.txt).
func TestSeatHashVectors(t *testing.T) {
	f, err := os.Open("testdata/seathash_vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "|")
		if len(fields) != 4 {
			t.Fatalf("bad vector line %q", line)
		}
		names := strings.Split(fields[0], ",")
		seat, err := SeatString(names)
		if err != nil {
			t.Fatal(err)
		}
		if seat != fields[1] {
			t.Errorf("SeatString(%q) = %q, want %q", names, seat, fields[1])
		}
		bs := strings.Split(fields[2], ",")
		first, _ := hex.DecodeString(bs[0])
		fill, _ := hex.DecodeString(bs[1])
		last, _ := hex.DecodeString(bs[2])
		raw := append(append(first, []byte(strings.Repeat(string(fill), SeedBytes-2))...), last...)
		seed := Seed{Variant: Base64, Bytes: raw}
		msg, err := SeatHashMessage(seat, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(msg) != 4996 {
			t.Errorf("message is %d bytes, want 4996 (leading zero bytes must be kept)", len(msg))
		}
		got, err := SeatHash(seat, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got != fields[3] {
			t.Errorf("SeatHash(%q, …) = %s, want %s", seat, got, fields[3])
		}
		n++
	}
	if n == 0 {
		t.Fatal("no vectors")
	}
}

// TestSeatHashMessageOrder checks on the real blog seed that the message
// is the seed bytes hexed in order, not the key words printed as numbers.
func TestSeatHashMessageOrder(t *testing.T) {
	seed := blogSeed(t)
	msg, err := SeatHashMessage("0123", seed)
	if err != nil {
		t.Fatal(err)
	}
	// key[0] = 0x19265394 (docs/wall-layout.md §8) is stored little-endian, so
	// the first four bytes hex as "94532619".
	if got := string(msg[:12]); got != "012394532619" {
		t.Fatalf("message starts %q, want %q", got, "012394532619")
	}
}

func TestSeatHashErrors(t *testing.T) {
	seed := blogSeed(t)
	for _, seat := range []string{"", "012", "0124", "0113", "01234"} {
		if _, err := SeatHash(seat, seed); err == nil {
			t.Errorf("seat string %q accepted", seat)
		}
	}
	if _, err := SeatHash("0123", Seed{Variant: Hex2009, Key: make([]uint32, 32)}); err == nil {
		t.Error("hex seed accepted")
	}
	if _, err := SeatString([]string{"a", "b"}); err == nil {
		t.Error("two names accepted")
	}
	if s, err := SeatString([]string{"x", "x", "a", "x"}); err != nil || s != "1203" {
		t.Errorf("SeatString with equal names = %q, %v; want 1203 (ties keep seat order)", s, err)
	}
}
