package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// majsoulVector reads the published vector of wall/majsoul/testdata.
func majsoulVector(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../wall/majsoul/testdata/lipenghua_3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	kv := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			kv[k] = v
		}
	}
	return kv
}

func runM(args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := run(context.Background(), append([]string{"majsoul"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// TestMajsoulVerifyCLI runs the verify subcommand on the published vector,
// on tampered inputs and on bad usage, checking the exit codes 0/1/2.
func TestMajsoulVerifyCLI(t *testing.T) {
	t.Parallel()
	v := majsoulVector(t)
	ok := []string{"verify", "--wall", v["wall"], "--salt", v["salt"], "--hash", v["wall_salt_sha256"], "--salt-hash", v["salt_sha256"]}
	if code, out, errOut := runM(ok...); code != 0 || !strings.HasSuffix(out, "OK\n") {
		t.Errorf("published vector: exit %d\n%s%s", code, out, errOut)
	}
	swapped := v["wall"][2:4] + v["wall"][0:2] + v["wall"][4:]
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"tampered wall", []string{"verify", "--wall", swapped, "--salt", v["salt"], "--hash", v["wall_salt_sha256"]}, 1, "MISMATCH"},
		{"wrong salt hash", []string{"verify", "--wall", v["wall"], "--salt", v["salt"], "--hash", v["wall_salt_sha256"], "--salt-hash", v["wall_salt_sha256"]}, 1, "SHA-256(salt)"},
		{"bad hex", []string{"verify", "--wall", v["wall"], "--salt", v["salt"], "--hash", "zz"}, 2, "--hash"},
		{"bad wall", []string{"verify", "--wall", "1m5x", "--salt", "s", "--hash", v["salt_sha256"]}, 2, "offset 3"},
		{"missing flag", []string{"verify", "--wall", v["wall"]}, 2, "required"},
		{"unknown flag", []string{"verify", "--bogus"}, 2, "bogus"},
		{"extra arg", []string{"verify", "--wall", v["wall"], "--salt", "s", "--hash", v["salt_sha256"], "x"}, 2, "unexpected argument"},
		{"unknown subcommand", []string{"check"}, 2, "unknown subcommand"},
		// digest of "1m1ms" computed with sha256sum: matches, but 2 tiles.
		{"illegal set", []string{"verify", "--wall", "1m1m", "--salt", "s", "--hash", "c9253b002ce5fd55cf1f62307d184b717211a148f97eb00091cf79f0e620353a"}, 1, "not a legal tile set"},
	}
	for _, c := range cases {
		code, out, errOut := runM(c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s: exit %d, want %d with %q\nstdout: %s\nstderr: %s", c.name, code, c.code, c.want, out, errOut)
		}
	}
	for _, h := range [][]string{{"-h"}, {"verify", "-h"}} {
		if code, out, _ := runM(h...); code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d, stdout %q", h, code, out)
		}
	}
}
