package tenhoucorpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSubsetMatchesManifest checks the repository's subset against its
// MANIFEST.md: one NAME.xml.gz per file row and no other file, each an
// mjlog whose <INIT> count is the row's rounds and whose <GO type=> has the
// row's player bit (0x10 for three players), and the Totals line equal to
// the sum of the rows.
func TestSubsetMatchesManifest(t *testing.T) {
	c, err := Subset()
	if err != nil {
		t.Fatal(err)
	}
	m := c.MustManifest(t)
	files := c.MustFiles(t)
	if len(files) != len(m.Entries) {
		t.Errorf("%d logs in %s, %d rows in %s", len(files), c.Dir, len(m.Entries), c.Manifest)
	}
	types, err := c.GoTypes()
	if err != nil {
		t.Fatal(err)
	}
	inits := regexp.MustCompile(`<INIT `)
	for _, f := range files {
		if !strings.HasSuffix(f, ".xml.gz") {
			t.Errorf("%s: the subset's logs are NAME.xml.gz", f)
		}
		e, ok := m.ByFile[Name(f)]
		if !ok {
			t.Errorf("%s: no row in %s", f, c.Manifest)
			continue
		}
		raw, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(bytes.TrimLeft(raw, "\ufeff \r\n"), []byte("<mjloggm")) {
			t.Errorf("%s: not an mjlog: %.40q", f, raw)
		}
		if n := len(inits.FindAllIndex(raw, -1)); n != e.Rounds {
			t.Errorf("%s: %d <INIT>, the manifest says %d rounds", f, n, e.Rounds)
		}
		if three := types[Name(f)]&0x10 != 0; three != (e.Players == 3) {
			t.Errorf("%s: GO type %d, the manifest says %d players", f, types[Name(f)], e.Players)
		}
	}
	tot := m.Totals()
	line := fmt.Sprintf("Totals: %d games (%d four-player, %d three-player), %d rounds (%d 4p, %d 3p); %d games / %d rounds use the early hex seed form.",
		tot.Games, tot.Games4, tot.Games3, tot.Rounds, tot.Rounds4, tot.Rounds3, tot.HexGames, tot.HexRounds)
	text, err := os.ReadFile(c.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), line) {
		t.Errorf("%s lacks the line %q", c.Manifest, line)
	}
}

// TestPathAndReadFile finds a log by its manifest name in the subset and
// reads a plain and a gzip-compressed copy of it to the same text; a
// damaged gzip file is an error naming it.
func TestPathAndReadFile(t *testing.T) {
	c, err := Subset()
	if err != nil {
		t.Fatal(err)
	}
	const name = "2022060100gm-00a9-0000-a11749d5.xml"
	p := c.Path(t, name)
	if Name(p) != name {
		t.Fatalf("Path(%q) = %s", name, p)
	}
	gz, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(plain, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := ReadFile(plain); err != nil || !bytes.Equal(again, gz) {
		t.Errorf("plain copy reads %d bytes, %v; want the %d of the gzip file", len(again), err, len(gz))
	}
	bad := filepath.Join(t.TempDir(), "bad.xml.gz")
	if err := os.WriteFile(bad, []byte("\x1f\x8bnot gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("damaged gzip: %v, want an error naming %s", err, bad)
	}
}
