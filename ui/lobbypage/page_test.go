package lobbypage

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node/lobby"
	"github.com/mentalmj/mentalmj/node/lobby/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// The page lists each table with its settings, seats and join line, and
// says so when there is none.
func TestPage(t *testing.T) {
	_, pub, _ := crypto.GenerateEd25519Key(nil)
	id, _ := peer.IDFromPublicKey(pub)
	s := settings.Default()
	var tables []lobby.Table
	h := Handler(func() []lobby.Table { return tables }, "")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if !strings.Contains(rec.Body.String(), "No open table") {
		t.Errorf("empty lobby: %s", rec.Body.String())
	}
	tables = []lobby.Table{{Announcement: &pb.Announcement{Nick: "alice", Table: "friday", FreeSeats: 2, Invite: "mmj1abc", Spectators: 5}, Host: id, Settings: s}}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	body := rec.Body.String()
	for _, want := range []string{"friday", "alice", id.String(), "2 of 4 seats free", "up to 5 spectators", "mentalmj join mmj1abc", "4 players, hanchan, Tenhou rules"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestPageJapanese: the page speaks Japanese when the browser asks for it
// (Accept-Language) and when --lang ja forces it over an English browser,
// empty and with a table, with no English message of the page left (i18n
// EnglishLeft); --lang en keeps a Japanese browser's page in English.
func TestPageJapanese(t *testing.T) {
	_, pub, _ := crypto.GenerateEd25519Key(nil)
	id, _ := peer.IDFromPublicKey(pub)
	ja, err := i18n.Load("ja")
	if err != nil {
		t.Fatal(err)
	}
	games := 12
	one := []lobby.Table{{Announcement: &pb.Announcement{Nick: "alice", Table: "friday", FreeSeats: 2, Invite: "mmj1abc", Spectators: 5,
		League: &pb.LeagueFigures{Games: uint32(games), RateCenti: 153000, Dan: "初段"}}, Host: id, Settings: settings.Default()}}
	get := func(tables []lobby.Table, lang, accept string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Language", accept)
		Handler(func() []lobby.Table { return tables }, lang).ServeHTTP(rec, req)
		return rec.Body.String()
	}
	for _, c := range []struct{ lang, accept string }{{"", "ja,en;q=0.5"}, {"ja", "en-GB"}} {
		empty := get(nil, c.lang, c.accept)
		if !strings.Contains(empty, "募集中の卓はまだありません") {
			t.Errorf("--lang %q, Accept-Language %q, no table: %s", c.lang, c.accept, empty)
		}
		body := get(one, c.lang, c.accept)
		for _, want := range []string{`<html lang="ja">`, "主催 alice", "空席 2／4", "観戦 最大5人", "主催者のリーグ成績：12戦 R1530 初段", "mentalmj join mmj1abc", "4人打ち、半荘戦、天鳳ルール（赤あり、喰いタンあり）"} {
			if !strings.Contains(body, want) {
				t.Errorf("--lang %q, Accept-Language %q: page lacks %q", c.lang, c.accept, want)
			}
		}
		// The words, not the style and markup (.table, class="table").
		text := regexp.MustCompile(`(?s)<style>.*?</style>|<[^>]*>`).ReplaceAllString(empty+body, " ")
		if left := ja.EnglishLeft(text, "lobby.", "game."); len(left) > 0 {
			t.Errorf("--lang %q, Accept-Language %q: English left: %v", c.lang, c.accept, left)
		}
	}
	if body := get(one, "en", "ja"); !strings.Contains(body, "2 of 4 seats free") || !strings.Contains(body, "host&#39;s league: 12 games, R 1530, 初段") || strings.Contains(body, "空席") {
		t.Errorf("--lang en with a Japanese browser: not English:\n%s", body)
	}
}
