package terminal

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/watchfixture"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/spectator"
)

// TestSpectatorText prints a spectator's text table of two hands of a
// bot game fed entry by entry (package ui/spectator): each hand's table
// at its deal shows every seat's concealed hand as backs (#) only, 13 or
// 14 of them; the table printed with the end-of-hand summary shows every
// hand face up (no #) and the summary the audit's verdict; no line asks
// anything of the spectator. In Japanese the table lacks no message.
func TestSpectatorText(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g, err := watchfixture.Play(ctx, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"en", "ja"} {
		var out bytes.Buffer
		tb := spectator.New(nil)
		term := NewSpectator(&out, tb.Model())
		l, err := i18n.Load(code)
		if err != nil {
			t.Fatal(err)
		}
		term.SetLang(l)
		f := watchfixture.NewFeeder(g, tb)
		for !f.Done() {
			if _, err := f.Step(); err != nil {
				t.Fatal(err)
			}
			term.Update()
		}
		text := out.String()
		concealed := l.T("term.concealed")
		end := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(strings.SplitN(l.T("term.end", 1, "", 0, ""), "1", 2)[0]))
		parts := end.Split(text, -1) // before each end-of-hand summary
		if len(parts) != 3 {
			t.Fatalf("%s: %d end-of-hand summaries, want 2:\n%s", code, len(parts)-1, text)
		}
		line := regexp.MustCompile(`(?m)^ +` + regexp.QuoteMeta(concealed) + `: (.*)$`)
		for h, part := range parts[:2] {
			tables := strings.Split(part, "\n\n")
			var dealt, revealed []string
			for _, m := range line.FindAllStringSubmatch(part, -1) {
				if strings.Contains(m[1], "#") {
					dealt = append(dealt, m[1])
				} else {
					revealed = append(revealed, m[1])
				}
			}
			if len(dealt) != 4 || len(revealed) != 4 {
				t.Fatalf("%s, hand %d: %d seats with backs at the deal, %d face up after the reveal (want 4 and 4) in %d tables:\n%s", code, h+1, len(dealt), len(revealed), len(tables), part)
			}
			for _, d := range dealt {
				if n := strings.Count(d, "#"); strings.Trim(d, "# ") != "" || n < 13 || n > 14 {
					t.Errorf("%s, hand %d: a concealed hand at the deal shows %q", code, h+1, d)
				}
			}
		}
		if !strings.Contains(text, l.T("term.spectator")) {
			t.Errorf("%s: no spectator line", code)
		}
		if strings.Contains(text, "‹") || regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(l.T("term.hand"))+":").MatchString(text) {
			t.Errorf("%s: a missing message or a hand of one's own:\n%s", code, text)
		}
		if code == "en" && strings.Count(text, "audit: wall verified") != 2 {
			t.Errorf("the summaries do not give two verified audits:\n%s", text)
		}
	}
}
