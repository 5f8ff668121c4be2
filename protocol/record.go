package protocol

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
	"github.com/mentalmj/mentalmj/wall"
)

// recordKyoku replays a finished kyoku on an engine that sees the whole
// audited wall and records it as a Tenhou mjlog round (INIT with the
// haipai, every draw, discard, call, REACH, DORA, AGARI or RYUUKYOKU). The
// steps are those the public engine took; passes and declarations the
// all-seeing engine does not wait for (it knows those seats have no
// option, or their hands) are skipped. It returns an error if the replay
// disagrees with the steps or ends differently from want. A yama holding
// game.Unknown (one player's view, private hands) records those tiles as
// mjlog.Hidden.
func recordKyoku(rules game.Rules, d game.Deal, yama []wall.Tile, dice [2]int, steps []kyokuStep, want *game.Result) (mjlog.Round, error) {
	l := layoutFor(rulesPlayers(rules))
	for s := range d.Haipai {
		d.Haipai[s] = nil
		if s >= l.Players {
			continue // sanma: seat 3 is empty
		}
		for _, pos := range l.Haipai((s - int(d.Oya) + l.Players) % l.Players) {
			d.Haipai[s] = append(d.Haipai[s], yama[pos])
		}
	}
	d.DoraIndicator = yama[l.DoraIndicatorIndex(0)]
	k, err := game.NewKyoku(rules, d)
	if err != nil {
		return mjlog.Round{}, err
	}
	rec := record.NewKyoku(k, dice)
	if slices.Contains(yama, game.Unknown) {
		rec = record.NewKyokuView(k, dice)
	}
	for pos, t := range yama {
		if t == game.Unknown {
			continue // a player's view: never shown to it
		}
		if err := k.Reveal(pos, t); err != nil {
			return mjlog.Round{}, fmt.Errorf("replay with the whole wall: position %d: %w", pos, err)
		}
	}
	for _, st := range steps {
		if st.draw {
			s, pos, _, ok := k.NextDraw()
			if !ok || pos != st.pos {
				return mjlog.Round{}, fmt.Errorf("replay with the whole wall: expected a draw of position %d (phase %s)", st.pos, k.Phase())
			}
			if _, err := k.Draw(yama[pos]); err != nil {
				return mjlog.Round{}, err
			}
			rec.Draw(k, s, yama[pos])
			continue
		}
		a := st.action
		switch a.Type {
		case game.Pass, game.Tenpai, game.Noten:
			if !slices.Contains(k.Awaiting(), a.Seat) {
				continue
			}
		}
		if err := k.Apply(a); err != nil {
			return mjlog.Round{}, fmt.Errorf("replay with the whole wall: %w", err)
		}
		rec.Apply(k, a)
	}
	if err := rec.Err(); err != nil {
		return mjlog.Round{}, err
	}
	if !sameResult(k.Result(), want) {
		return mjlog.Round{}, fmt.Errorf("replay with the whole wall ends differently from the hand")
	}
	return rec.Round(), nil
}
