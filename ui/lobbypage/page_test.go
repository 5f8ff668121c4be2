package lobbypage

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node/lobby"
	"github.com/mentalmj/mentalmj/node/lobby/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
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
