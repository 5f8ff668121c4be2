package league

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// The four players' certificates of one east-only game played by
// `mentalmj local --tonpuu` are one game, and their result is the one in
// the game's tenhou.net/6 record (its "sc" and "name" fields, written by
// another code path).
func TestRealGame(t *testing.T) {
	games, err := Load([]string{"testdata/tonpuu"})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || len(games[0].Files) != 4 {
		t.Fatalf("%d games, want 1 from 4 files", len(games))
	}
	var rec struct {
		SC   []float64 `json:"sc"`
		Name []string  `json:"name"`
	}
	b, err := os.ReadFile("testdata/tonpuu/game.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if !g.Settings.Tonpuu {
		t.Errorf("settings %v, want tonpuu", g.Settings.Summary())
	}
	for s, pl := range g.Result.Players {
		if pl.Nick != rec.Name[s] || float64(pl.Score) != rec.SC[2*s] || float64(pl.Points) != math.Round(rec.SC[2*s+1]*10) {
			t.Errorf("seat %d: %s %d %d, record %s %v %v", s, pl.Nick, pl.Score, pl.Points, rec.Name[s], rec.SC[2*s], rec.SC[2*s+1])
		}
	}
	st := Compute(games, Ippan)
	if st.ThreePlayer != nil || st.FourPlayer == nil || st.FourPlayer.Games != 1 {
		t.Fatalf("standings %+v", st)
	}
	// One game at a table of four new players: R changes by the placement
	// base alone, and an ippan tonpuu gives 20 and 10 dan points.
	want := map[int]struct {
		rate float64
		dan  int
	}{1: {1530, 20}, 2: {1510, 10}, 3: {1490, 0}, 4: {1470, 0}}
	for _, p := range st.FourPlayer.Players {
		place := 0
		for i, c := range p.Placements {
			if c == 1 {
				place = i + 1
			}
		}
		w := want[place]
		if p.Rate != w.rate || *p.DanPoints != w.dan && !(place == 1 && p.Dan == "9級" && *p.DanPoints == 0) {
			t.Errorf("%s placed %d: R %v dan %s %d, want R %v", p.Name, place, p.Rate, p.Dan, *p.DanPoints, w.rate)
		}
	}
}

// player is a test identity.
type player struct {
	key crypto.PrivKey
	id  peer.ID
}

func newPlayers(t testing.TB, n int) []player {
	ps := make([]player, n)
	for i := range ps {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		ps[i] = player{k, id}
	}
	return ps
}

