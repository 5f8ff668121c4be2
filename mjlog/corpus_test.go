package mjlog

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusDir holds the shared real Tenhou logs (MANIFEST.md there).
const corpusDir = "../../shared/tenhou/logs"

// corpusGame is one parsed log of the shared corpus with its raw bytes.
type corpusGame struct {
	path string
	raw  []byte
	game *Game
}

// loadCorpus parses every log of the shared corpus, failing the test on
// any parse error; it skips the test when the directory is absent.
func loadCorpus(t testing.TB) []corpusGame {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		if _, err := os.Stat(corpusDir); os.IsNotExist(err) {
			t.Skipf("corpus %s absent", corpusDir)
		}
		t.Fatalf("no logs in %s", corpusDir)
	}
	out := make([]corpusGame, 0, len(paths))
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Read(p)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		out = append(out, corpusGame{path: p, raw: raw, game: g})
	}
	return out
}

func TestParseCorpus(t *testing.T) {
	games := loadCorpus(t)
	rounds := 0
	for _, c := range games {
		rounds += len(c.game.Rounds)
	}
	t.Logf("%d games, %d rounds", len(games), rounds)
}
