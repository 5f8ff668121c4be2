// Package selfplay plays whole kyoku of the engine with a chooser at
// every seat (the built-in bot, package player/bot, in the tests), every tile
// known to the engine: a fixture for tests of the bot and of what a table
// shows (the terminal table, the mjai stream) under given rules on a wall
// the test arranges.
//
// The engine checks every action against the real tiles, so a kyoku
// played here is a legal kyoku of the rules given; nothing here is
// secret (the views handed to the hooks show every tile).
package selfplay

import (
	"fmt"
	"math/rand/v2"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// MaxSteps bounds the draws and decisions of one kyoku (at most 70 live
// and 4 rinshan draws, each followed by a few decisions).
const MaxSteps = 2000

// Wall returns a four-player yama (136 Tenhou tile ids in yama order,
// docs/wall-layout.md) shuffled by a PCG seeded with seed, with the tiles of
// dealt moved into the haipai of the East 1 dealer (seat 0) so that a
// test can be sure they are played. It returns an error when dealt holds
// more than 13 tiles, an invalid id or an id twice.
func Wall(seed uint64, dealt ...wall.Tile) ([]wall.Tile, error) {
	if len(dealt) > 13 {
		return nil, fmt.Errorf("selfplay: %d tiles for a 13-tile haipai", len(dealt))
	}
	r := rand.New(rand.NewPCG(seed, 0x73656c66706c6179))
	yama := make([]wall.Tile, wall.NumTiles)
	where := make([]int, wall.NumTiles) // tile id → its position
	for i, x := range r.Perm(wall.NumTiles) {
		yama[i], where[x] = wall.Tile(x), i
	}
	haipai := wall.FourPlayer.Haipai(0)
	seen := map[wall.Tile]bool{}
	for i, t := range dealt {
		if !t.Valid() || seen[t] {
			return nil, fmt.Errorf("selfplay: tile %d invalid or dealt twice", int(t))
		}
		seen[t] = true
		p, q := haipai[i], where[t]
		yama[p], yama[q] = yama[q], yama[p]
		where[yama[p]], where[yama[q]] = p, q
	}
	return yama, nil
}

// Deal starts m's next kyoku on yama (a four-player wall) and reveals
// every position to the engine, so that it checks every action against
// the real tiles. It returns an error when the match is over, or the
// engine's error for a malformed wall.
func Deal(m *game.Match, yama []wall.Tile) (*game.Kyoku, error) {
	d, ok := m.Next()
	if !ok {
		return nil, fmt.Errorf("selfplay: the match is over")
	}
	var haipai [4][]wall.Tile
	for s := range game.Seat(4) {
		for _, pos := range wall.FourPlayer.Haipai(d.Oya.Relative(s)) {
			haipai[s] = append(haipai[s], yama[pos])
		}
	}
	k, err := m.Start(haipai, yama[wall.FourPlayer.DoraIndicatorIndex(0)])
	if err != nil {
		return nil, err
	}
	for pos, t := range yama {
		if err := k.Reveal(pos, t); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// Chooser decides seat s's action on k, as bot.Bot.Choose does.
type Chooser func(k *game.Kyoku, s game.Seat) (game.Action, error)

// Hooks are called as Play drives a kyoku; any may be nil. None may
// change the kyoku it is given (Clone it to keep it). An error from Drew
// or Applied stops Play with it.
type Hooks struct {
	// Decide is called before seat s decides on k.
	Decide func(k *game.Kyoku, s game.Seat)
	// Drew is called after seat s drew tile t (a tsumo or rinshan draw).
	Drew func(k *game.Kyoku, s game.Seat, t wall.Tile) error
	// Applied is called after action a was applied.
	Applied func(k *game.Kyoku, a game.Action) error
}

// Play drives k, dealt on yama, to its end, choose[s] deciding for seat
// s. It returns the first error of a chooser, of the engine (an illegal
// action) or of a hook, or an error when the kyoku has not ended after
// MaxSteps.
func Play(k *game.Kyoku, yama []wall.Tile, choose [4]Chooser, h Hooks) error {
	for n := 0; k.Phase() != game.PhaseEnd; n++ {
		if n == MaxSteps {
			return fmt.Errorf("selfplay: the kyoku did not end after %d steps (phase %s)", MaxSteps, k.Phase())
		}
		var seat game.Seat
		switch k.Phase() {
		case game.PhaseDraw:
			s, pos, _, _ := k.NextDraw()
			if _, err := k.Draw(yama[pos]); err != nil {
				return err
			}
			if h.Drew != nil {
				if err := h.Drew(k, s, yama[pos]); err != nil {
					return err
				}
			}
			continue
		case game.PhaseTurn:
			seat = k.Turn()
		default:
			aw := k.Awaiting()
			if len(aw) == 0 {
				return fmt.Errorf("selfplay: phase %s awaits nobody", k.Phase())
			}
			seat = aw[0]
		}
		if h.Decide != nil {
			h.Decide(k, seat)
		}
		a, err := choose[seat](k, seat)
		if err != nil {
			return fmt.Errorf("selfplay: seat %d: %w", seat, err)
		}
		if err := k.Apply(a); err != nil {
			return fmt.Errorf("selfplay: seat %d: %v: %w", seat, a, err)
		}
		if h.Applied != nil {
			if err := h.Applied(k, a); err != nil {
				return err
			}
		}
	}
	return nil
}