// certify returns a certificate of a game of ps (seat order) finished in
// placement order places (1-based, by seat), ended at end, signed by
// every player (tamper may change the result before it is signed).
func certify(t testing.TB, ps []player, gameID byte, places []int, tonpuu bool, end time.Time, tamper func(*pb.Result)) []byte {
	s := settings.Default()
	s.Players, s.Tonpuu = len(ps), tonpuu
	r := &pb.Result{Version: protocol.Version, Table: "t", GameId: make([]byte, 32), Settings: s.Proto(), Hands: 8}
	r.GameId[0] = gameID
	points := map[int][]int32{4: {500, 100, -200, -400}, 3: {400, 0, -400}}[len(ps)]
	for i, p := range ps {
		r.Players = append(r.Players, &pb.ResultPlayer{Peer: []byte(p.id), Nick: fmt.Sprintf("p%d", i), Score: int32(40000 - 10000*places[i]),
			Placement: uint32(places[i]), Points: points[places[i]-1], LastEntry: make([]byte, 32)})
	}
	if tamper != nil {
		tamper(r)
	}
	rb, err := proto.MarshalOptions{Deterministic: true}.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	c := &pb.Certificate{Result: rb}
	for _, p := range ps {
		s, err := protocol.SignResult(p.key, rb, end)
		if err != nil {
			t.Fatal(err)
		}
		c.Signatures = append(c.Signatures, s)
	}
	b, err := proto.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Forged, partial, malformed and conflicting certificates are refused,
// each naming its file; the good ones still load.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	ps := newPlayers(t, 4)
	end := time.Date(2026, 11, 1, 20, 0, 0, 0, time.UTC)
	write(t, dir, "good.cert", certify(t, ps, 1, []int{1, 2, 3, 4}, false, end, nil))

	// Forged: a result changed after it was signed.
	forged := certify(t, ps, 2, []int{1, 2, 3, 4}, false, end, nil)
	var c pb.Certificate
	proto.Unmarshal(forged, &c)
	var r pb.Result
	proto.Unmarshal(c.Result, &r)
	r.Players[0].Placement, r.Players[3].Placement = 4, 1
	r.Players[0].Score, r.Players[3].Score = 0, 30000
	r.Players[0].Points, r.Players[3].Points = -400, 500
	c.Result, _ = proto.MarshalOptions{Deterministic: true}.Marshal(&r)
	b, _ := proto.Marshal(&c)
	write(t, dir, "forged.cert", b)

	// Partial: one signature left out.
	proto.Unmarshal(certify(t, ps, 3, []int{1, 2, 3, 4}, false, end, nil), &c)
	c.Signatures = c.Signatures[:3]
	b, _ = proto.Marshal(&c)
	write(t, dir, "partial.cert", b)

	// A signature by a stranger in seat 2's place.
	stranger := newPlayers(t, 1)[0]
	proto.Unmarshal(certify(t, ps, 4, []int{1, 2, 3, 4}, false, end, nil), &c)
	c.Signatures[2], _ = protocol.SignResult(stranger.key, c.Result, end)
	b, _ = proto.Marshal(&c)
	write(t, dir, "stranger.cert", b)

	// Signed by all, but impossible: two first places.
	write(t, dir, "twofirst.cert", certify(t, ps, 5, []int{1, 1, 3, 4}, false, end, nil))

	// Conflicting: game 6 certified with two different results.
	write(t, dir, "a-six.cert", certify(t, ps, 6, []int{1, 2, 3, 4}, false, end, nil))
	write(t, dir, "b-six.cert", certify(t, ps, 6, []int{2, 1, 3, 4}, false, end, nil))

	write(t, dir, "junk.cert", []byte("not a certificate"))

	games, err := Load([]string{dir})
	if len(games) != 1 || games[0].Result.GameId[0] != 1 {
		t.Errorf("loaded %d games, want the good one", len(games))
	}
	for _, name := range []string{"forged.cert", "partial.cert", "stranger.cert", "twofirst.cert", "a-six.cert", "b-six.cert", "junk.cert"} {
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, name)+":") {
			t.Errorf("error does not name %s: %v", name, err)
		}
	}
	if !errors.Is(err, protocol.ErrSignature) || !errors.Is(err, ErrConflict) {
		t.Errorf("error %v: want a signature error and a conflict", err)
	}
	if strings.Contains(err.Error(), "good.cert") {
		t.Errorf("good.cert refused: %v", err)
	}
}

// Tenhou's R over two games, computed by hand: game 1, four new players,
// changes by the base alone (+30, +10, −10, −30); game 2, the same four
// in reverse order: A (1530, 1 game) last: 0.998 × (−30 + (1500 − 1530)/40)
// = 0.998 × −30.75 = −30.6885; D (1470) first: 0.998 × (30 + 0.75) =
// 30.6885; B (1510) third: 0.998 × (−10 − 0.25) = −10.2295; C (1490)
// second: 0.998 × (10 + 0.25) = 10.2295. A fifth player's first game in
// a three-player table uses +30/0/−30.
func TestRate(t *testing.T) {
	ps := newPlayers(t, 4)
	t0 := time.Date(2026, 11, 1, 20, 0, 0, 0, time.UTC)
	var games []Game
	for i, places := range [][]int{{1, 2, 3, 4}, {4, 3, 2, 1}} {
		c, err := protocol.CheckCertificate(certify(t, ps, byte(i+1), places, false, t0.Add(time.Duration(i)*time.Hour), nil))
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, Game{Certified: c})
	}
	// Given out of order: Compute orders by time.
	games[0], games[1] = games[1], games[0]
	st := Compute(games, Ippan)
	want := map[string]float64{ps[0].id.String(): 1530 - 30.6885, ps[1].id.String(): 1510 - 10.2295, ps[2].id.String(): 1490 + 10.2295, ps[3].id.String(): 1470 + 30.6885}
	for _, p := range st.FourPlayer.Players {
		if math.Abs(p.Rate-want[p.PeerID]) > 1e-9 {
			t.Errorf("%s: R %v, want %v", p.Name, p.Rate, want[p.PeerID])
		}
		if p.Games != 2 {
			t.Errorf("%s: %d games", p.Name, p.Games)
		}
	}
	// Last by R is A (1499.31), with 50.0 − 40.0 points, as certified.
	if p := st.FourPlayer.Players[len(st.FourPlayer.Players)-1]; p.PeerID != ps[0].id.String() || p.Points != 10 {
		t.Errorf("last by R: %s with %v points", p.Name, p.Points)
	}
	if got := gamesAdjustment(399); math.Abs(got-0.202) > 1e-12 {
		t.Errorf("adjustment at 399 games %v, want 0.202", got)
	}
	if got := gamesAdjustment(400); got != 0.2 {
		t.Errorf("adjustment at 400 games %v, want 0.2", got)
	}
	three := newPlayers(t, 3)
	c, err := protocol.CheckCertificate(certify(t, three, 9, []int{2, 1, 3}, true, t0, nil))
	if err != nil {
		t.Fatal(err)
	}
	st = Compute([]Game{{Certified: c}}, Ippan)
	if st.FourPlayer != nil || st.ThreePlayer.Players[0].Rate != 1530 || st.ThreePlayer.Players[1].Rate != 1500 || st.ThreePlayer.Players[2].Rate != 1470 {
		t.Errorf("three players: %+v", st.ThreePlayer)
	}
	if st.ThreePlayer.Players[0].DanPoints != nil {
		t.Errorf("three-player dan points given")
	}
}

