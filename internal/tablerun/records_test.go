package tablerun

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/record/mjlog"
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

// TestGameFilesOutput: the end of a game names the tenhou.net/6 JSON
// written and "mentalmj view FILE" in text, with no link; --progress
// json's "json" event keeps the tenhou.net/6 viewer link as "viewer",
// whose fragment holds the very JSON written.
func TestGameFilesOutput(t *testing.T) {
	rec, err := mjlog.Read("../../ui/viewer/testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var text bytes.Buffer
	path := filepath.Join(dir, "text.json")
	if err := writeGameFiles(&progress.Reporter{W: &text}, rec, "", path, nil, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "watch it again: mentalmj view "+path+"\n") || strings.Contains(text.String(), "https://") {
		t.Errorf("text output:\n%s", text.String())
	}
	var js bytes.Buffer
	path = filepath.Join(dir, "progress.json")
	if err := writeGameFiles(&progress.Reporter{W: &js, JSON: true}, rec, "", path, nil, ""); err != nil {
		t.Fatal(err)
	}
	e, err := progress.Decode(js.Bytes())
	if err != nil {
		t.Fatalf("%v: %s", err, js.String())
	}
	ev, isJSON := e.(progress.JSONRecord)
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	frag, ok := strings.CutPrefix(ev.Viewer, "https://tenhou.net/6/#json=")
	doc, err := url.PathUnescape(frag)
	if !isJSON || ev.Path != path || !ok || err != nil || doc != strings.TrimSpace(string(written)) {
		t.Errorf("json event %+v (%v): want the viewer link to %s", ev, err, path)
	}
}
