package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// league reads the four copies of a real game's certificate as one game;
// a damaged copy beside them is named and makes the exit status 1, while
// the standings of the good ones are still written.
func TestLeagueCommand(t *testing.T) {
	t.Parallel()
	src := "../../stats/league/testdata/tonpuu"
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"league", "--json", src}, &o, &e); code != 0 {
		t.Fatalf("league --json: exit %d: %s", code, e.String())
	}
	var doc map[string]*struct {
		Games   int              `json:"games"`
		Players []map[string]any `json:"players"`
	}
	if err := json.Unmarshal(o.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if l := doc["four_player"]; l == nil || l.Games != 1 || len(l.Players) != 4 || doc["three_player"] != nil {
		t.Fatalf("league --json: %s", o.String())
	}

	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(src, "player-0.cert"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "good.cert"), b, 0o644)
	b[len(b)-5] ^= 1 // inside the last signature
	bad := filepath.Join(dir, "bad.cert")
	os.WriteFile(bad, b, 0o644)
	o.Reset()
	e.Reset()
	code := run(context.Background(), []string{"league", dir}, &o, &e)
	if code != 1 || !strings.Contains(e.String(), bad+":") || !strings.Contains(o.String(), "four players: 1 games") {
		t.Errorf("league with a damaged copy: exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
	if code := run(context.Background(), []string{"league", "--room", "x", dir}, &o, &e); code != 2 {
		t.Errorf("league --room x: exit %d, want 2", code)
	}
}
