package leaguepage

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/stats/league"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// The page of the real tonpuu's certificates lists its four players with
// their R, and refuses other paths.
func TestPage(t *testing.T) {
	games, err := league.Load([]string{"../../stats/league/testdata/tonpuu"})
	if err != nil {
		t.Fatal(err)
	}
	st := league.Compute(games, league.Ippan)
	h := Handler(st, league.Ippan, "")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "Four players: 1 games") {
		t.Fatalf("GET /: %d %s", rec.Code, body)
	}
	for _, p := range st.FourPlayer.Players {
		if !strings.Contains(body, p.PeerID) || !strings.Contains(body, ">"+p.Name+"<") {
			t.Errorf("page lacks %s (%s)", p.Name, p.PeerID)
		}
	}
	for _, r := range []string{"1530.00", "1470.00"} {
		if !strings.Contains(body, r) {
			t.Errorf("page lacks R %s", r)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 404 {
		t.Errorf("GET /x: %d", rec.Code)
	}
}

// TestPageJapanese: the page speaks Japanese when the browser asks for it
// (Accept-Language) and when --lang ja forces it over an English browser;
// then no English message of the page is left (i18n EnglishLeft), and
// --lang en keeps a Japanese browser's page in English.
func TestPageJapanese(t *testing.T) {
	games, err := league.Load([]string{"../../stats/league/testdata/tonpuu"})
	if err != nil {
		t.Fatal(err)
	}
	st := league.Compute(games, league.Ippan)
	ja, err := i18n.Load("ja")
	if err != nil {
		t.Fatal(err)
	}
	get := func(lang, accept string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Language", accept)
		Handler(st, league.Ippan, lang).ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("--lang %q, Accept-Language %q: %d", lang, accept, rec.Code)
		}
		return rec.Body.String()
	}
	for _, c := range []struct{ lang, accept string }{{"", "ja-JP,ja;q=0.9,en;q=0.8"}, {"ja", "en-US,en;q=0.9"}} {
		body := get(c.lang, c.accept)
		for _, want := range []string{`<html lang="ja">`, "四人打ち：1戦", "着順", "署名した結果証明書"} {
			if !strings.Contains(body, want) {
				t.Errorf("--lang %q, Accept-Language %q: page lacks %q", c.lang, c.accept, want)
			}
		}
		for _, p := range st.FourPlayer.Players {
			body = strings.ReplaceAll(body, p.Name, "") // the names are "player-N": data, not a message
		}
		if left := ja.EnglishLeft(body, "league."); len(left) > 0 {
			t.Errorf("--lang %q, Accept-Language %q: English left: %v", c.lang, c.accept, left)
		}
	}
	if body := get("en", "ja"); !strings.Contains(body, "Four players: 1 games") || strings.Contains(body, "四人打ち") {
		t.Errorf("--lang en with a Japanese browser: not English:\n%s", body)
	}
}
