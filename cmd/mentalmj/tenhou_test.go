package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

const (
	blogSeedTxt = "../../wall/tenhou/testdata/blog_174202532_seed.txt"
	e1Log       = "2022060100gm-00a9-0000-a11749d5.xml"
)

func runT(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), append([]string{"tenhou"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// corpusLog returns the path of the real Tenhou log name (NAME.xml) in the
// corpus the tests read (tenhoucorpus.For; it may be NAME.xml.gz).
func corpusLog(t *testing.T, name string) string {
	t.Helper()
	return tenhoucorpus.For(t).Path(t, name)
}

// readShared returns the XML text of the real Tenhou log name.
func readShared(t *testing.T, name string) []byte {
	t.Helper()
	b, err := tenhoucorpus.ReadFile(corpusLog(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTenhouVerifyDir verifies a directory holding a good log, the same log
// gzipped under .mjlog, a tampered copy and a log without SHUFFLE, plus a
// missing path: every file gets its line, and the exit code is 1.
func TestTenhouVerifyDir(t *testing.T) {
	t.Parallel()
	good := readShared(t, e1Log)
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a_good.xml", good)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(good)
	zw.Close()
	write("b_good.mjlog", gz.Bytes())
	write("c_bad.xml", bytes.Replace(good, []byte("<T56/>"), []byte("<T57/>"), 1))
	write("d_noshuffle.xml", []byte(`<mjloggm ver="2.3"><GO type="169" lobby="0"/><TAIKYOKU oya="0"/></mjloggm>`))
	write("e_ignored.txt", []byte("not a log"))

	code, out, _ := runT(t, "verify", dir, filepath.Join(dir, "missing.xml"))
	if code != 1 {
		t.Errorf("exit code %d, want 1 (a mismatch)", code)
	}
	for _, want := range []string{
		"ok       " + filepath.Join(dir, "a_good.xml"),
		"ok       " + filepath.Join(dir, "b_good.mjlog"),
		"mismatch " + filepath.Join(dir, "c_bad.xml"),
		"E1-0 T live draw 0 (yama[83]): expected 56 (6p), log has 57 (6p)",
		"skipped  " + filepath.Join(dir, "d_noshuffle.xml"),
		"error    " + filepath.Join(dir, "missing.xml"),
		"games 3 verified, 36 rounds; 1 mismatches; 1 skipped; 1 errors",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "e_ignored") {
		t.Error("a .txt file was verified")
	}

	code, out, _ = runT(t, "verify", "--json", filepath.Join(dir, "c_bad.xml"))
	if code != 1 {
		t.Errorf("--json exit code %d, want 1", code)
	}
	var doc struct {
		Games      int            `json:"games"`
		Rounds     int            `json:"rounds"`
		Checks     map[string]int `json:"checks"`
		Mismatches []map[string]string
		Skipped    []any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if doc.Games != 1 || doc.Rounds != 12 || len(doc.Mismatches) != 1 || doc.Skipped == nil || doc.Checks["live_draw"] == 0 {
		t.Errorf("--json document %+v", doc)
	}
	m := doc.Mismatches[0]
	if m["file"] != filepath.Join(dir, "c_bad.xml") || m["round"] != "E1-0" || m["expected"] != "56 (6p)" || m["actual"] != "57 (6p)" || m["tag"] == "" {
		t.Errorf("--json mismatch %v", m)
	}
}

// TestTenhouVerifyCorpus verifies the corpus's directory: every game and
// round its MANIFEST.md lists, with no mismatch.
func TestTenhouVerifyCorpus(t *testing.T) {
	t.Parallel()
	corpus := tenhoucorpus.For(t)
	want := corpus.MustManifest(t).Totals()
	code, out, _ := runT(t, "verify", corpus.Dir)
	if summary := fmt.Sprintf("games %d verified, %d rounds; 0 mismatches; 0 skipped; 0 errors", want.Games, want.Rounds); code != 0 || !strings.Contains(out, summary) {
		t.Fatalf("exit %d, summary of %s (want %q):\n%s", code, corpus, summary, out[max(0, len(out)-400):])
	}
}

func TestTenhouVerifyExitCodes(t *testing.T) {
	t.Parallel()
	good := corpusLog(t, e1Log)
	if code, _, _ := runT(t, "verify", good); code != 0 {
		t.Errorf("good log: exit %d", code)
	}
	if code, _, _ := runT(t, "verify", good, "/nonexistent/x.xml"); code != 2 {
		t.Errorf("missing file: exit %d, want 2", code)
	}
	broken := filepath.Join(t.TempDir(), "broken.xml")
	os.WriteFile(broken, []byte("<mjloggm><INIT"), 0o644)
	code, out, _ := runT(t, "verify", broken, good)
	if code != 2 || !strings.Contains(out, "ok       "+good) || !strings.Contains(out, "error    "+broken) {
		t.Errorf("truncated file: exit %d, output:\n%s", code, out)
	}
	if code, _, errs := runT(t, "verify", "--bogus", good); code != 2 || !strings.Contains(errs, "bogus") {
		t.Errorf("bad flag: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runT(t, "verify"); code != 2 {
		t.Errorf("no path: exit %d", code)
	}
	if code, out, _ := runT(t, "verify", "-h"); code != 0 || !strings.Contains(out, "Usage: mentalmj tenhou verify") {
		t.Errorf("-h: exit %d", code)
	}
	if code, _, _ := runT(t, "nosuch"); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
}

// TestTenhouWallJSON checks the wall subcommand against the published blog
// vector (docs/wall-layout.md §8): kyoku 0 starts 22, 91, 36, 115, dice (5, 1);
// kyoku 1 starts 87, 71, 33, 26, dice (4, 0); 3p kyoku 0 starts 38, 100.
func TestTenhouWallJSON(t *testing.T) {
	t.Parallel()
	seedFile := "@" + blogSeedTxt
	code, out, errs := runT(t, "wall", "--kyoku", "2", "--json", seedFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Kyoku []struct {
			Yama []int  `json:"yama"`
			Dice [2]int `json:"dice"`
		} `json:"kyoku"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Kyoku) != 2 || len(doc.Kyoku[0].Yama) != 136 {
		t.Fatalf("document %+v", doc)
	}
	k0, k1 := doc.Kyoku[0], doc.Kyoku[1]
	if k0.Yama[0] != 22 || k0.Yama[1] != 91 || k0.Yama[2] != 36 || k0.Yama[135] != 127 || k0.Dice != [2]int{5, 1} {
		t.Errorf("kyoku 0 yama %v… dice %v", k0.Yama[:4], k0.Dice)
	}
	if k1.Yama[0] != 87 || k1.Yama[1] != 71 || k1.Dice != [2]int{4, 0} {
		t.Errorf("kyoku 1 yama %v… dice %v", k1.Yama[:4], k1.Dice)
	}
	// Flags after the seed, three players.
	code, out, _ = runT(t, "wall", seedFile, "--players", "3", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Kyoku) != 1 || len(doc.Kyoku[0].Yama) != 108 ||
		doc.Kyoku[0].Yama[0] != 38 || doc.Kyoku[0].Yama[1] != 100 {
		t.Errorf("3p: exit %d, %s", code, out)
	}
	code, out, _ = runT(t, "wall", seedFile)
	if code != 0 || !strings.Contains(out, "kyoku 0: dice 5,1") || !strings.Contains(out, "  22 6m") {
		t.Errorf("text output: exit %d\n%s", code, out)
	}
}

func TestTenhouWallErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"wall", "--players", "5", "AAAA"}, "--players 5"},
		{[]string{"wall", "--kyoku", "0", "AAAA"}, "--kyoku 0"},
		{[]string{"wall", "AAAA"}, "2496"},
		{[]string{"wall", "@/nonexistent/seed"}, "/nonexistent/seed"},
		{[]string{"wall"}, "SEED"},
		{[]string{"wall", "--nope", "x"}, "nope"},
	} {
		code, _, errs := runT(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestTenhouSeatHash checks the command wiring: the seat string from the
// log's names and a 128-digit hash; the construction itself is tested in
// wall/tenhou.
func TestTenhouSeatHash(t *testing.T) {
	t.Parallel()
	code, out, errs := runT(t, "seat-hash", corpusLog(t, e1Log))
	if code != 0 || !strings.Contains(errs, "unconfirmed") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "seat   ") || len(strings.TrimPrefix(lines[1], "sha512 ")) != 128 {
		t.Errorf("output %q", out)
	}
	if code, _, errs := runT(t, "seat-hash", "/nonexistent.xml"); code != 2 || !strings.Contains(errs, "/nonexistent.xml") {
		t.Errorf("missing log: exit %d, %q", code, errs)
	}
	if code, out, _ := runT(t, "seat-hash", "-h"); code != 0 || !strings.Contains(out, "CAVEAT") {
		t.Errorf("-h: exit %d", code)
	}
}

// TestTenhouVerifyCancelled checks that a cancelled context stops the run
// with exit code 2 and no verdict of success.
func TestTenhouVerifyCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	code := run(ctx, []string{"tenhou", "verify", "--jobs", "2", tenhoucorpus.For(t).Dir}, &o, &e)
	if code != 2 || !strings.Contains(e.String(), "interrupted") {
		t.Fatalf("exit %d, stderr %q", code, e.String())
	}
}
