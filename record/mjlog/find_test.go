package mjlog

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b/2.MJLOG", "a.xml", "b/1.xml.gz", "b/notes.txt", "c.xml.bak"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	single := filepath.Join(dir, "b/notes.txt") // a file named directly is taken as it is
	missing := filepath.Join(dir, "missing")
	var bad []string
	got := Find([]string{dir, single, missing}, func(path string, err error) { bad = append(bad, path) })
	want := []string{filepath.Join(dir, "a.xml"), filepath.Join(dir, "b/1.xml.gz"), filepath.Join(dir, "b/2.MJLOG"), single}
	if !slices.Equal(got, want) {
		t.Errorf("Find = %v, want %v", got, want)
	}
	if !slices.Equal(bad, []string{missing}) {
		t.Errorf("reported %v, want the missing path", bad)
	}
}

// TestFindEmptyDirectory: a directory without logs is reported, not taken
// as an empty success.
func TestFindEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var bad []error
	got := Find([]string{dir}, func(path string, err error) {
		if path != dir {
			t.Errorf("reported %s, want %s", path, dir)
		}
		bad = append(bad, err)
	})
	if len(got) != 0 || len(bad) != 1 || !errors.Is(bad[0], ErrNoLogs) {
		t.Errorf("Find(empty dir) = %v, reported %v; want nothing found and ErrNoLogs", got, bad)
	}
}
