package screen

import (
	"fmt"
	"slices"
	"time"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/wall"
)

// Option is one legal action offered to the player.
type Option struct {
	// ID is the option's index in Decision.Options.
	ID int `json:"id"`
	// Kind is "discard", "riichi" (a discard declaring riichi), "tsumo",
	// "ron", "chi", "pon", "daiminkan", "ankan", "kakan", "pass",
	// "kyuushu", "tenpai" or "noten".
	Kind string `json:"kind"`
	// Tile is the discarded or added tile (-1 if none); Tiles the hand
	// tiles a call or ankan uses.
	Tile  int   `json:"tile"`
	Tiles []int `json:"tiles"`
	// Label is the action in words ("pon 5p (5p0p)", "pon West (West
	// West)": honours by name, Words).
	Label string `json:"label"`
	// Action is the engine action the option stands for.
	Action game.Action `json:"-"`
}

// Decision is one choice the player must make.
type Decision struct {
	// ID increases with every decision of the game, so a late answer to
	// an old one is told apart.
	ID int `json:"id"`
	// Options are the legal actions in a fixed order: wins, kyuushu, kans,
	// pon, chi, the riichi discards, pass, tenpai/noten, then the plain
	// discards in the order the hand is shown (sorted, the drawn tile
	// last).
	Options []Option `json:"options"`
	// Default is the option the node takes when the time runs out.
	Default int `json:"default"`
	// Deadline is when the node acts for the player (Unix ms; 0 none).
	Deadline int64 `json:"deadline"`
	// BaseDeadline is when the decision's free time (the BASE of the
	// seat's time control BASE+BANK) ends and the bank starts to run
	// (Unix ms; 0 without a time control); BankMs is the bank left when
	// the decision was shown, in ms.
	BaseDeadline int64 `json:"base_deadline,omitempty"`
	BankMs       int64 `json:"bank_ms,omitempty"`
}

// Countdown returns the time left of d at now as a player reads it:
// "4 s + bank 10 s" while the free time runs, "bank 7 s" once it is used,
// "12 s" without a time control, "" without a deadline.
func (d Decision) Countdown(now time.Time) string { return d.CountdownIn(now, nil) }

// CountdownIn is Countdown in language l (nil: English; Japanese
// "4秒 + 考慮10秒"), from the catalogue's countdown.base, .bank and
// .plain.
func (d Decision) CountdownIn(now time.Time, l *i18n.Lang) string {
	ms := now.UnixMilli()
	secs := func(v int64) int64 { return (max(v, 0) + 999) / 1000 }
	switch {
	case d.BaseDeadline > 0 && ms < d.BaseDeadline:
		return l.T("countdown.base", secs(d.BaseDeadline-ms), secs(d.BankMs))
	case d.BaseDeadline > 0:
		return l.T("countdown.bank", secs(d.Deadline-ms))
	case d.Deadline > 0:
		return l.T("countdown.plain", secs(d.Deadline-ms))
	}
	return ""
}

var kindOrder = map[string]int{"tsumo": 0, "ron": 1, "kyuushu": 2, "ankan": 3, "kakan": 4, "daiminkan": 5, "pon": 6, "chi": 7, "riichi": 8, "pass": 9, "tenpai": 10, "noten": 11, "discard": 12}

func optionKind(a game.Action) string {
	switch a.Type {
	case game.Discard:
		if a.Riichi {
			return "riichi"
		}
		return "discard"
	case game.TsumoAgari:
		return "tsumo"
	case game.KyuushuKyuuhai:
		return "kyuushu"
	}
	return a.Type.String()
}

// Options returns seat s's legal actions in view as Options in the order
// Decision.Options describes, actions that read the same at the table (a
// discard of either of two identical tiles; under no red fives, of a
// 5p whatever its id) once; labels name red fives as view's rules play
// them (game.Action.Format). hand is the displayed hand order
// (MyHand then Drawn) that orders the discards.
func Options(view *game.Kyoku, s game.Seat, hand []int) []Option {
	var out []Option
	seen := map[string]bool{}
	reds := view.Rules().Hand.Reds()
	for _, a := range view.LegalActions(s) {
		l := a.Format(reds)
		if seen[l] {
			continue
		}
		seen[l] = true
		o := Option{Kind: optionKind(a), Tile: -1, Label: Words(l), Action: a}
		if a.Type == game.Discard || a.Type == game.Kakan {
			o.Tile = int(a.Tile)
		}
		if a.Type == game.Chi || a.Type == game.Pon || a.Type == game.Daiminkan || a.Type == game.Ron {
			if t, _, _, _, ok := view.Offer(); ok {
				o.Tile = int(t)
			}
		}
		o.Tiles = ids(a.Tiles)
		out = append(out, o)
	}
	place := func(t int) int {
		if i := slices.Index(hand, t); i >= 0 {
			return i
		}
		return len(hand) + t
	}
	slices.SortStableFunc(out, func(a, b Option) int {
		if d := kindOrder[a.Kind] - kindOrder[b.Kind]; d != 0 {
			return d
		}
		if a.Kind == "discard" || a.Kind == "riichi" {
			return place(a.Tile) - place(b.Tile)
		}
		return 0
	})
	for i := range out {
		out[i].ID = i
	}
	return out
}

// DefaultOption returns the index in opts of act, the action the node
// takes for the player on a timeout (see protocol.Tsumogiri), or -1;
// reds are the table's red fives (Options merged the discards that read
// the same under them).
func DefaultOption(opts []Option, act game.Action, reds wall.Reds) int {
	for i, o := range opts {
		a := o.Action
		same := a.Tile.Kind() == act.Tile.Kind() && reds.Has(a.Tile) == reds.Has(act.Tile) // identical tiles were merged
		if a.Type == act.Type && a.Riichi == act.Riichi && (a.Type != game.Discard || same) {
			return i
		}
	}
	return -1
}

// countFrom sets d's countdown as of now: the node acts for the player at
// deadline (its hard bound; zero none) or when the clock st runs out,
// whichever comes first, and without a running clock at deadline.
func (d *Decision) countFrom(now, deadline time.Time, st timecontrol.State) {
	d.Deadline, d.BaseDeadline, d.BankMs = deadlineMs(deadline), 0, 0
	if !st.Running {
		return
	}
	d.BaseDeadline = now.Add(st.Base).UnixMilli()
	d.BankMs = st.Bank.Milliseconds()
	if end := now.Add(st.Base + st.Bank); deadline.IsZero() || end.Before(deadline) {
		d.Deadline = end.UnixMilli()
	}
}

func deadlineMs(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// KindName returns a tile kind's name ("5m", "7z").
func KindName(k int) string {
	if k < 0 || k >= wall.NumKinds {
		return fmt.Sprintf("?%d", k)
	}
	return wall.Kind(k).String()
}
