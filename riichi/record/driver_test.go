package record

import (
	"fmt"
	"math"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// driver plays the kyoku of an mjlog round on a fresh engine, mirroring
// every engine call to a recorder: the test-only path from mjlog events to
// engine calls (INIT → Match.Start, T/U/V/W → Draw, REACH 1 + D/E/F/G →
// Discard with Riichi, N → Chi/Pon/Daiminkan/Ankan/Kakan, AGARI →
// TsumoAgari or Ron, RYUUKYOKU yao9 → KyuushuKyuuhai, ron3 → three Ron,
// passes for the awaited seats). REACH step 2 and DORA tags are the
// engine's own decisions and are not fed; the recorder must find them.
type driver struct {
	k     *game.Kyoku
	rec   *Kyoku
	reach [4]bool
}

// playRound deals rd on m (resynchronised to rd's INIT), reveals the
// kan-dora and ura-dora indicators the round shows (the whole wall is
// known to a recorder), and plays every event. It returns the recorder and
// the engine, or an error naming the event the engine rejected.
func playRound(m *game.Match, rd *mjlog.Round) (*Kyoku, *game.Kyoku, error) {
	return play(m, rd, true, true)
}

// play is playRound; with reveal false the kan-dora and ura-dora
// indicators stay hidden from the engine (a misuse of the recorder); with
// record false nothing is recorded (the engine's share of the cost, for
// the benchmarks) and the returned recorder is nil.
func play(m *game.Match, rd *mjlog.Round, reveal, record bool) (*Kyoku, *game.Kyoku, error) {
	in := &rd.Init
	if len(in.Ten) != 4 {
		return nil, nil, fmt.Errorf("INIT ten= has %d scores", len(in.Ten))
	}
	d := game.Deal{Round: in.Kyoku, Honba: in.Honba, Kyotaku: in.Kyotaku, Oya: game.Seat(in.Oya), DoraIndicator: in.DoraIndicator}
	for s := range 4 {
		d.Scores[s] = 100 * in.Ten[s]
		d.Haipai[s] = in.Hai[s]
	}
	m.Resync(d)
	k, err := m.Start(d.Haipai, d.DoraIndicator)
	if err != nil {
		return nil, nil, fmt.Errorf("INIT: %w", err)
	}
	if reveal {
		if err := revealIndicators(k, rd); err != nil {
			return nil, nil, err
		}
	}
	dr := &driver{k: k}
	if record {
		dr.rec = NewKyoku(k, in.Dice)
	}
	evs := rd.Events
	for i := 0; i < len(evs); i++ {
		var err error
		switch e := evs[i].(type) {
		case mjlog.Draw:
			err = dr.draw(e)
		case mjlog.Discard:
			err = dr.apply(game.Action{Type: game.Discard, Seat: game.Seat(e.Who), Tile: e.Tile, Riichi: dr.reach[e.Who]})
			dr.reach[e.Who] = false
		case mjlog.Reach:
			if e.Step == 1 {
				dr.reach[e.Who] = true
			}
		case mjlog.Call:
			err = dr.call(e)
		case mjlog.Agari:
			group := []mjlog.Agari{e}
			for i+1 < len(evs) {
				n, ok := evs[i+1].(mjlog.Agari)
				if !ok {
					break
				}
				group = append(group, n)
				i++
			}
			err = dr.agari(group)
		case mjlog.Ryuukyoku:
			err = dr.ryuukyoku(e)
		}
		if err != nil {
			return dr.rec, k, fmt.Errorf("event %d (%T): %w", i, evs[i], err)
		}
	}
	return dr.rec, k, nil
}

// revealIndicators reveals the DORA tags' and the first riichi AGARI's
// doraHaiUra indicators at their yama positions (wall.Layout).
func revealIndicators(k *game.Kyoku, rd *mjlog.Round) error {
	n := 0
	ura := false
	for _, e := range rd.Events {
		switch e := e.(type) {
		case mjlog.Dora:
			n++
			if err := k.Reveal(k.Layout().DoraIndicatorIndex(n), e.Tile); err != nil {
				return fmt.Errorf("DORA #%d: %w", n, err)
			}
		case mjlog.Agari:
			if ura || e.DoraHaiUra == nil {
				continue
			}
			ura = true
			for i, t := range e.DoraHaiUra {
				if err := k.Reveal(k.Layout().UraIndicatorIndex(i), t); err != nil {
					return fmt.Errorf("doraHaiUra #%d: %w", i, err)
				}
			}
		}
	}
	return nil
}

func (dr *driver) apply(a game.Action) error {
	if err := dr.k.Apply(a); err != nil {
		return err
	}
	if dr.rec != nil {
		dr.rec.Apply(dr.k, a)
	}
	return nil
}

// passAll makes every awaited seat not in keep pass.
func (dr *driver) passAll(keep ...int) error {
	if dr.k.Phase() != game.PhaseResponse {
		return nil
	}
	for _, s := range dr.k.Awaiting() {
		if slices.Contains(keep, int(s)) {
			continue
		}
		if err := dr.apply(game.Action{Type: game.Pass, Seat: s}); err != nil {
			return err
		}
	}
	return nil
}

func (dr *driver) draw(e mjlog.Draw) error {
	if err := dr.passAll(); err != nil {
		return err
	}
	if _, err := dr.k.Draw(e.Tile); err != nil {
		return err
	}
	if dr.rec != nil {
		dr.rec.Draw(dr.k, game.Seat(e.Who), e.Tile)
	}
	return nil
}

func (dr *driver) call(e mjlog.Call) error {
	m := e.Meld
	s := game.Seat(e.Who)
	switch m.Type {
	case riichi.Chi, riichi.Pon, riichi.Daiminkan:
		t := map[riichi.MeldType]game.ActionType{riichi.Chi: game.Chi, riichi.Pon: game.Pon, riichi.Daiminkan: game.Daiminkan}[m.Type]
		hand := slices.DeleteFunc(slices.Clone(m.Tiles), func(x wall.Tile) bool { return x == m.Called })
		if err := dr.passAll(e.Who); err != nil {
			return err
		}
		return dr.apply(game.Action{Type: t, Seat: s, Tiles: hand})
	case riichi.Ankan:
		return dr.apply(game.Action{Type: game.Ankan, Seat: s, Tiles: slices.Clone(m.Tiles)})
	case riichi.Kakan:
		return dr.apply(game.Action{Type: game.Kakan, Seat: s, Tile: m.Added})
	case riichi.Kita:
		return dr.apply(game.Action{Type: game.Kita, Seat: s, Tile: m.Tiles[0]})
	}
	return fmt.Errorf("%v in a four-player game", m.Type)
}

func (dr *driver) agari(group []mjlog.Agari) error {
	first := group[0]
	if first.Who == first.FromWho {
		return dr.apply(game.Action{Type: game.TsumoAgari, Seat: game.Seat(first.Who)})
	}
	var who []int
	for _, a := range group {
		who = append(who, a.Who)
	}
	if err := dr.passAll(who...); err != nil {
		return err
	}
	for _, a := range group {
		if err := dr.apply(game.Action{Type: game.Ron, Seat: game.Seat(a.Who)}); err != nil {
			return err
		}
	}
	return nil
}

func (dr *driver) ryuukyoku(e mjlog.Ryuukyoku) error {
	var shown []int
	for s := range 4 {
		if e.Hai[s] != nil {
			shown = append(shown, s)
		}
	}
	switch e.Type {
	case "yao9":
		if len(shown) != 1 {
			return fmt.Errorf("yao9 shows %d hands", len(shown))
		}
		return dr.apply(game.Action{Type: game.KyuushuKyuuhai, Seat: game.Seat(shown[0])})
	case "ron3":
		if err := dr.passAll(shown...); err != nil {
			return err
		}
		for _, s := range shown {
			if err := dr.apply(game.Action{Type: game.Ron, Seat: game.Seat(s)}); err != nil {
				return err
			}
		}
		return nil
	}
	return dr.passAll()
}

// logRules returns the rules a log was played under: GO's bits, and the
// point rounding of its era read from the owari values (a non-zero tenth
// means Tenhou's exact points), as riichi/replay does.
func logRules(g *mjlog.Game) game.Rules {
	rules := game.TenhouRules(g.Go.Hanchan(), g.Go.Aka(), g.Go.Kuitan())
	if g.Go.Players() == 3 {
		rules = game.TenhouSanmaRules(g.Go.Hanchan(), g.Go.Aka(), g.Go.Kuitan())
	}
	rules.Rounding = game.PointsRounded
	if g.Owari == nil {
		rules.Rounding = game.PointsExact
	} else {
		for _, p := range g.Owari.Points {
			if int(math.Round(p*10))%10 != 0 {
				rules.Rounding = game.PointsExact
			}
		}
	}
	if g.Go.Lobby != 0 && len(g.Rounds) > 0 && len(g.Rounds[0].Init.Ten) == 4 {
		rules.Start = 100 * g.Rounds[0].Init.Ten[0]
	}
	return rules
}
