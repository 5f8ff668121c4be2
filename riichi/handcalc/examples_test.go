package handcalc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
)

// readJSONL decodes every line of a testdata file into a new T.
func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		var v T
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	}
	return out
}

// sortedYaku returns ys sorted by name, ids cleared, for comparing names
// and han as a set (the examples name yaku, TestScoreLinesMatchesTenhouLogs
// checks the ids).
func sortedYaku(ys []Yaku) []Yaku {
	out := slices.Clone(ys)
	for i := range out {
		out[i].ID = 0
	}
	slices.SortFunc(out, func(a, b Yaku) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// TestWorkedExamples scores the worked examples of testdata/examples.jsonl:
// hands whose han and fu follow the counting rules of riichi.wiki's Fu
// page (or are its own example) and whose points are the published
// scoring table's, each naming its source; two apply house-rule switches
// (kiriage mangan, double yakuman) as riichi.wiki describes them. Yaku are compared as a set
// (their order is checked against Tenhou by TestScoreLinesMatchesTenhouLogs).
func TestWorkedExamples(t *testing.T) {
	type example struct {
		Name     string
		Switches []string // house-rule switches (Request.Switches has no JSON key)
		Request  json.RawMessage
		Want     Result
	}
	examples := readJSONL[example](t, "testdata/examples.jsonl")
	if len(examples) < 10 {
		t.Fatalf("only %d examples", len(examples))
	}
	for _, ex := range examples {
		req, err := DecodeRequest(ex.Request)
		if err != nil {
			t.Errorf("%s: %v", ex.Name, err)
			continue
		}
		req.Switches = ex.Switches
		got, err := Score(req)
		if err != nil {
			t.Errorf("%s: %v", ex.Name, err)
			continue
		}
		w := ex.Want
		if got.Han != w.Han || got.Fu != w.Fu || got.Points != w.Points || got.Yakuman != w.Yakuman {
			t.Errorf("%s: %d han %d fu %d points %d yakuman, want %d han %d fu %d points %d yakuman", ex.Name, got.Han, got.Fu, got.Points, got.Yakuman, w.Han, w.Fu, w.Points, w.Yakuman)
		}
		if !slices.Equal(sortedYaku(got.Yaku), sortedYaku(w.Yaku)) {
			t.Errorf("%s: yaku %v, want %v", ex.Name, got.Yaku, w.Yaku)
		}
		if !slices.Equal(got.Payments, w.Payments) {
			t.Errorf("%s: payments %v, want %v", ex.Name, got.Payments, w.Payments)
		}
	}
}

// TestBadLines runs the lines of testdata/malformed.jsonl through
// ScoreLines in one stream: each gets its own error result (the message
// naming the field at fault), of the right kind (malformed request or a
// hand that does not win), and the stream goes on to the next line.
func TestBadLines(t *testing.T) {
	type bad struct {
		Line  string
		Kind  string
		Error string
	}
	cases := readJSONL[bad](t, "testdata/malformed.jsonl")
	var in bytes.Buffer
	for _, c := range cases {
		in.WriteString(c.Line + "\n")
	}
	// A good line last: the stream must get past every bad one.
	in.WriteString(`{"hand":"123m456p789s2344s","win":"4s","ron":true}` + "\n")
	var out bytes.Buffer
	n, err := ScoreLines(context.Background(), &in, &out)
	if err != nil {
		t.Fatal(err)
	}
	malformedN, noWin := 0, 0
	for _, c := range cases {
		switch c.Kind {
		case "malformed":
			malformedN++
		case "nowin":
			noWin++
		default:
			t.Fatalf("case %q: kind %q", c.Line, c.Kind)
		}
	}
	if n.Lines != len(cases)+1 || n.Wins != 1 || n.Malformed != malformedN || n.NoWins != noWin {
		t.Errorf("counts %+v, want %d lines, 1 win, %d malformed, %d no-win", n, len(cases)+1, malformedN, noWin)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(cases)+1 {
		t.Fatalf("%d result lines for %d requests:\n%s", len(lines), len(cases)+1, out.String())
	}
	for i, c := range cases {
		var res map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &res); err != nil {
			t.Fatalf("result %q: %v", lines[i], err)
		}
		msg, _ := res["error"].(string)
		if res["ok"] != false || len(res) != 2 || !strings.Contains(msg, c.Error) || !strings.HasPrefix(msg, fmt.Sprintf("line %d: ", i+1)) {
			t.Errorf("line %d %s: result %s, want ok false and an error containing %q", i+1, c.Line, lines[i], c.Error)
		}
	}
	if !strings.HasPrefix(lines[len(cases)], `{"ok":true,`) {
		t.Errorf("the good last line gave %s", lines[len(cases)])
	}
	// The same requests through Score: the error kinds.
	for _, c := range cases {
		req, err := DecodeRequest([]byte(c.Line))
		if err == nil {
			_, err = Score(req)
		}
		if (c.Kind == "malformed") != errors.Is(err, ErrMalformed) || (c.Kind == "nowin") != errors.Is(err, ErrNoWin) {
			t.Errorf("%s: error %v, want kind %s", c.Line, err, c.Kind)
		}
	}
}

// TestLongLine checks that a line longer than MaxLine is one error result
// and the next line is still scored.
func TestLongLine(t *testing.T) {
	long := `{"hand":"` + strings.Repeat("1", MaxLine) + `m"}`
	in := strings.NewReader(long + "\n" + `{"hand":"123m456p789s2344s","win":"4s","ron":true}` + "\n")
	var out bytes.Buffer
	n, err := ScoreLines(context.Background(), in, &out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if n.Lines != 2 || len(lines) != 2 || !strings.Contains(lines[0], "line 1: malformed request: line longer than") || !strings.HasPrefix(lines[1], `{"ok":true`) {
		t.Errorf("counts %+v, output:\n%s", n, out.String())
	}
}

// TestScoreLinesStopsOnCancel checks that a cancelled context ends the run
// with its error.
func TestScoreLinesStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ScoreLines(ctx, strings.NewReader(`{}`+"\n"), &bytes.Buffer{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

// TestRedFivesFollowTheRules checks that the red fives a request may hold
// are the rules' (switch aka, rules package): two red 5p with aka=4, none
// with aka=0, one per suit under Tenhou's rules, and that each red five
// held is one aka dora.
func TestRedFivesFollowTheRules(t *testing.T) {
	hand := "234m004667p34s55s" // two red 5p; riichi pinfu tanyao, ron on 2s
	for _, c := range []struct {
		switches []string
		aka      int    // aka dora wanted; -1: malformed
		err      string // part of the error when malformed
	}{
		{[]string{"aka=4"}, 2, ""},
		{nil, -1, "2 red fives 0p: a set under these rules has 1"},
		{[]string{"aka=0"}, -1, "these rules have no red 5p"},
	} {
		res, err := Score(Request{Hand: hand, Win: "2s", Ron: true, Riichi: true, Switches: c.switches})
		if c.aka < 0 {
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want one containing %q", c.switches, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.switches, err)
		}
		got := 0
		for _, y := range res.Yaku {
			if y.ID == riichi.YakuAkaDora {
				got = y.Han
			}
		}
		if got != c.aka {
			t.Errorf("%v: aka dora %d, want %d (%+v)", c.switches, got, c.aka, res.Yaku)
		}
	}
}
