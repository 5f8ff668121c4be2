package leaguepage

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/stats/league"
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
