package tablerun

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spf13/pflag"

	"github.com/mentalmj/mentalmj/internal/headless"
	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// lockedBuffer is the terminal screen, written by Confirm's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var tableURL = regexp.MustCompile(`table: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+)`)

// TestConfirmInBrowser asks a guest, with --ui, to play a host's game:
// the page shows the game (the settings' Summary, computed here from the
// flags a host would give) with Accept and Decline, and the click
// decides, the terminal's input having ended (no answer there). Accept
// returns true and the page says the guest is meeting the host; Decline
// returns false. MENTALMJ_SCREENSHOT=FILE saves the question's page.
func TestConfirmInBrowser(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("host", pflag.ContinueOnError)
	var sf settings.Flags
	sf.Register(fs, true)
	if err := fs.Parse([]string{"--tonpuu", "--time", "3+6", "--players", "3"}); err != nil {
		t.Fatal(err)
	}
	game, err := sf.Settings(3)
	if err != nil {
		t.Fatal(err)
	}
	want := "bob's table friday: " + game.Summary()
	// The page says the invite's message; in English it is the line
	// invite.Invite.Describe writes (a second code path).
	inv := invite.Invite{Table: "friday", Nick: "bob", Players: 3, Settings: &game}
	if got := i18n.English().Say(InviteMsg(inv)); got != want || inv.Describe() != want {
		t.Fatalf("InviteMsg says %q, Describe %q, want %q", got, inv.Describe(), want)
	}
	if ja, _ := i18n.Load("ja"); !strings.HasPrefix(ja.Say(InviteMsg(inv)), "bobの卓 friday: 3人打ち、東風戦、天鳳ルール") {
		t.Errorf("InviteMsg in Japanese: %q", ja.Say(InviteMsg(inv)))
	}
	for _, c := range []struct {
		button, status string
		yes            bool
	}{
		{"#accept", "you accepted", true},
		{"#decline", "you declined", false},
	} {
		t.Run(c.button[1:], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tb := &Table{Name: "friday", UI: true, NoOpen: true, Play: game}
			defer tb.StopUI()
			var screen lockedBuffer
			type answer struct {
				yes bool
				err error
			}
			done := make(chan answer, 1)
			go func() {
				yes, err := tb.Confirm(ctx, InviteMsg(inv), strings.NewReader(""), &screen)
				done <- answer{yes, err}
			}()
			var url string
			for url == "" {
				if m := tableURL.FindStringSubmatch(screen.String()); m != nil {
					url = m[1]
				} else if ctx.Err() != nil {
					t.Fatalf("no table URL printed: %q", screen.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			bctx := headless.New(t, ctx)
			if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitVisible("#confirm-game")); err != nil {
				t.Fatal(err)
			}
			shown, err := chromedp.Run(bctx, chromedp.Text("#confirm-game"))
			if err != nil {
				t.Fatal(err)
			}
			if shown != want {
				t.Errorf("the page shows %q, want %q", shown, want)
			}
			if p := os.Getenv("MENTALMJ_SCREENSHOT"); p != "" && c.yes {
				png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(p, png, 0o644)
			}
			select {
			case a := <-done:
				t.Fatalf("Confirm returned %v, %v before a click", a.yes, a.err)
			default:
			}
			if err := chromedp.Do(bctx, chromedp.Click(c.button)); err != nil {
				t.Fatal(err)
			}
			a := <-done
			if a.err != nil || a.yes != c.yes {
				t.Fatalf("Confirm = %v, %v; want %v", a.yes, a.err, c.yes)
			}
			if err := chromedp.Do(bctx, chromedp.WaitNotVisible("#confirm")); err != nil {
				t.Fatal(err)
			}
			status, err := chromedp.Run(bctx, chromedp.Text("#status"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(status, c.status) {
				t.Errorf("status after the click %q, want %q", status, c.status)
			}
		})
	}
}

// TestConfirmTerminalFirst answers on the terminal while the page asks:
// "y" accepts, and the page's question goes away.
func TestConfirmTerminalFirst(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tb := &Table{Name: "friday", UI: true, NoOpen: true, Lang: "en"} // the terminal's question in English, whatever LANG says
	defer tb.StopUI()
	var screen lockedBuffer
	yes, err := tb.Confirm(ctx, InviteMsg(invite.Invite{Table: "friday"}), strings.NewReader("y\n"), &screen)
	if err != nil || !yes {
		t.Fatalf("Confirm = %v, %v; want true", yes, err)
	}
	if tb.front.model.Asking() {
		t.Error("the page still asks after the terminal's answer")
	}
	if !strings.Contains(screen.String(), "play this game?") {
		t.Errorf("the terminal did not ask: %q", screen.String())
	}
}
