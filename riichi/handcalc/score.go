package handcalc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
)

// Result is the value of one win, or why there is none. Its JSON form is
// one line of "mentalmj score --json" output.
type Result struct {
	// OK is true when the hand wins; Error says why not otherwise, and the
	// other fields are zero.
	OK bool `json:"ok"`
	// Han is the total han (13 per yakuman for yakuman hands); Fu the fu of
	// the reading kept (Tenhou's: most yakuman, then points, han, fu).
	Han int `json:"han"`
	Fu  int `json:"fu"`
	// Points is what the winner receives for the hand, without honba and
	// riichi deposits (Tenhou's ten= second field).
	Points int `json:"points"`
	// Limit names the limit reached: "", "mangan", "haneman", "baiman",
	// "sanbaiman", "kazoe yakuman" or "yakuman".
	Limit string `json:"limit,omitempty"`
	// Payments are who pays what, honba included: one "discarder" entry for
	// a ron, one entry per other seat (by seat wind, E the dealer) for a
	// tsumo.
	Payments []Payment `json:"payments"`
	// Yaku are the yaku in Tenhou's order, with their han; dora, aka dora
	// and ura dora (shown with riichi even at 0) come last. A yakuman hand
	// lists its yakuman at 13 han per yakuman each is worth.
	Yaku []Yaku `json:"yaku"`
	// Yakuman is the number of yakuman the hand is paid as
	// (riichi.Rules.YakumanCount: a double yakuman counts 2 under
	// double-yakuman rules; 0 for a kazoe yakuman).
	Yakuman int `json:"yakuman"`
	// Error is the reason the hand does not win or the request is
	// malformed; "" when OK.
	Error string `json:"error,omitempty"`
}

// Payment is one payer's share of a win, in points, honba included.
type Payment struct {
	// Payer is "discarder" for a ron, else the payer's seat wind "E", "S",
	// "W" or "N".
	Payer string `json:"payer"`
	// Points is what the payer pays.
	Points int `json:"points"`
}

// Yaku is one yaku of a win: its name as Tenhou's English UI shows it
// (riichi.YakuName, e.g. "Riichi", "Menzen tsumo", "Yakuhai Chun", "Akadora"),
// its han and its Tenhou yaku id (the numbering of mjlog <AGARI yaku=>,
// riichi.Yaku*).
type Yaku struct {
	Name string `json:"name"`
	Han  int    `json:"han"`
	ID   int    `json:"id"`
}

// limitNames are the names of Tenhou's limit codes 0..5.
var limitNames = [...]string{"", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"}

// windNames are the seat winds' letters, East first.
var windNames = [...]string{"E", "S", "W", "N"}

// Score scores one request under its rules. It returns the Result, or an
// error wrapping ErrMalformed (the request is not a possible win; the
// message names the field) or ErrNoWin (not complete, or no yaku; for a
// tenpai hand the message lists its waits).
func Score(req Request) (Result, error) {
	return score(&req, nil)
}

// score is Score with the rules resolved through memo (nil: always).
func score(req *Request, memo *rulesMemo) (Result, error) {
	w, err := parse(req, memo)
	if err != nil {
		return Result{}, err
	}
	res, err := riichi.Score(w.ctx)
	switch {
	case errors.Is(err, riichi.ErrInvalidHand):
		return Result{}, malformed("%s", strings.TrimPrefix(err.Error(), riichi.ErrInvalidHand.Error()+": "))
	case errors.Is(err, riichi.ErrNotComplete):
		return Result{}, fmt.Errorf("%w: %s", ErrNoWin, notComplete(&w.ctx))
	case errors.Is(err, riichi.ErrNoYaku):
		return Result{}, fmt.Errorf("%w: no yaku (dora alone do not count)", ErrNoWin)
	case err != nil:
		return Result{}, err
	}
	return result(&w, &res), nil
}

// notComplete explains an incomplete hand: its waits when the hand
// without the winning tile is tenpai.
func notComplete(ctx *riichi.WinContext) string {
	before := riichi.CountsOf(ctx.Hand)
	before[ctx.WinTile.Kind()]--
	waits := riichi.Waits(&before, len(ctx.Melds))
	if len(waits) == 0 {
		return fmt.Sprintf("%s is not a complete hand, and without %v it is not tenpai", riichi.FormatHandReds(ctx.Hand, ctx.Rules.Reds()), ctx.WinTile.Kind())
	}
	names := make([]string, len(waits))
	for i, k := range waits {
		names[i] = k.String()
	}
	return fmt.Sprintf("%s is not a complete hand: without %v it waits on %s", riichi.FormatHandReds(ctx.Hand, ctx.Rules.Reds()), ctx.WinTile.Kind(), strings.Join(names, " "))
}

// result turns riichi's WinResult into a Result.
func result(w *win, res *riichi.WinResult) Result {
	r := &w.ctx.Rules
	out := Result{OK: true, Han: res.Han, Fu: res.Fu, Points: res.Points, Yakuman: r.YakumanCount(res.Yakuman)}
	if res.Limit >= 0 && res.Limit < len(limitNames) {
		out.Limit = limitNames[res.Limit]
	}
	if res.Limit == 5 && len(res.Yakuman) == 0 {
		out.Limit = "kazoe yakuman"
	}
	out.Yaku = make([]Yaku, 0, len(res.Yaku)+len(res.Yakuman))
	for _, y := range res.Yaku {
		out.Yaku = append(out.Yaku, Yaku{Name: riichi.YakuName(y.ID), Han: y.Han, ID: y.ID})
	}
	for _, id := range res.Yakuman {
		out.Yaku = append(out.Yaku, Yaku{Name: riichi.YakuName(id), Han: 13 * r.YakumanCount([]int{id}), ID: id})
	}
	out.Payments = payments(w, res.Pay)
	return out
}

// payments lists who pays what: the discarder for a ron, every other seat
// for a tsumo (three seats in sanma).
func payments(w *win, p riichi.Payment) []Payment {
	if !w.ctx.Tsumo {
		return []Payment{{Payer: "discarder", Points: p.Ron}}
	}
	seat := int(w.ctx.SeatWind - 27)
	out := make([]Payment, 0, w.players-1)
	for s := 0; s < w.players; s++ {
		switch {
		case s == seat:
		case s == 0:
			out = append(out, Payment{Payer: windNames[s], Points: p.TsumoDealer})
		default:
			out = append(out, Payment{Payer: windNames[s], Points: p.TsumoNonDealer})
		}
	}
	return out
}
