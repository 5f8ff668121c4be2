package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// TestConfirmAnswerRules sends the node answers it must not take: one from
// a page of another origin (its WebSocket is refused), one without the
// token (refused), and one before anything is asked (a notice; it does
// not answer the question asked later). The page's own answer then
// decides Confirm.
func TestConfirmAnswerRules(t *testing.T) {
	s, m, _ := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := strings.Replace(strings.Replace(s.URL(), "http://", "ws://", 1), "/?token=", "/ws?token=", 1)
	if c, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}}); err == nil {
		c.CloseNow()
		t.Error("a page of another origin opened the table's WebSocket")
	}
	if c, _, err := websocket.Dial(ctx, ws[:strings.Index(ws, "?")], &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + s.Addr()}}}); err == nil {
		c.CloseNow()
		t.Error("a WebSocket without the token was opened")
	}
	c := dial(t, ctx, s)
	next(t, ctx, c, func(screen.Snapshot) bool { return true })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"answer","accept":true}`)); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, c, func(s screen.Snapshot) bool { return strings.Contains(s.Notice, "no question") })

	answer := make(chan bool, 1)
	go func() {
		yes, err := s.Confirm(ctx, i18n.M("game.table", "friday", "4 players"))
		if err != nil {
			t.Error(err)
		}
		answer <- yes
	}()
	next(t, ctx, c, func(s screen.Snapshot) bool { return s.Confirm == "table friday: 4 players" })
	select {
	case yes := <-answer:
		t.Fatalf("Confirm took the answer sent before the question (%v)", yes)
	case <-time.After(50 * time.Millisecond):
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"answer","accept":false}`)); err != nil {
		t.Fatal(err)
	}
	if yes := <-answer; yes {
		t.Error("Confirm = true after the page declined")
	}
	m.Answered(i18n.M("status.declined"))
	if m.Asking() {
		t.Error("the model still asks after Answered")
	}
}
