package viewer

import (
	"bytes"
	"os"
	"regexp"
	"testing"
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
