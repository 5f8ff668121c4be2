package statspage

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/stats"
)

// page renders the report of games gs.
func page(t *testing.T, gs ...*stats.Game) string {
	t.Helper()
	set := stats.NewSet()
	for _, g := range gs {
		set.Add(g)
	}
	srv := httptest.NewServer(Handler(set.Report(""), ""))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /: %d", resp.StatusCode)
	}
	css, err := http.Get(srv.URL + "/assets/style.css")
	if err != nil || css.StatusCode != 200 {
		t.Fatalf("style sheet: %v", err)
	}
	css.Body.Close()
	return string(b)
}

// TestPage: one card per player with both charts; a placement bar is as
// long as the share it shows (1st in 1 of 1 games: the full 140 units),
// the even share's mark at 1/4 of the width; names from the network are
// escaped.
func TestPage(t *testing.T) {
	g := &stats.Game{File: "g", Players: 4, Names: [4]string{"<script>alert(1)</script>", "B", "C", "D"}, Final: []int{400, 300, 200, 100}}
	for s := range 4 {
		g.Seats[s].Kyoku = 8
	}
	g.Seats[0].Wins = 4
	body := page(t, g)
	if strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("a player name is not escaped")
	}
	if n := strings.Count(body, `data-chart="placements"`); n != 4 {
		t.Errorf("%d placement charts, want 4", n)
	}
	if n := strings.Count(body, `data-chart="rates"`); n != 4 {
		t.Errorf("%d rate charts, want 4", n)
	}
	if !strings.Contains(body, `width="140.0" height="16"`) {
		t.Error("no full-width bar for a 1st place in every game")
	}
	if !strings.Contains(body, `x1="127.0"`) {
		t.Error("no even-share mark at 25% (x = 92 + 35)")
	}
	// The winner's win rate 4/8 = 50% is a full bar (the scale is 50%),
	// above the set's 12.5%.
	if !strings.Contains(body, `class="bar above" x="92" y="8" width="140.0"`) {
		t.Error("win rate bar of the winner is not full and above the average")
	}
}

// TestEmptyPage: no games gives a page that says so.
func TestEmptyPage(t *testing.T) {
	if body := page(t); !strings.Contains(body, "No games.") {
		t.Errorf("empty page:\n%s", body)
	}
}

// TestPageInJapanese: a browser asking for Japanese first (Accept-Language)
// gets the page in Japanese with Tenhou's terms (和了率, 放銃率, 1位), and
// --lang en overrides the browser; English is the default.
func TestPageInJapanese(t *testing.T) {
	g := &stats.Game{File: "g", Players: 4, Names: [4]string{"A", "B", "C", "D"}, Final: []int{400, 300, 200, 100}}
	for s := range 4 {
		g.Seats[s].Kyoku = 8
	}
	set := stats.NewSet()
	set.Add(g)
	get := func(lang, accept string) string {
		srv := httptest.NewServer(Handler(set.Report(""), lang))
		defer srv.Close()
		req, _ := http.NewRequest("GET", srv.URL+"/", nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	ja := get("", "ja-JP,ja;q=0.9,en;q=0.8")
	for _, want := range []string{`<html lang="ja">`, "和了率", "放銃率", "1位", "四人打ち", "全成績"} {
		if !strings.Contains(ja, want) {
			t.Errorf("the Japanese page lacks %q", want)
		}
	}
	if strings.Contains(ja, "Placements") || strings.Contains(ja, "‹") {
		t.Errorf("the Japanese page has English headings or a raw key:\n%s", ja)
	}
	if en := get("en", "ja-JP"); !strings.Contains(en, "Placements") || strings.Contains(en, "和了率") {
		t.Error("--lang en did not override the browser's Japanese")
	}
	if en := get("", "de-DE"); !strings.Contains(en, `<html lang="en">`) {
		t.Error("a browser without a catalogued language did not get English")
	}
}
