package record

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// result writes the AGARI tags or the RYUUKYOKU tag of res.
func (r *Kyoku) result(k *game.Kyoku, res *game.Result) {
	if res.End == game.EndAgari {
		for i, w := range res.Wins {
			a, err := r.agari(w, res, i == 0)
			if err != nil {
				r.fail(fmt.Errorf("record <AGARI who=%d>: %w", w.Seat, err))
				return
			}
			r.add(a)
		}
		return
	}
	rk, err := r.ryuukyoku(k, res)
	if err != nil {
		r.fail(fmt.Errorf("record <RYUUKYOKU>: %w", err))
		return
	}
	r.add(rk)
}

// agari builds one <AGARI>; first is the winner paid first (who takes the
// riichi sticks; a double ron's second AGARI has ba="honba,0").
func (r *Kyoku) agari(w game.Win, res *game.Result, first bool) (mjlog.Agari, error) {
	hai, err := sortedTiles(w.Hand, "hai")
	if err != nil {
		return mjlog.Agari{}, err
	}
	if !w.WinTile.Valid() {
		return mjlog.Agari{}, fmt.Errorf("machi: winning tile %d not known to the engine", int(w.WinTile))
	}
	for _, ts := range [][]wall.Tile{w.DoraIndicators, w.UraIndicators} {
		for _, t := range ts {
			if !t.Valid() {
				return mjlog.Agari{}, fmt.Errorf("doraHai/doraHaiUra: an indicator is not known to the engine")
			}
		}
	}
	a := mjlog.Agari{
		Who:        int(w.Seat),
		FromWho:    int(w.From),
		Hai:        hai,
		Machi:      w.WinTile,
		Fu:         w.Value.Fu,
		Ten:        w.Value.Points,
		Limit:      w.Value.Limit,
		DoraHai:    slices.Clone(w.DoraIndicators),
		DoraHaiUra: slices.Clone(w.UraIndicators),
		Honba:      res.Honba,
		Paowho:     int(w.Pao),
		Sc:         scPairs(w.Before, w.Deltas),
	}
	if first {
		a.Kyotaku = r.kyotaku
	}
	if w.Pao == game.NoSeat {
		a.Paowho = -1
	}
	// m= lists the melds newest first.
	written := r.tenhou[w.Seat]
	if len(written) != len(w.Melds) {
		return mjlog.Agari{}, fmt.Errorf("m: the winner has %d melds, %d were recorded", len(w.Melds), len(written))
	}
	// m= lists the calls newest first, kita (sanma) among them.
	calls := r.calls[w.Seat]
	for i := len(calls) - 1; i >= 0; i-- {
		if c := calls[i]; c >= 0 {
			a.Melds = append(a.Melds, written[c])
		} else {
			a.Melds = append(a.Melds, r.kita[w.Seat][-1-c])
		}
	}
	if len(w.Value.Yakuman) > 0 {
		a.Yakuman = slices.Clone(w.Value.Yakuman)
	} else {
		for _, y := range w.Value.Yaku {
			a.Yaku = append(a.Yaku, mjlog.YakuHan{ID: y.ID, Han: y.Han})
		}
	}
	return a, nil
}

// ryuukyoku builds the <RYUUKYOKU> of a drawn kyoku.
func (r *Kyoku) ryuukyoku(k *game.Kyoku, res *game.Result) (mjlog.Ryuukyoku, error) {
	rk := mjlog.Ryuukyoku{
		Type:    res.Abort.TenhouCode(),
		Honba:   res.Honba,
		Kyotaku: res.Kyotaku,
		Sc:      scPairs(res.Before, res.Deltas),
	}
	var shown [4]bool
	switch res.End {
	case game.EndExhaustive:
		shown = res.Tenpai
		if slices.Contains(res.Nagashi[:], true) {
			rk.Type = "nm"
		}
	case game.EndAbortive:
		switch res.Abort {
		case game.AbortSuucha:
			shown = [4]bool{true, true, true, true}
		case game.AbortKyuushu, game.AbortSanchahou:
			// The declarer (yao9) or the three ron answers (ron3).
			for _, s := range r.shows {
				shown[s] = true
			}
		}
	default:
		return rk, fmt.Errorf("kyoku ended with unknown kind %d", res.End)
	}
	for s := range game.Seat(4) {
		if !shown[s] {
			continue
		}
		h, _ := k.Hand(s)
		hai, err := sortedTiles(h, fmt.Sprintf("hai%d", s))
		if err != nil {
			return rk, err
		}
		rk.Hai[s] = hai
	}
	return rk, nil
}

// scPairs writes sc=: (score, delta) per seat in 100s.
func scPairs(before, deltas [4]int) []int {
	out := make([]int, 0, 8)
	for s := range 4 {
		out = append(out, before[s]/100, deltas[s]/100)
	}
	return out
}
