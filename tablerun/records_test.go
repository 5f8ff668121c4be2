package tablerun

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAtomic checks that a record is replaced only whole: a
// write that fails halfway leaves the old file as it was and no temporary
// file behind, and a write that succeeds replaces it.
func TestWriteFileAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := WriteFile(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failed write: err %v, want it to wrap %v", err, boom)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old one", b)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("the temporary file is left behind: %v", err)
	}
	if err := WriteFile(path, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("after a write the file holds %q, want new", b)
	}
}

// TestSafeName checks that a table name becomes one file name in the
// data directory: no separator, no parent, letters and digits kept.
func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"friday":       "friday",
		"../../etc":    ".._.._etc",
		"a/b\\c":       "a_b_c",
		"Table 1:東":    "Table_1__",
		"local-0a1b_c": "local-0a1b_c",
	} {
		got := safeName(in)
		if got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
		if filepath.Base(got) != got {
			t.Errorf("safeName(%q) = %q is not one path element", in, got)
		}
	}
}
