// Package tenhoucorpus finds the real Tenhou game logs that tests use as
// independent truth, and the MANIFEST.md that describes them.
//
// # The model
//
// Two corpora hold the same kind of file, one Tenhou game per mjlog XML
// file, each named by its Tenhou log id (or by the repository it came from
// when the source path carried no id):
//
//   - the subset kept in the repository, testdata/tenhou/logs/*.xml.gz
//     (gzip-compressed), with testdata/tenhou/MANIFEST.md; it is always
//     there, so a fresh clone runs every test that reads logs;
//   - the whole corpus it was taken from, ../shared/tenhou/logs/*.xml with
//     ../shared/tenhou/MANIFEST.md, when that folder sits beside the clone
//     (as it does for the project's developers and in CI).
//
// Find picks the whole corpus when it is present and the subset otherwise;
// For does the same in a test, and picks the subset in -short runs so that
// they stay quick. Tests compare what they read with the totals of the
// MANIFEST.md of the corpus they read (Manifest), never with counts of
// their own output.
//
// Both MANIFEST.md files hold one table row per log:
//
//	| file | players | rule | rounds | source repository | path in repository | commit (date) | license | notes |
//
// file is the uncompressed name (NAME.xml; the subset stores NAME.xml.gz),
// players "4p" or "3p", rule the decoded <GO type=> (e.g. 四鳳南喰赤),
// rounds the number of <INIT> tags, notes e.g. "hex seed (2009)" (a
// 2009 seed form, docs/wall-layout.md §6) or "no owari (partial game)".
package tenhoucorpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Corpus is one corpus of Tenhou logs.
type Corpus struct {
	// Dir is the directory holding the logs.
	Dir string
	// Manifest is the path of the MANIFEST.md describing them.
	Manifest string
	// Full is true for the whole shared corpus (../shared/tenhou), false
	// for the subset in the repository (testdata/tenhou).
	Full bool
}

// String names the corpus for test logs: "the whole corpus DIR" or "the
// repository's subset DIR".
func (c Corpus) String() string {
	if c.Full {
		return "the whole corpus " + c.Dir
	}
	return "the repository's subset " + c.Dir
}

// Find returns the whole shared corpus when ../shared/tenhou/logs sits
// beside the repository root (the directory holding go.mod, searched for
// upwards from the working directory), and the repository's subset
// testdata/tenhou/logs otherwise. It returns an error when no go.mod is
// found above the working directory or the subset is missing.
func Find() (Corpus, error) {
	root, err := repoRoot()
	if err != nil {
		return Corpus{}, err
	}
	shared := filepath.Join(filepath.Dir(root), "shared", "tenhou")
	if info, err := os.Stat(filepath.Join(shared, "logs")); err == nil && info.IsDir() {
		return Corpus{Dir: filepath.Join(shared, "logs"), Manifest: filepath.Join(shared, "MANIFEST.md"), Full: true}, nil
	}
	return subset(root)
}

// Subset returns the repository's subset, testdata/tenhou/logs, whether or
// not the whole corpus is present. Errors are those of Find.
func Subset() (Corpus, error) {
	root, err := repoRoot()
	if err != nil {
		return Corpus{}, err
	}
	return subset(root)
}

func subset(root string) (Corpus, error) {
	dir := filepath.Join(root, "testdata", "tenhou")
	c := Corpus{Dir: filepath.Join(dir, "logs"), Manifest: filepath.Join(dir, "MANIFEST.md")}
	if _, err := os.Stat(c.Dir); err != nil {
		return Corpus{}, fmt.Errorf("tenhoucorpus: the repository's subset: %w", err)
	}
	return c, nil
}

// For returns the corpus a test reads: the repository's subset in -short
// runs, otherwise Find's choice. It stops the test (Fatal) when neither
// can be found: the subset is part of the repository, so that is a fault,
// never a reason to skip.
func For(tb testing.TB) Corpus {
	tb.Helper()
	var c Corpus
	var err error
	if testing.Short() {
		c, err = Subset()
	} else {
		c, err = Find()
	}
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// repoRoot returns the nearest directory at or above the working directory
// that holds go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("tenhoucorpus: no go.mod above the working directory")
		}
		dir = up
	}
}

