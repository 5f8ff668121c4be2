package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// e1Log3p is a real three-player log of the corpus (三鳳南喰赤, 11 kyoku).
const e1Log3p = "2014091101gm-00b9-0000-5ca6b487.xml"

// TestTenhouEmptyDirectory: verify and replay of a directory with no log
// are an error (exit 2) naming it, not "0 verified".
func TestTenhouEmptyDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"verify", "replay"} {
		code, out, errs := runT(t, sub, dir)
		if code != 2 || !strings.Contains(out+errs, dir) || !strings.Contains(out+errs, "no mjlog files") {
			t.Errorf("%s of an empty directory: exit %d, out %q, err %q; want 2 naming the directory", sub, code, out, errs)
		}
	}
}

// TestTenhouQuiet: --quiet leaves out the ok lines but keeps mismatches
// and the totals.
func TestTenhouQuiet(t *testing.T) {
	t.Parallel()
	good := readShared(t, e1Log)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.xml"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(good), "<T56/>", "<T57/>", 1)
	if err := os.WriteFile(filepath.Join(dir, "b.xml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runT(t, "verify", "--quiet", dir)
	if code != 1 || strings.Contains(out, "ok       ") || !strings.Contains(out, "mismatch "+filepath.Join(dir, "b.xml")) || !strings.Contains(out, "games 2 verified") {
		t.Errorf("verify --quiet: exit %d\n%s", code, out)
	}
	code, out, _ = runT(t, "replay", "--quiet", filepath.Join(dir, "a.xml"))
	if code != 0 || strings.Count(strings.TrimSpace(out), "\n") > 20 || !strings.Contains(out, "games 1 (0 three-player), rounds 12") {
		t.Errorf("replay --quiet: exit %d\n%s", code, out)
	}
}

// TestTenhouWallFromLog: given a log file, wall reads its seed and player
// count and prints one wall per kyoku; each wall's yama[5] (4p) or yama[9]
// (3p) is the INIT's dora indicator the log records.
func TestTenhouWallFromLog(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		size  int
		doraI int
	}{{e1Log, 136, 5}, {e1Log3p, 108, 9}} {
		path := corpusLog(t, tc.name)
		g, err := mjlog.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		code, out, errs := runT(t, "wall", "--json", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errs)
		}
		var doc struct {
			Kyoku []struct {
				Yama []int `json:"yama"`
			} `json:"kyoku"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Kyoku) != len(g.Rounds) {
			t.Fatalf("%s: %d walls, the log has %d kyoku", tc.name, len(doc.Kyoku), len(g.Rounds))
		}
		for i, k := range doc.Kyoku {
			if len(k.Yama) != tc.size || k.Yama[tc.doraI] != int(g.Rounds[i].Init.DoraIndicator) {
				t.Errorf("%s kyoku %d: %d tiles, yama[%d] = %d, INIT dora indicator %d", tc.name, i, len(k.Yama), tc.doraI, k.Yama[tc.doraI], g.Rounds[i].Init.DoraIndicator)
			}
		}
		if code, _, errs := runT(t, "wall", "--players", "4", path); tc.size == 108 && (code != 2 || !strings.Contains(errs, "3-player")) {
			t.Errorf("--players 4 on a 3p log: exit %d, %q", code, errs)
		}
	}
}