// Dan points, worked by hand from Tenhou's table: a new player who wins
// ippan hanchan after hanchan gets 30 each (新人's target 20 promotes at
// once, to 9級's base 0); a 初段 at 200 that comes fourth in a houou
// tonpuu loses 30, and in a hanchan 45; a 初段 at 20 that comes fourth
// drops to 1級 at its base 0; a 1級 at 10 that comes fourth in a hanchan
// (−30) stays 1級 at 0; a 十段 at 3990 that wins a tokujou hanchan (+75)
// becomes 天鳳位.
func TestDan(t *testing.T) {
	d := Dan{}
	for range 3 {
		d = d.after(Ippan, false, 1)
	}
	if d != (Dan{Rank: 3, Points: 0}) || d.Name() != "7級" {
		t.Errorf("three ippan hanchan wins: %s %d", d.Name(), d.Points)
	}
	for _, c := range []struct {
		from   Dan
		room   Room
		tonpuu bool
		place  int
		want   Dan
	}{
		{Dan{firstDan, 200}, Houou, true, 4, Dan{firstDan, 170}},
		{Dan{firstDan, 200}, Houou, false, 4, Dan{firstDan, 155}},
		{Dan{firstDan, 20}, Ippan, true, 4, Dan{firstDan - 1, 0}},
		{Dan{firstDan - 1, 10}, Ippan, false, 4, Dan{firstDan - 1, 0}},
		{Dan{firstDan + 9, 3990}, Tokujou, false, 1, Dan{tenhoui, 0}},
		{Dan{firstDan + 1, 500}, Joukyuu, false, 2, Dan{firstDan + 1, 515}},
		{Dan{firstDan + 1, 500}, Joukyuu, true, 3, Dan{firstDan + 1, 500}},
	} {
		if got := c.from.after(c.room, c.tonpuu, c.place); got != c.want {
			t.Errorf("%s %d, %s tonpuu=%v, place %d: %s %d, want %s %d", c.from.Name(), c.from.Points, c.room, c.tonpuu, c.place, got.Name(), got.Points, c.want.Name(), c.want.Points)
		}
	}
}

// The JSON form is {"four_player": L, "three_player": L} with L null or
// {"games", "players": [{"name", "peer_id", "games", "placements",
// "points", "rate", "dan_points"}…]}.
func TestJSON(t *testing.T) {
	games, err := Load([]string{"testdata/tonpuu"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(Compute(games, Ippan))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(b, &got)
	if got["three_player"] != nil {
		t.Errorf("three_player %v, want null", got["three_player"])
	}
	l, _ := got["four_player"].(map[string]any)
	if l == nil || l["games"] != 1.0 {
		t.Fatalf("four_player %v", got["four_player"])
	}
	for _, p := range l["players"].([]any) {
		m := p.(map[string]any)
		for _, k := range []string{"name", "peer_id", "games", "placements", "points", "rate", "dan_points"} {
			if _, ok := m[k]; !ok {
				t.Errorf("player without %q: %v", k, m)
			}
		}
	}
}
