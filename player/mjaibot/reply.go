package mjaibot

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// matches reports whether tile t has mjai name name at a table playing
// the red fives reds (a plain name matches a five the table plays plain).
func matches(t wall.Tile, name string, reds wall.Reds) bool {
	return mjai.Tile(t, reds) == name
}

// sameTiles reports whether ts are the tiles named by names, as multisets.
func sameTiles(ts []wall.Tile, names []string, reds wall.Reds) bool {
	if len(ts) != len(names) {
		return false
	}
	got := make([]string, len(ts))
	for i, t := range ts {
		got[i] = mjai.Tile(t, reds)
	}
	want := slices.Clone(names)
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want)
}

// action turns a bot's reply into one of legal, the seat's legal actions
// now. riichi is true when the bot said reach first (its dahai must then
// be a riichi discard); drawn is the tile just drawn (for tsumogiri), or
// Unknown. It returns an error saying why a reply is not legal.
func action(r mjai.Event, legal []game.Action, seat game.Seat, riichi bool, drawn wall.Tile, reds wall.Reds) (game.Action, error) {
	if r.Actor != int(seat) && r.Type != mjai.None {
		return game.Action{}, fmt.Errorf("%s for actor %d, the bot plays seat %d", r.Type, r.Actor, int(seat))
	}
	pick := func(ok func(game.Action) bool) (game.Action, error) {
		for _, a := range legal {
			if ok(a) {
				return a, nil
			}
		}
		return game.Action{}, fmt.Errorf("%s is not legal now", r)
	}
	switch r.Type {
	case mjai.Dahai:
		if r.Tsumogiri && drawn != game.Unknown {
			if a, err := pick(func(a game.Action) bool {
				return a.Type == game.Discard && a.Riichi == riichi && a.Tile == drawn && matches(a.Tile, r.Pai, reds)
			}); err == nil {
				return a, nil
			}
		}
		// Prefer a tile from the hand over the drawn one (tedashi), as said.
		var fallback *game.Action
		for i, a := range legal {
			if a.Type != game.Discard || a.Riichi != riichi || !matches(a.Tile, r.Pai, reds) {
				continue
			}
			if a.Tile != drawn || r.Tsumogiri {
				return a, nil
			}
			fallback = &legal[i]
		}
		if fallback != nil {
			return *fallback, nil
		}
		return game.Action{}, fmt.Errorf("%s is not legal now", r)
	case mjai.Hora:
		return pick(func(a game.Action) bool { return a.Type == game.TsumoAgari || a.Type == game.Ron })
	case mjai.Chi, mjai.Pon, mjai.Daiminkan:
		typ := map[string]game.ActionType{mjai.Chi: game.Chi, mjai.Pon: game.Pon, mjai.Daiminkan: game.Daiminkan}[r.Type]
		return pick(func(a game.Action) bool { return a.Type == typ && sameTiles(a.Tiles, r.Consumed, reds) })
	case mjai.Kakan:
		return pick(func(a game.Action) bool { return a.Type == game.Kakan && matches(a.Tile, r.Pai, reds) })
	case mjai.Ankan:
		return pick(func(a game.Action) bool { return a.Type == game.Ankan && sameTiles(a.Tiles, r.Consumed, reds) })
	case mjai.Nukidora:
		return pick(func(a game.Action) bool { return a.Type == game.Kita && matches(a.Tile, r.Pai, reds) })
	case mjai.Ryukyoku:
		return pick(func(a game.Action) bool { return a.Type == game.KyuushuKyuuhai })
	case mjai.None:
		return pick(func(a game.Action) bool { return a.Type == game.Pass })
	}
	return game.Action{}, fmt.Errorf("%s is not a reply the node can make", r)
}
