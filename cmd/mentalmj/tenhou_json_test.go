package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTenhouJSON converts a shared log to stdout and to a file, and checks
// the exit status and message of unreadable and unconvertible logs.
func TestTenhouJSON(t *testing.T) {
	t.Parallel()
	code, out, errOut := runT(t, "json", corpusLog(t, e1Log))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["ref"] != strings.TrimSuffix(e1Log, ".xml") || doc["ratingc"] != "PF4" {
		t.Errorf("ref %v ratingc %v", doc["ref"], doc["ratingc"])
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "game.json")
	if code, _, errOut := runT(t, "json", "--out", file, corpusLog(t, e1Log)); code != 0 {
		t.Fatalf("--out: exit %d: %s", code, errOut)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != out {
		t.Errorf("--out file differs from stdout (%v)", err)
	}

	bad := filepath.Join(dir, "bad.xml")
	os.WriteFile(bad, []byte(`<mjloggm ver="2.3"><GO type="169"/>`+"\n"+`<INIT seed="0,0,0,1,2,999" ten="250,250,250,250" oya="0" hai0="" hai1="" hai2="" hai3=""/></mjloggm>`), 0o644)
	code, _, errOut = runT(t, "json", bad)
	if code != 2 || !strings.Contains(errOut, "bad.xml") || !strings.Contains(errOut, "line 2") {
		t.Errorf("bad tile: exit %d, %q; want 2 naming the file and line 2", code, errOut)
	}
	cut := filepath.Join(dir, "cut.xml")
	os.WriteFile(cut, []byte(`<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0,1,2,9" ten="250,250,250,250" oya="0" hai0="" hai1="" hai2="" hai3=""/><T12/></mjloggm>`), 0o644)
	code, _, errOut = runT(t, "json", cut)
	if code != 2 || !strings.Contains(errOut, "kyoku 1") {
		t.Errorf("kyoku without result: exit %d, %q; want 2 naming the kyoku", code, errOut)
	}
	if code, _, _ := runT(t, "json"); code != 2 {
		t.Errorf("no LOG: exit %d, want 2", code)
	}
}
