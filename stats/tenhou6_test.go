package stats

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

// writeJSON converts the mjlog document doc with the project's converter
// (tenhou6.Convert, as join writes DATA-DIR/games) and writes it to path.
func writeJSON(t *testing.T, doc []byte, path string) {
	t.Helper()
	g, err := mjlog.Parse(bytes.NewReader(doc), path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := tenhou6.Convert(g)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var b bytes.Buffer
	if err := l.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// nmHands matches the hands a nagashi mangan's <RYUUKYOKU type="nm"> shows.
var nmHands = regexp.MustCompile(`(<RYUUKYOKU type="nm"[^>]*?) hai[0-3]="[^"]*"`)

// TestTenhou6CorpusMatchesMjlog: every real log of the corpus, converted to
// tenhou.net/6 JSON, reads as the same Game as the mjlog it came from
// (names, seats, final scores, every tally, the date and the Key that
// finds it a duplicate), with one known loss: tenhou.net/6 JSON does not
// say who was tenpai at a nagashi mangan, so the truth is the mjlog with
// those hands taken out. A directory holding both the logs and their JSON
// then counts each game once, and no two of the real games share a Key.
func TestTenhou6CorpusMatchesMjlog(t *testing.T) {
	dir := t.TempDir()
	files := corpusFiles(t)
	bad, nm := 0, 0
	for _, path := range files {
		raw, err := tenhoucorpus.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(tenhoucorpus.Name(path), ".xml")
		truth := filepath.Join(dir, base+".xml")
		stripped := raw
		for nmHands.Match(stripped) {
			stripped = nmHands.ReplaceAll(stripped, []byte("$1"))
		}
		if !bytes.Equal(stripped, raw) {
			nm++
		}
		if err := os.WriteFile(truth, stripped, 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := ReadFile(truth)
		if err != nil {
			t.Fatal(err)
		}
		js := filepath.Join(dir, base+".json")
		writeJSON(t, raw, js)
		got, err := ReadFile(js)
		if err != nil {
			t.Errorf("%v", err)
			bad++
			continue
		}
		if got.Players != want.Players || got.Names != want.Names || got.FirstOya != want.FirstOya || !slices.Equal(got.Final, want.Final) || got.Seats != want.Seats || got.Key != want.Key || got.Stamp != want.Stamp {
			bad++
			if bad < 5 {
				t.Errorf("%s:\n JSON  %+v\n mjlog %+v", base, *got, *want)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d logs read differently from their JSON", bad, len(files))
	}
	if nm == 0 {
		t.Errorf("no log with a nagashi mangan showing hands: the exception above is untested")
	}
	var failed []string
	set, _, err := Load(context.Background(), Find([]string{dir}, func(p string, err error) { failed = append(failed, err.Error()) }), LoadOptions{})
	if err != nil || failed != nil {
		t.Fatal(err, failed)
	}
	if games := set.Four.Games + set.Three.Games; games != len(files) || set.Duplicates != len(files) {
		t.Errorf("%d logs and their JSON: %d games, %d duplicates; want %d and %d", len(files), games, set.Duplicates, len(files), len(files))
	}
}

// TestOneGameThreeRecords: a directory holding one game as the three
// records join can leave (its transcript, the mjlog record --mjlog writes
// and the tenhou.net/6 JSON written by default, all three gzipped too)
// counts it once, with the figures of the transcript alone.
func TestOneGameThreeRecords(t *testing.T) {
	t.Parallel()
	const mjt = "../ui/viewer/testdata/hand.mjt"
	raw, err := os.ReadFile(mjt)
	if err != nil {
		t.Fatal(err)
	}
	doc, ok, err := transcriptRecord(raw, mjt)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	dir := t.TempDir()
	files := map[string][]byte{"game.mjt": raw, "game.mjlog.xml": doc}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeJSON(t, doc, filepath.Join(dir, "game.json"))
	for _, name := range []string{"game.mjt", "game.mjlog.xml", "game.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(b)
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, "z-"+name+".gz"), gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a record"), 0o644); err != nil {
		t.Fatal(err)
	}
	var failed []string
	list := Find([]string{dir}, func(p string, err error) { failed = append(failed, err.Error()) })
	if len(list) != 6 || failed != nil {
		t.Fatalf("Find(%s) = %q (errors %q), want the 6 records and not notes.txt", dir, list, failed)
	}
	set, _, err := Load(context.Background(), list, LoadOptions{Bad: func(p string, err error) { failed = append(failed, err.Error()) }})
	if err != nil || failed != nil {
		t.Fatal(err, failed)
	}
	alone, err := ReadFile(mjt)
	if err != nil {
		t.Fatal(err)
	}
	if set.Four.Games != 1 || set.Duplicates != 5 || set.Four.Kyoku != alone.Seats[0].Kyoku {
		t.Errorf("one game in 6 files: %d games, %d duplicates, %d kyoku; want 1, 5, %d", set.Four.Games, set.Duplicates, set.Four.Kyoku, alone.Seats[0].Kyoku)
	}
	for s := range 4 {
		if p := set.Four.Player(alone.Names[s]); p == nil || p.Tally != alone.Seats[s] {
			t.Errorf("seat %d (%s): %+v, want %+v", s, alone.Names[s], p, alone.Seats[s])
		}
	}
}
