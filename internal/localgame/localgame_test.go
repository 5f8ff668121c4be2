package localgame

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
)

// TestPercentileNearestRank checks percentile against the worked example
// of the nearest-rank method (Wikipedia, "Percentile": the list 15, 20,
// 35, 40, 50 has 5th–20th percentile 15, 30th and 40th 20, 50th 35,
// 100th 50), in shuffled order.
func TestPercentileNearestRank(t *testing.T) {
	xs := []float64{40, 15, 50, 35, 20}
	for _, c := range []struct{ p, want float64 }{{5, 15}, {20, 15}, {30, 20}, {40, 20}, {50, 35}, {100, 50}} {
		if got := percentile(xs, c.p); got != c.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", xs, c.p, got, c.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("percentile of nothing = %v, want 0", got)
	}
}

// TestAgreeTamper checks that the reports of one hand agree only when
// every field the audits share is the same: each tamper of one node's
// report must break the agreement.
func TestAgreeTamper(t *testing.T) {
	base := func() []progress.Hand {
		var rs []progress.Hand
		for range 4 {
			rs = append(rs, progress.Hand{Hand: 1, AuditOK: true, Yama: []int{3, 1, 2}, Dice: [2]int{1, 4}, OyaSeat: 2, Result: "ryuukyoku", Scores: [4]int{25000, 25000, 25000, 25000}})
		}
		return rs
	}
	if !agree(base()) {
		t.Fatal("identical reports do not agree")
	}
	for name, tamper := range map[string]func(*progress.Hand){
		"audit failed": func(e *progress.Hand) { e.AuditOK = false },
		"no yama":      func(e *progress.Hand) { e.Yama = nil },
		"other yama":   func(e *progress.Hand) { e.Yama = []int{1, 3, 2} },
		"other dice":   func(e *progress.Hand) { e.Dice[1] = 5 },
		"other dealer": func(e *progress.Hand) { e.OyaSeat = 0 },
		"other result": func(e *progress.Hand) { e.Result = "tsumo" },
		"other scores": func(e *progress.Hand) { e.Scores[3] = 24000 },
	} {
		rs := base()
		tamper(&rs[3])
		if agree(rs) {
			t.Errorf("%s: the reports still agree", name)
		}
	}
}

// TestPrefixWriter checks that every whole line, however the writes cut
// it, comes out once with the prefix, and a partial line waits.
func TestPrefixWriter(t *testing.T) {
	var out bytes.Buffer
	w := &prefixWriter{w: &out, prefix: "[p] "}
	for _, s := range []string{"one\ntw", "o\n", "", "three\nfour"} {
		if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := out.String(), "[p] one\n[p] two\n[p] three\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLangGoesToPlayerZero: Config.Lang ("local --lang ja") reaches the
// join arguments of player-0, whose table the user reads (--play, --ui),
// and no bot's; without --play or --ui it is not passed.
func TestLangGoesToPlayerZero(t *testing.T) {
	for _, c := range []struct {
		play, ui bool
		want     bool
	}{{true, false, true}, {false, true, true}, {false, false, false}} {
		r, err := seat(context.Background(), Config{Dir: t.TempDir(), Players: 4, Play: c.play, UI: c.ui, Lang: "ja", Timeout: time.Minute}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		zero := strings.Join(r.args(0), " ")
		if got := strings.Contains(zero, "--lang ja"); got != c.want {
			t.Errorf("play %v ui %v: player-0's args %q: --lang ja passed %v, want %v", c.play, c.ui, zero, got, c.want)
		}
		if one := strings.Join(r.args(1), " "); strings.Contains(one, "--lang") {
			t.Errorf("a bot got --lang: %q", one)
		}
	}
}