// Files returns the paths of the corpus's logs (NAME.xml or NAME.xml.gz),
// sorted by name. It returns an error when the directory cannot be read or
// holds no log.
func (c Corpus) Files() ([]string, error) {
	ents, err := os.ReadDir(c.Dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(Name(e.Name()), ".xml") {
			out = append(out, filepath.Join(c.Dir, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("tenhoucorpus: no logs in %s", c.Dir)
	}
	sort.Strings(out)
	return out, nil
}

// MustFiles is Files for a test: it stops the test on an error.
func (c Corpus) MustFiles(tb testing.TB) []string {
	tb.Helper()
	files, err := c.Files()
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// Path returns the path of the log named name (NAME.xml, the name the
// manifest gives) in the corpus: Dir/NAME.xml or Dir/NAME.xml.gz, whichever
// exists. It stops the test when neither does: every log a test names must
// be in the repository's subset (testdata/tenhou/MANIFEST.md).
func (c Corpus) Path(tb testing.TB, name string) string {
	tb.Helper()
	for _, p := range []string{filepath.Join(c.Dir, name), filepath.Join(c.Dir, name+".gz")} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	tb.Fatalf("log %s is not in %s", name, c)
	return ""
}

// Name returns the log's name as its manifest row gives it: the base name
// of path without a trailing ".gz".
func Name(path string) string { return strings.TrimSuffix(filepath.Base(path), ".gz") }

// ReadFile returns the XML text of the log at path, decompressed when the
// name ends in .gz. Errors name the path.
func ReadFile(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return raw, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Entry is one file row of a MANIFEST.md.
type Entry struct {
	// File is the log's uncompressed name, NAME.xml.
	File string
	// Players is 4 or 3.
	Players int
	// Rule is the decoded <GO type=>, e.g. 四鳳南喰赤速.
	Rule string
	// Rounds is the number of kyoku (<INIT> tags) in the log.
	Rounds int
	// Notes is the notes column: "hex seed (2009)", "no owari (partial
	// game)", "embedded" or "".
	Notes string
}

// HexSeed reports whether the log uses the 2009 hex seed form.
func (e Entry) HexSeed() bool { return strings.Contains(e.Notes, "hex seed") }

// Manifest is the file table of a MANIFEST.md.
type Manifest struct {
	// Entries are the rows in file order.
	Entries []Entry
	// ByFile indexes Entries by File.
	ByFile map[string]Entry
}

// Totals are counts over a manifest's rows.
type Totals struct {
	Games, Games4, Games3    int // logs: all, four-player, three-player
	Rounds, Rounds4, Rounds3 int // kyoku
	HexGames, HexRounds      int // logs with the 2009 hex seed form, and their kyoku
}

// Totals adds up the manifest's rows.
func (m Manifest) Totals() Totals {
	var t Totals
	for _, e := range m.Entries {
		t.Games++
		t.Rounds += e.Rounds
		if e.Players == 3 {
			t.Games3++
			t.Rounds3 += e.Rounds
		} else {
			t.Games4++
			t.Rounds4 += e.Rounds
		}
		if e.HexSeed() {
			t.HexGames++
			t.HexRounds += e.Rounds
		}
	}
	return t
}

// ReadManifest parses the file table of the corpus's MANIFEST.md. It
// returns an error naming the file when it cannot be read, a row is
// malformed, or it holds no row.
func (c Corpus) ReadManifest() (Manifest, error) {
	f, err := os.Open(c.Manifest)
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	m := Manifest{ByFile: map[string]Entry{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 11 || !strings.HasSuffix(strings.TrimSpace(cols[1]), ".xml") {
			continue
		}
		e := Entry{File: strings.TrimSpace(cols[1]), Rule: strings.TrimSpace(cols[3]), Notes: strings.TrimSpace(cols[9])}
		switch strings.TrimSpace(cols[2]) {
		case "4p":
			e.Players = 4
		case "3p":
			e.Players = 3
		default:
			return Manifest{}, fmt.Errorf("%s:%d: players %q, want 4p or 3p", c.Manifest, line, cols[2])
		}
		if e.Rounds, err = strconv.Atoi(strings.TrimSpace(cols[4])); err != nil {
			return Manifest{}, fmt.Errorf("%s:%d: rounds: %w", c.Manifest, line, err)
		}
		m.Entries = append(m.Entries, e)
		m.ByFile[e.File] = e
	}
	if err := sc.Err(); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", c.Manifest, err)
	}
	if len(m.Entries) == 0 {
		return Manifest{}, fmt.Errorf("%s: no file rows", c.Manifest)
	}
	return m, nil
}

// MustManifest is ReadManifest for a test: it stops the test on an error.
func (c Corpus) MustManifest(tb testing.TB) Manifest {
	tb.Helper()
	m, err := c.ReadManifest()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// goType finds the <GO type=> value in a log's text.
var goType = regexp.MustCompile(`<GO type="([0-9]+)"`)

// GoTypes returns the <GO type=> value of every log of the corpus, keyed
// by Name, read from the raw text with a regular expression: a reading of
// the rule bits that does not go through the parsers under test. It
// returns an error naming a file that cannot be read or has no <GO type=>.
func (c Corpus) GoTypes() (map[string]int, error) {
	files, err := c.Files()
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(files))
	for _, f := range files {
		raw, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		m := goType.FindSubmatch(raw)
		if m == nil {
			return nil, fmt.Errorf("%s: no <GO type=>", f)
		}
		if out[Name(f)], err = strconv.Atoi(string(m[1])); err != nil {
			return nil, fmt.Errorf("%s: <GO type=>: %w", f, err)
		}
	}
	return out, nil
}

// Count returns how many times re matches the raw text of the corpus's
// logs, summed over the logs for which keep(Name, GO type) is true (nil
// keeps every log): a count made without the parsers under test. It
// returns the errors of GoTypes.
func (c Corpus) Count(re *regexp.Regexp, keep func(name string, goType int) bool) (int, error) {
	types, err := c.GoTypes()
	if err != nil {
		return 0, err
	}
	files, err := c.Files()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		if keep != nil && !keep(Name(f), types[Name(f)]) {
			continue
		}
		raw, err := ReadFile(f)
		if err != nil {
			return 0, err
		}
		n += len(re.FindAllIndex(raw, -1))
	}
	return n, nil
}
