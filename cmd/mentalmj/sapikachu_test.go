package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sapikachuVector is the first Python-computed vector of
// wall/sapikachu/testdata/vectors.json (testdata/reference.py there).
type sapikachuVector struct {
	T1            uint64   `json:"t1_ms"`
	T2            uint64   `json:"t2_ms"`
	R             string   `json:"r"`
	GS            string   `json:"gs"`
	PlayerSecrets []string `json:"player_secrets"`
	Seed          string   `json:"seed"`
	Yama          []int    `json:"yama"`
}

func runS(stdin string, args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := runIO(context.Background(), append([]string{"sapikachu"}, args...), strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// TestSapikachuDealVector deals with the inputs of the Python reference
// vector given as flags; the printed record must carry the reference seed
// and yama, and verify must accept it (exit 0) and reject it tampered
// (exit 1).
func TestSapikachuDealVector(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../wall/sapikachu/testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []sapikachuVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	v := vs[0]
	args := []string{"deal", "--t1-ms", strconv.FormatUint(v.T1, 10), "--t2-ms", strconv.FormatUint(v.T2, 10), "--r", v.R, "--gs", v.GS}
	for _, ps := range v.PlayerSecrets {
		args = append(args, "--player-secret", ps)
	}
	code, out, errOut := runS("", args...)
	if code != 0 {
		t.Fatalf("deal: exit %d: %s", code, errOut)
	}
	var got sapikachuVector
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Seed != v.Seed || !slices.Equal(got.Yama, v.Yama) {
		t.Errorf("deal printed seed %s yama %v; reference %s %v", got.Seed, got.Yama, v.Seed, v.Yama)
	}

	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(out), 0o644)
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, []byte(strings.Replace(out, `"t2_ms": `+strconv.FormatUint(v.T2, 10), `"t2_ms": `+strconv.FormatUint(v.T2+1, 10), 1)), 0o644)
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte(out[:len(out)/2]), 0o644)

	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"good", "", []string{"verify", good}, 0, "OK"},
		{"stdin", out, []string{"verify", "-"}, 0, "OK"},
		{"tampered", "", []string{"verify", tampered}, 1, "FAIL"},
		{"truncated json", "", []string{"verify", broken}, 2, "broken.json"},
		{"missing file", "", []string{"verify", filepath.Join(dir, "nope.json")}, 2, "nope.json"},
		{"no argument", "", []string{"verify"}, 2, "RECORD"},
		{"short gs", "", []string{"deal", "--gs", "00"}, 2, "-gs"},
		{"bad hex", "", []string{"deal", "--r", "xyz"}, 2, "-r"},
		{"players range", "", []string{"deal", "--players-secrets", "5"}, 2, "1..4"},
		{"players mismatch", "", []string{"deal", "--players-secrets", "2", "--player-secret", v.PlayerSecrets[0]}, 2, "--player-secret"},
		{"unknown subcommand", "", []string{"shuffle"}, 2, "unknown subcommand"},
		{"help", "", []string{"deal", "-h"}, 0, "Usage:"},
		{"verify help", "", []string{"verify", "-h"}, 0, "Usage:"},
	}
	for _, c := range cases {
		code, out, errOut := runS(c.stdin, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s: exit %d, want %d with %q\nstdout: %s\nstderr: %s", c.name, code, c.code, c.want, out, errOut)
		}
	}
}

// TestSapikachuDealRandom deals with fresh random inputs and verifies the
// printed record through the verify subcommand.
func TestSapikachuDealRandom(t *testing.T) {
	t.Parallel()
	code, out, errOut := runS("", "deal", "--players-secrets", "3")
	if code != 0 {
		t.Fatalf("deal: exit %d: %s", code, errOut)
	}
	var rec sapikachuVector
	if err := json.Unmarshal([]byte(out), &rec); err != nil || len(rec.PlayerSecrets) != 3 || len(rec.Yama) != 136 {
		t.Fatalf("record %v: %s", err, out)
	}
	if code, o, e := runS(out, "verify", "-"); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, o, e)
	}
}
