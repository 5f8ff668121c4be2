package game

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

type checkKind int

const (
	checkRiichiTenpai checkKind = iota + 1
	checkRiichiAnkan
	checkNoten
)

// check is a rule check deferred because it needs tiles the engine could
// not see when the action was applied.
type check struct {
	kind    checkKind
	seat    Seat
	hand    []int // yama positions of the concealed hand at that moment
	melds   int
	discard int       // riichi: 1-based index of the declaration discard
	drawn   int       // riichi ankan: position of the drawn tile
	kanKind wall.Kind // riichi ankan: kind of the kan
}

// CheckError is one failed deferred check returned (joined) by Recheck:
// a rule a player broke that could only be seen once its hidden tiles
// were revealed. errors.As retrieves it to blame the seat.
type CheckError struct {
	// Seat is the player who broke the rule.
	Seat Seat
	// Reason says which rule and shows the hand.
	Reason string
}

// Error implements error: "<seat label>: <reason>".
func (e *CheckError) Error() string { return e.Reason }

// PendingChecks returns the number of deferred checks still waiting for
// hidden tiles.
func (k *Kyoku) PendingChecks() int { return len(k.checks) }

// RiichiCheckPositions returns, ascending and without repeats, the yama
// positions still hidden from this engine that its pending riichi checks
// need (riichi declared on a hand with hidden tiles, an ankan in riichi
// with hidden tiles): the concealed tiles of a riichi player that no
// win or tenpai declaration has shown. Revealing them lets Recheck decide
// every riichi check. Pending noten checks are not included. It returns
// nil when there is none.
func (k *Kyoku) RiichiCheckPositions() []int {
	var out []int
	for _, c := range k.checks {
		if c.kind != checkRiichiTenpai && c.kind != checkRiichiAnkan {
			continue
		}
		for _, pos := range c.hand {
			if k.known[pos] == Unknown && !slices.Contains(out, pos) {
				out = append(out, pos)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Recheck evaluates every deferred check whose tiles have all been
// revealed since (riichi declared on a tenpai hand, a riichi ankan that
// keeps the waits, a noten claim at the exhaustive draw) and drops it. It
// returns nil if all of them pass, else an error per failed check (joined)
// naming the seat and the rule, each a *CheckError; the game result
// stands, the error is proof for blame. Checks whose tiles are still hidden stay pending.
func (k *Kyoku) Recheck() error {
	var errs []error
	keep := k.checks[:0]
	for _, c := range k.checks {
		var counts riichi.Counts
		known := true
		for _, pos := range c.hand {
			t := k.known[pos]
			if t == Unknown {
				known = false
				break
			}
			counts[t.Kind()]++
		}
		if !known {
			keep = append(keep, c)
			continue
		}
		label := c.seat.label(k.oya)
		switch c.kind {
		case checkRiichiTenpai:
			if len(riichi.Waits(&counts, c.melds)) == 0 {
				errs = append(errs, &CheckError{c.seat, fmt.Sprintf("%s: riichi with discard %d on a hand that is not tenpai (%s)", label, c.discard, k.handString(c.hand))})
			}
		case checkRiichiAnkan:
			if !k.riichiKanKeepsWaits(&counts, c.kanKind, k.known[c.drawn].Kind(), c.melds) {
				errs = append(errs, &CheckError{c.seat, fmt.Sprintf("%s: ankan of %s in riichi changed the waits (%s)", label, c.kanKind, k.handString(c.hand))})
			}
		case checkNoten:
			if len(riichi.Waits(&counts, c.melds)) > 0 {
				errs = append(errs, &CheckError{c.seat, fmt.Sprintf("%s: declared noten at the exhaustive draw with a tenpai hand (%s)", label, k.handString(c.hand))})
			}
		}
	}
	k.checks = keep
	return errors.Join(errs...)
}

func (k *Kyoku) handString(positions []int) string {
	ts := make([]wall.Tile, 0, len(positions))
	for _, pos := range positions {
		ts = append(ts, k.known[pos])
	}
	slices.Sort(ts)
	return riichi.FormatHandReds(ts, k.rules.Hand.Reds())
}
