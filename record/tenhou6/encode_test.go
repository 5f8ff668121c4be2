package tenhou6

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// TestEncodeMatchesEncodingJSON: the hand-written encoder writes exactly
// what encoding/json writes for the same Log (HTML escaping off), for
// every log of the corpus and for names with quotes, control characters, U+2028
// and invalid UTF-8.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	files := tenhoucorpus.For(t).MustFiles(t)
	var logs []*Log
	for _, f := range files {
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Convert(g)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, l)
	}
	odd := &Log{Ver: 2.3, Ref: "a\"b\\c", Log: []Kyoku{{[]int{0, 0, 0}, "x\u2028y\x01\n", []any{"r60", 12}}},
		Connection: []Connection{{What: 1, Log: -1, Who: 2, Step: 0}}, Name: []string{"<&>", "\xff\xfe", "é", ""},
		Dan: []string{}, Rate: []float64{1500, 2074.7, 1e-7, -8}, Sx: nil, Sc: []float64{4400, -4.6}}
	logs = append(logs, odd)
	for _, l := range logs {
		var got, want bytes.Buffer
		if err := l.Encode(&got); err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("ref %q:\n got %.300s\nwant %.300s", l.Ref, got.String(), want.String())
		}
	}
	t.Logf("%d logs encoded identically", len(logs))
}
