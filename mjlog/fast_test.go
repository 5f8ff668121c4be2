package mjlog

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFastParseAgrees parses every shared log and every test document
// with the fast scanner and with encoding/xml: where the scanner accepts
// an input, the games must be identical; the shared logs must all be
// accepted.
func TestFastParseAgrees(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.xml"))
	files = append(files, "testdata/unknown.xml")
	fast := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseXML(bytes.NewReader(data), f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseFast(string(data), f)
		if !ok {
			if strings.HasPrefix(f, corpusDir) {
				t.Errorf("%s: the fast scanner gave up", f)
			}
			continue
		}
		fast++
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: fast and encoding/xml parses differ", f)
		}
	}
	// The malformed documents: the scanner must give up on each (their
	// errors come from encoding/xml), or agree with it.
	mf, err := os.Open("testdata/malformed.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	sc := bufio.NewScanner(mf)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cols := strings.SplitN(sc.Text(), "\t", 3)
		if len(cols) != 3 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		_, slowErr := parseXML(strings.NewReader(cols[2]), cols[0])
		if g, ok := parseFast(cols[2], cols[0]); ok && slowErr != nil {
			t.Errorf("%s: the fast scanner accepted %+v, encoding/xml: %v", cols[0], g, slowErr)
		}
	}
	t.Logf("%d of %d documents parsed by the fast scanner, identically", fast, len(files))
}
