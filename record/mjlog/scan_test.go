package mjlog

import (
	"bufio"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

// parseFast parses doc with the fast scanner alone (no fallback): the
// error is errFallback-wrapping when the scanner gave up.
func parseFast(doc, name string) (*Game, error) {
	p := &parser{d: tokenSource{fast: &scanner{doc: doc}}, g: &Game{File: name}}
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.g, nil
}

// sameParse compares Parse (the fast path with its fallback) and the
// fast scanner alone with the encoding/xml reader on doc: the same Game,
// or the same error text. It returns whether the fast scanner took the
// document without falling back.
func sameParse(t *testing.T, doc, name string) bool {
	t.Helper()
	want, werr := parseXML(strings.NewReader(doc), name, false)
	got, gerr := Parse(strings.NewReader(doc), name)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%s: Parse error %v, encoding/xml %v", name, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: Parse and encoding/xml differ:\n%+v\n%+v", name, got, want)
	}
	fast, ferr := parseFast(doc, name)
	if errors.Is(ferr, errFallback) {
		return false
	}
	// The scanner decided: it must agree with encoding/xml on its own.
	if (werr == nil) != (ferr == nil) || werr != nil && werr.Error() != ferr.Error() {
		t.Fatalf("%s: fast scanner error %v, encoding/xml %v", name, ferr, werr)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("%s: fast scanner and encoding/xml differ:\n%+v\n%+v", name, fast, want)
	}
	return true
}

// TestScannerMatchesXML: on every log of the corpus the fast scanner takes the
// document itself (no fallback) and yields exactly the Game the
// encoding/xml reader does.
func TestScannerMatchesXML(t *testing.T) {
	games := loadCorpus(t)
	for _, c := range games {
		if !sameParse(t, string(c.raw), c.path) {
			t.Errorf("%s: the fast scanner fell back to encoding/xml", c.path)
		}
	}
	if want := corpus.MustManifest(t).Totals().Games; len(games) != want {
		t.Errorf("%d logs of %s, its MANIFEST.md lists %d", len(games), corpus, want)
	}
}

// TestScannerMalformed: every malformed document of testdata gives the
// same error on both paths.
func TestScannerMalformed(t *testing.T) {
	f, err := os.Open("testdata/malformed.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		sameParse(t, parts[2], parts[0]+".xml")
	}
}

// scannerEdgeCases are documents at the edges of the scanner's subset:
// each must come out of Parse exactly as from encoding/xml.
var scannerEdgeCases = []string{
	`<mjloggm ver="2.3"></mjloggm>`,
	`<?xml version="1.0" encoding="UTF-8"?><mjloggm ver="2.3"></mjloggm>`,
	`<!-- c --><mjloggm ver="2.3"></mjloggm>`,
	"<mjloggm ver='2.3' >\n\t<GO type=\"169\"\tlobby = '0' />\n</mjloggm >trailing",
	`<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="%41&amp;" n1="b" n2="c" n3="d"/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="169"lobby="0"/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="169" type="1"/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="1&#54;9"/></mjloggm>`,
	`<mjloggm ver="2.3"><x:GO type="169"/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type=169/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="169" lobby/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="a<b"/></mjloggm>`,
	"<mjloggm ver=\"2.3\"><GO type=\"169\" r=\"\r\n\"/></mjloggm>",
	`<mjloggm ver="2.3"><GO type="169" n="é"/></mjloggm>`,
	`<mjloggm ver="2.3">text &lt; more<GO type="169"/></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="169"/><![CDATA[x]]></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="169"></GO ></mjloggm>`,
	`<mjloggm ver="2.3"><GO type="169"></GO></mjloggm`,
	`<mjloggm ver="2.3"><GO type="169"/ ></mjloggm>`,
	`<mjloggm ver="2.3"><1GO/></mjloggm>`,
	`<mjloggm ver="2.3"><GO.x-y_z a.b-c="1"/></mjloggm>`,
	`<mjloggm ver="2.3"></ mjloggm>`,
	"\xef\xbb\xbf<mjloggm ver=\"2.3\"></mjloggm>",
	`<mjloggm ver="2.3"><GO type="169"/><T5/></mjloggm>`,
}

func TestScannerEdgeCases(t *testing.T) {
	for i, doc := range scannerEdgeCases {
		sameParse(t, doc, "edge"+string(rune('a'+i))+".xml")
	}
}

// FuzzScanner feeds arbitrary documents to both readers: Parse must give
// the same Game or the same error as encoding/xml, and where the fast
// scanner decides alone it must agree too.
func FuzzScanner(f *testing.F) {
	for _, doc := range scannerEdgeCases {
		f.Add(doc)
	}
	raw, err := tenhoucorpus.ReadFile(tenhoucorpus.For(f).Path(f, "2010081709gm-00a9-0000-fe3371ad.xml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(raw[:min(len(raw), 3000)]) + "</mjloggm>")
	f.Fuzz(func(t *testing.T, doc string) {
		if strings.HasPrefix(doc, "\x1f\x8b") {
			// gzip magic: Parse decompresses before either tokenizer runs
			// (the same code for both), parseXML takes plain XML only.
			t.Skip()
		}
		sameParse(t, doc, "fuzz.xml")
	})
}
