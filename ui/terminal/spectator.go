package terminal

import (
	"fmt"
	"io"
	"sync"

	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// Spectator is the text table of a spectator (`mentalmj watch --table`):
// it prints a spectator's screen.Model (screen.NewSpectatorModel, fed by
// package ui/spectator) as the players' terminal table prints theirs —
// the whole table when a hand's play starts, every seat's concealed hand
// as backs (#), then the feed's events as they come, and after the hand's
// key reveal and audit the table again with every hand face up and the
// end-of-hand summary with the audit's verdict. It reads nothing: a
// spectator has nothing to decide.
type Spectator struct {
	model *screen.Model
	lang  *i18n.Lang

	mu     sync.Mutex
	out    io.Writer
	banner bool // the spectator line was printed
	shown  int  // events of the feed already printed
	dealt  int  // the last hand whose table was printed at its deal
	hands  int  // end-of-hand summaries printed
}

// NewSpectator returns a spectator's text table of model, written to out.
func NewSpectator(out io.Writer, model *screen.Model) *Spectator {
	return &Spectator{model: model, out: out}
}

// SetLang makes the table speak l (package i18n); nil is English.
func (t *Spectator) SetLang(l *i18n.Lang) { t.lang = l }

// Update prints what changed on the model since the last call: call it
// after every entry the model was fed and after every hand's verdict.
func (t *Spectator) Update() {
	s := t.model.Snapshot()
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.banner {
		t.banner = true
		fmt.Fprintf(t.out, "%s\n", t.lang.T("term.spectator"))
	}
	for _, e := range s.Feed {
		if e.N <= t.shown {
			continue
		}
		t.shown = e.N
		if e.Kind == "draw" || e.Kind == "audit" {
			continue // a spectator sees no draw; the audit is in the summary
		}
		text := e.Text
		if e.Msg != nil && t.lang != nil && t.lang.Code != i18n.Reference {
			text = t.lang.Say(*e.Msg)
		}
		fmt.Fprintf(t.out, "  · %s\n", text)
	}
	if s.State == screen.StatePlaying && s.Hand > t.dealt && s.Players > 0 {
		t.dealt = s.Hand
		writeTable(t.out, s, nil, t.lang)
	}
	for ; t.hands < len(s.Hands); t.hands++ {
		writeTable(t.out, s, nil, t.lang)
		writeSummary(t.out, s, s.Hands[t.hands], t.lang)
	}
}
