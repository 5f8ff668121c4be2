package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files that are not transcripts are refused with exit 2 and a message
// saying what they look like; none is ever read as a blame.
func TestAuditRefusesWhatIsNotATranscript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`<mjloggm ver="2.3"><GO type="169"/></mjloggm>`))
	zw.Close()
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919 + i/13)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"game.json", []byte(`{"ok": true, "hands": []}`), "looks like JSON"},
		{"game.mjlog", gz.Bytes(), "looks like gzip"},
		{"game.xml", []byte(`<mjloggm ver="2.3"></mjloggm>`), "looks like XML"},
		{"empty.mjt", nil, "empty"},
		{"noise.bin", random, "not a mentalmj transcript"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runMain(t, "audit", path)
		if code != 2 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, path) || strings.Contains(stdout+stderr, "BLAME") {
			t.Errorf("audit %s: exit %d, stderr %q, stdout %q; want exit 2 naming the file and %q", c.name, code, stderr, stdout, c.want)
		}
	}
	if code, _, stderr := runMain(t, "audit", filepath.Join(dir, "missing.mjt")); code != 2 || !strings.Contains(stderr, "missing.mjt") {
		t.Errorf("audit of a missing file: exit %d, %q", code, stderr)
	}
}

// runMain runs the mentalmj command line in process.
func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}
