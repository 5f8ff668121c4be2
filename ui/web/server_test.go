package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

func startServer(t *testing.T) (*Server, *screen.Model, *Player) {
	t.Helper()
	m := screen.NewModel(nil)
	p := NewPlayer(m)
	s, err := Listen(Config{Model: m, Player: p, Downloads: map[string]Download{
		"transcript": {File: "t.mjt", Type: "application/octet-stream", Write: func(w io.Writer) error { _, err := io.WriteString(w, "TRANSCRIPT"); return err }},
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go s.Serve(ctx)
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Fatalf("server listens on %s, want 127.0.0.1 only", s.Addr())
	}
	return s, m, p
}

// TestGuard checks that only requests with the token, for the server's
// own host and origin, are answered.
func TestGuard(t *testing.T) {
	s, _, _ := startServer(t)
	base := "http://" + s.Addr()
	tok := strings.TrimPrefix(s.URL(), base+"/?token=")
	cases := []struct {
		name, path, host, origin string
		want                     int
	}{
		{"no token", "/", "", "", 403},
		{"wrong token", "/?token=00", "", "", 403},
		{"token", "/?token=" + tok, "", "", 200},
		{"asset with token", "/assets/app.js?token=" + tok, "", "", 200},
		{"asset without token", "/assets/app.js", "", "", 403},
		{"download", "/download/transcript?token=" + tok, "", "", 200},
		{"foreign host", "/?token=" + tok, "evil.example", "", 403},
		{"rebinding host", "/?token=" + tok, "evil.example:" + strings.Split(s.Addr(), ":")[1], "", 403},
		{"localhost", "/?token=" + tok, "localhost:" + strings.Split(s.Addr(), ":")[1], "", 200},
		{"foreign origin", "/?token=" + tok, "", "http://evil.example", 403},
		{"own origin", "/?token=" + tok, "", base, 200},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", base+c.path, nil)
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d (%s)", c.name, resp.StatusCode, c.want, body)
		}
		if c.name == "download" && string(body) != "TRANSCRIPT" {
			t.Errorf("download served %q", body)
		}
	}
}

// dial opens the page's WebSocket as the page would.
func dial(t *testing.T, ctx context.Context, s *Server) *websocket.Conn {
	t.Helper()
	u := strings.Replace(s.URL(), "http://", "ws://", 1)
	u = strings.Replace(u, "/?token=", "/ws?token=", 1)
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + s.Addr()}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// next reads snapshots until one satisfies ok.
func next(t *testing.T, ctx context.Context, c *websocket.Conn, ok func(screen.Snapshot) bool) screen.Snapshot {
	t.Helper()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("reading the feed: %v", err)
		}
		var s screen.Snapshot
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if ok(s) {
			return s
		}
	}
}

// TestForgedAndStaleActions sends the node a click for an old decision and
// one for an option that does not exist: each gets a notice and changes
// nothing; a page that reconnects gets the current decision, and its
// valid click is the action the protocol receives.
func TestForgedAndStaleActions(t *testing.T) {
	s, m, p := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var d game.Deal
	d.Scores = [4]int{25000, 25000, 25000, 25000}
	for q := range 4 {
		for i := range 13 {
			d.Haipai[q] = append(d.Haipai[q], wall.Tile(13*q+i))
		}
	}
	d.DoraIndicator = 135
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Draw(60); err != nil {
		t.Fatal(err)
	}
	m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, View: k.Clone()})
	type result struct {
		a   game.Action
		err error
	}
	done := make(chan result, 1)
	go func() {
		a, err := p.Act(ctx, k.Clone(), 0)
		done <- result{a, err}
	}()
	c := dial(t, ctx, s)
	snap := next(t, ctx, c, func(s screen.Snapshot) bool { return s.Decision != nil })
	dec := snap.Decision
	send := func(v any) {
		b, _ := json.Marshal(v)
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"type": "act", "decision": dec.ID - 1, "option": 0})
	got := next(t, ctx, c, func(s screen.Snapshot) bool { return s.Notice != "" })
	if !strings.Contains(got.Notice, "earlier decision") || got.Decision == nil || got.Decision.ID != dec.ID {
		t.Errorf("stale click: notice %q, decision %+v", got.Notice, got.Decision)
	}
	send(map[string]any{"type": "act", "decision": dec.ID, "option": 999})
	got = next(t, ctx, c, func(s screen.Snapshot) bool { return strings.Contains(s.Notice, "999") })
	if got.Decision == nil {
		t.Error("a forged option ended the decision")
	}
	c.Write(ctx, websocket.MessageText, []byte("{not json"))
	next(t, ctx, c, func(s screen.Snapshot) bool { return strings.Contains(s.Notice, "unreadable") })
	select {
	case r := <-done:
		t.Fatalf("Act returned %v, %v after bad clicks", r.a, r.err)
	default:
	}
	// A reload: a new connection gets the current state at once.
	c.CloseNow()
	c2 := dial(t, ctx, s)
	again := next(t, ctx, c2, func(screen.Snapshot) bool { return true })
	if again.Decision == nil || again.Decision.ID != dec.ID || again.Seq != m.Snapshot().Seq {
		t.Fatalf("after reconnecting: decision %+v seq %d, model seq %d", again.Decision, again.Seq, m.Snapshot().Seq)
	}
	want := dec.Options[len(dec.Options)-1]
	b, _ := json.Marshal(map[string]any{"type": "act", "decision": dec.ID, "option": want.ID})
	c2.Write(ctx, websocket.MessageText, b)
	r := <-done
	if r.err != nil || r.a.Type != game.Discard || int(r.a.Tile) != want.Tile {
		t.Fatalf("Act = %v, %v; want %s", r.a, r.err, want.Label)
	}
	legal := false
	for _, a := range k.LegalActions(0) {
		legal = legal || a.Type == r.a.Type && a.Tile == r.a.Tile && a.Riichi == r.a.Riichi
	}
	if !legal {
		t.Errorf("Act returned %s, not among the engine's legal actions", r.a)
	}
}

// TestTimeoutNotice lets a decision's context expire: Act returns the
// context's error (the protocol then acts) and the page is told what the
// node chose.
func TestTimeoutNotice(t *testing.T) {
	_, m, p := startServer(t)
	k := discardKyoku(m)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := p.Act(ctx, k.Clone(), 0); err == nil {
		t.Fatal("Act returned no error after its deadline")
	}
	s := m.Snapshot()
	if s.Decision != nil || !strings.Contains(s.Notice, "the node chose discard 7p for you") {
		t.Errorf("after the timeout: decision %+v, notice %q", s.Decision, s.Notice)
	}
}

// discardKyoku returns a kyoku in which seat 0 has drawn 7p (tile 60)
// and must discard, shown on m.
func discardKyoku(m *screen.Model) *game.Kyoku {
	var d game.Deal
	d.Scores = [4]int{25000, 25000, 25000, 25000}
	for q := range 4 {
		for i := range 13 {
			d.Haipai[q] = append(d.Haipai[q], wall.Tile(13*q+i))
		}
	}
	d.DoraIndicator = 135
	k, _ := game.NewKyoku(game.TenhouRules(true, true, true), d)
	k.Draw(60)
	m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, View: k.Clone()})
	return k
}
