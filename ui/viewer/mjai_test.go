package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

// tsumogiriField matches the optional tsumogiri field of an mjai dahai.
var tsumogiriField = regexp.MustCompile(`,"tsumogiri":(true|false)`)

// Without the optional tsumogiri field, a converted real log replays
// every kyoku to the same end as with it (the same score changes, none
// stopped), riichi hands included (in riichi only the drawn tile may go).
func TestMjaiWithoutTsumogiri(t *testing.T) {
	for _, name := range []string{log4p, log3p, "2022060100gm-00a9-0000-a11749d5.xml", "2014091101gm-00b9-0000-5ca6b487.xml"} {
		_, mj := convert(t, sharedLog(t, name))
		with, err := Load(mj)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(mj)
		if err != nil {
			t.Fatal(err)
		}
		stripped := tsumogiriField.ReplaceAll(data, nil)
		if bytes.Equal(stripped, data) || bytes.Contains(stripped, []byte("tsumogiri")) {
			t.Fatalf("%s: the converted log has no tsumogiri field to strip, or keeps one", name)
		}
		without, err := Read(stripped, "stripped.mjai")
		if err != nil {
			t.Fatal(err)
		}
		if len(without.Kyoku) != len(with.Kyoku) {
			t.Fatalf("%s: %d kyoku without tsumogiri, %d with", name, len(without.Kyoku), len(with.Kyoku))
		}
		for i, k := range without.Kyoku {
			w := with.Kyoku[i]
			if w.Stopped != "" || w.Hand.Result == nil {
				t.Fatalf("%s kyoku %d: does not replay even with tsumogiri: %s", name, i, w.Stopped)
			}
			if k.Stopped != "" || k.Hand.Result == nil {
				t.Errorf("%s kyoku %d: stopped without tsumogiri: %s", name, i, k.Stopped)
				continue
			}
			if k.Hand.Result.Deltas != w.Hand.Result.Deltas || len(k.Steps) != len(w.Steps) {
				t.Errorf("%s kyoku %d: deltas %v in %d steps without tsumogiri, %v in %d with", name, i, k.Hand.Result.Deltas, len(k.Steps), w.Hand.Result.Deltas, len(w.Steps))
			}
		}
	}
}

// An mjai log cut at a line boundary inside a kyoku (every line valid
// JSON) and an mjlog cut before a result but closed again are refused as
// cut short, naming the file, the kyoku and (mjai) the last line kept.
func TestCutShortMidKyoku(t *testing.T) {
	path := sharedLog(t, log4p)
	_, mj := convert(t, path)
	data, err := os.ReadFile(mj)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	// Cut three lines before the result of the third kyoku.
	starts, cut := 0, 0
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"start_kyoku"`)) {
			starts++
		}
		if starts == 3 && (bytes.Contains(l, []byte(`"type":"hora"`)) || bytes.Contains(l, []byte(`"type":"ryukyoku"`))) {
			cut = i - 3
			break
		}
	}
	if cut <= 0 {
		t.Fatal("no third kyoku's result in the converted log")
	}
	_, err = Read(bytes.Join(lines[:cut], nil), "cut.mjai")
	want := fmt.Sprintf("cut.mjai: cannot show this record: it is an mjai log, but it is cut short: kyoku 3 (%s) stops in phase ", "E3-0")
	if err == nil || !errors.Is(err, ErrBadRecord) || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), fmt.Sprintf(" at line %d, before its result", cut)) {
		t.Errorf("cut mjai: %v\nwant %q … at line %d", err, want, cut)
	}

	raw, err := tenhoucorpus.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(raw, []byte("<AGARI"))
	j := bytes.LastIndex(raw, []byte("<RYUUKYOKU"))
	cutXML := append(raw[:max(i, j):max(i, j)], "</mjloggm>"...)
	_, err = Read(cutXML, "cut.xml")
	if err == nil || !strings.HasPrefix(err.Error(), "cut.xml: cannot show this record: it is a Tenhou mjlog, but it is cut short: kyoku ") || !strings.Contains(err.Error(), "after step") {
		t.Errorf("cut mjlog: %v", err)
	}
}
