package resume

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
)

// sample is a state as a four-player join writes it. Its seed, bytes
// 1, 8, 15, … (7i+1), is "AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09o=" in
// base64 (Python: base64.b64encode(bytes(7*i+1 for i in range(32)))).
func sample() State {
	seed := make([]byte, protocol.SeedSize)
	for i := range seed {
		seed[i] = byte(i*7 + 1)
	}
	return State{
		Table:      "friday night",
		Players:    4,
		Peers:      []string{"/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWA", "/ip6/::1/tcp/4001/p2p/12D3KooWA"},
		Listen:     []string{"/ip4/127.0.0.1/tcp/4002"},
		Transcript: "/data/games/friday.mjt",
		Seed:       seed,
		Started:    time.Date(2026, 11, 28, 15, 4, 5, 0, time.UTC),
	}
}

// savedSample saves sample() to dir/good.json and returns the file's bytes.
func savedSample(tb testing.TB, dir string) []byte {
	tb.Helper()
	good := filepath.Join(dir, "good.json")
	if err := Save(good, sample()); err != nil {
		tb.Fatal(err)
	}
	whole, err := os.ReadFile(good)
	if err != nil {
		tb.Fatal(err)
	}
	return whole
}

// TestSaveLoad: what Save stores, Load gives back field by field; the file
// is DATA-DIR/resume/TABLE.json with mode 0600 in a 0700 directory, holds
// the seed in base64 (as its doc says) and leaves no temporary file.
func TestSaveLoad(t *testing.T) {
	dataDir := t.TempDir()
	st := sample()
	path := File(dataDir, st.Table)
	if want := filepath.Join(dataDir, "resume", "friday_night.json"); path != want {
		t.Fatalf("File = %s, want %s", path, want)
	}
	if err := Save(path, st); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Started.Equal(st.Started) {
		t.Errorf("Started %v, saved %v", got.Started, st.Started)
	}
	got.Started = st.Started
	if !reflect.DeepEqual(got, st) {
		t.Errorf("loaded %+v, saved %+v", got, st)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", info.Mode().Perm())
	}
	if dir, err := os.Stat(filepath.Dir(path)); err != nil || dir.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v (%v), want 0700", dir.Mode().Perm(), err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"seed": "AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09o="`)) {
		t.Errorf("the file does not hold the seed in base64:\n%s", raw)
	}
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("resume directory holds %d entries, want only the state file", len(ents))
	}
}

// TestReopen: a second Save replaces the first (the game reopened at the
// same table), Load reads the latest, and Remove deletes it, after which
// Load says there is no game and a second Remove is no error.
func TestReopen(t *testing.T) {
	path := File(t.TempDir(), "t")
	first := sample()
	if err := Save(path, first); err != nil {
		t.Fatal(err)
	}
	second := sample()
	second.Players = 3
	second.Peers = second.Peers[:1]
	second.Transcript = "/data/games/second.mjt"
	second.Seed[0] ^= 0xff
	if err := Save(path, second); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Players != 3 || got.Transcript != second.Transcript || !bytes.Equal(got.Seed, second.Seed) || len(got.Peers) != 1 {
		t.Errorf("reopened state %+v, want the second save %+v", got, second)
	}
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); !errors.Is(err, ErrNoGame) || !strings.Contains(err.Error(), path) {
		t.Errorf("Load after Remove: %v, want ErrNoGame naming %s", err, path)
	}
	if err := Remove(path); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

// TestFileNames: File keeps [A-Za-z0-9._-] and replaces every other
// character with '_', so that no table name leaves DATA-DIR/resume.
func TestFileNames(t *testing.T) {
	for table, want := range map[string]string{
		"abc-1.2_x":   "abc-1.2_x.json",
		"../../etc":   ".._.._etc.json",
		`a\b:c d`:     "a_b_c_d.json",
		"卓":           "_.json",
		"with/slash/": "with_slash_.json",
	} {
		got := File("/data", table)
		if got != filepath.Join("/data", "resume", want) {
			t.Errorf("File(%q) = %s, want /data/resume/%s", table, got, want)
		}
		if filepath.Dir(got) != filepath.Join("/data", "resume") {
			t.Errorf("File(%q) = %s leaves the resume directory", table, got)
		}
	}
}

// TestSaveRefusesBadSeed: Save writes nothing for a seed of the wrong size.
func TestSaveRefusesBadSeed(t *testing.T) {
	path := File(t.TempDir(), "t")
	st := sample()
	st.Seed = st.Seed[:protocol.SeedSize-1]
	if err := Save(path, st); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("Save with a %d-byte seed: %v", len(st.Seed), err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
}

// TestSaveErrorNamesPath: a data directory that is a file gives an error
// naming it.
func TestSaveErrorNamesPath(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := File(notDir, "t")
	if err := Save(path, sample()); err == nil || !strings.Contains(err.Error(), notDir) {
		t.Errorf("Save under a file: %v, want an error naming %s", err, notDir)
	}
}

// TestLoadDamaged: a state file cut short at every length, and files
// damaged in each way Load checks, give an error that names the file and
// is not ErrNoGame; none panics.
func TestLoadDamaged(t *testing.T) {
	dir := t.TempDir()
	whole := savedSample(t, dir)
	check := func(t *testing.T, name string, content []byte, want string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) || errors.Is(err, ErrNoGame) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", name, err, want)
		}
	}
	t.Run("truncated", func(t *testing.T) {
		for n := range len(whole) {
			check(t, "cut.json", whole[:n], "not a resume file")
		}
	})
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"seed too short", `"seed": "AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09o="`, `"seed": "AQgP"`, "seed of 3 bytes"},
		{"seed not base64", `"seed": "AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09o="`, `"seed": "!!"`, "not a resume file"},
		{"no transcript", `"transcript": "/data/games/friday.mjt"`, `"transcript": ""`, "names no transcript"},
		{"five players", `"players": 4`, `"players": 5`, "5 players"},
		{"players a string", `"players": 4`, `"players": "4"`, "not a resume file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !bytes.Contains(whole, []byte(c.old)) {
				t.Fatalf("the saved file lacks %s", c.old)
			}
			check(t, "bad.json", bytes.Replace(whole, []byte(c.old), []byte(c.new), 1), c.want)
		})
	}
	t.Run("not JSON", func(t *testing.T) { check(t, "text.json", []byte("TABLE=friday\n"), "not a resume file") })
	t.Run("a directory", func(t *testing.T) {
		path := filepath.Join(dir, "adir.json")
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) || errors.Is(err, ErrNoGame) {
			t.Errorf("directory: %v, want an error naming %s", err, path)
		}
	})
}

// FuzzLoad: whatever the file holds, Load returns a state that passes its
// checks or an error naming the file, and never panics.
func FuzzLoad(f *testing.F) {
	f.Add(savedSample(f, f.TempDir()))
	f.Add([]byte(`{"seed":null,"players":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := Load(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		if len(st.Seed) != protocol.SeedSize || st.Transcript == "" || (st.Players != 3 && st.Players != 4) {
			t.Fatalf("Load accepted %+v", st)
		}
	})
}
