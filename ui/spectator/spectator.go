// Package spectator is a spectator's table (`mentalmj watch --ui` in the
// browser, `mentalmj watch --table` on the terminal): what a person
// watching a table live sees of it, drawn by the players' own table code.
//
// The model: the public entries a spectator takes from the table's topic
// (package node/spectate, SPEC.md §25), in the host's order, feed a
// protocol.Follower, the public engine of each hand; after every entry
// its Observation feeds a screen.Model made for a spectator
// (screen.NewSpectatorModel), which package ui/web pushes to the page and
// package ui/terminal prints. No seat is the viewer's: all four (three in
// sanma) are drawn alike, each concealed hand as tile backs, since a
// spectator holds no key of a concealed tile — until the hand's keys are
// revealed and audited (Hand): then the audited wall shows every hand
// face up, and the end-of-hand screen gives the audit's verdict. There is
// nothing to decide: the page has no buttons, and a spectator's node
// sends nothing into the game.
package spectator

import (
	"sync"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// Table is one watched table: a Follower and the screen.Model it draws.
// Its methods are safe for concurrent use.
type Table struct {
	mu      sync.Mutex
	f       *protocol.Follower
	m       *screen.Model
	named   bool         // the settings are on the model
	stopped map[int]bool // hands whose entries could no longer be followed
	errs    []error      // why, in order
	done    map[int]bool // hands whose verdict was shown
}

// New returns a table that has seen nothing; links are the records the
// page may offer for download (name → URL path), nil for none.
func New(links map[string]string) *Table {
	return &Table{f: protocol.NewFollower(), m: screen.NewSpectatorModel(links), stopped: map[int]bool{}, done: map[int]bool{}}
}

// Model returns the table's screen.Model (for web.Config.Model or
// terminal output).
func (t *Table) Model() *screen.Model { return t.m }

// Entry takes the game's next public entry, in the host's order, and
// draws the table after it. It returns the Follower's error for an entry
// it cannot follow (the hand's drawing then stops where it was; the
// hand's audit names who is at fault), once per hand.
func (t *Table) Entry(o *protocol.Opened) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.f.Feed(o)
	if err != nil {
		n := int(o.Entry.Hand)
		if t.stopped[n] {
			return nil
		}
		t.stopped[n] = true
		t.errs = append(t.errs, err)
	}
	if !t.named {
		if name, s, ok := t.f.Settings(); ok {
			t.m.SetGameMsg(i18n.M("game.table", name, screen.SettingsMsg(s)))
			t.named = true
		}
	}
	if ob := t.f.Observation(); ob.Hand > 0 && !t.done[ob.Hand] {
		t.m.Observe(ob)
	}
	return err
}

// Hand shows hand a's verdict, once its keys are revealed and the hand
// audited (a is protocol.AuditTranscript's, or AuditHand's, of the
// entries taken): the audited wall turns every concealed hand face up,
// and the end-of-hand screen shows the result and the audit.
func (t *Table) Hand(a *protocol.HandAudit) {
	if a == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done[a.Hand] {
		return
	}
	if a.Yama != nil && t.f.Reveal(a.Hand, a.Yama) == nil {
		if ob := t.f.Observation(); ob.Hand == a.Hand {
			t.m.Observe(ob)
		}
	}
	t.done[a.Hand] = true
	t.m.HandDone(Result(a))
}

// Finish ends the game on the table: st are the final standings (nil if
// the match did not finish as watched); err, if not nil, why the watch
// stopped.
func (t *Table) Finish(st *game.Standings, err error) {
	t.m.Finish(st, err)
}

// Errors returns why hands could no longer be followed, in order.
func (t *Table) Errors() []error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]error(nil), t.errs...)
}

// Result is the hand a spectator audited as a protocol.HandResult, the
// form the players' tables show (screen.Model.HandDone): the seats, the
// match state it started from, its result, wall, blame and faults.
func Result(a *protocol.HandAudit) protocol.HandResult {
	return protocol.HandResult{Number: a.Hand, Seats: a.Seats, Oya: a.Oya, Dice: a.Dice, DoraIndicator: a.DoraIndicator, Yama: a.Yama,
		Start: a.Deal, Result: a.Result, Events: a.Events, Blame: a.Blame, Faults: a.Faults, Aborted: a.Result == nil, TimedOut: a.TimedOut, Record: a.Record}
}
