package record

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// Kyoku records one kyoku. Feed it every engine call in order, right after
// the call succeeded on k: NewKyoku after game.NewKyoku or Match.Start,
// Draw after each Kyoku.Draw, Apply after each Kyoku.Apply. Calls the
// engine rejected must not be fed. Reveal calls need not be mirrored.
// A Kyoku is not safe for concurrent use.
type Kyoku struct {
	init   mjlog.Init
	events []mjlog.Event
	err    error

	// What has been written so far, compared with the engine after each
	// call to find what it decided on its own.
	melds  [4][]game.Meld  // each seat's melds as last written
	tenhou [4][]mjlog.Meld // the same melds as written in <N>
	riichi [4]bool         // accepted riichi deposits written (REACH step 2)
	kita   [4][]mjlog.Meld // each seat's kita (sanma nukidora) as written in <N>
	// calls lists each seat's <N> in call order: an index into tenhou
	// (a kakan keeps its pon's place), or -1-j for kita[j].
	calls   [4][]int
	dora    int         // dora indicators written (INIT's included)
	kyotaku int         // riichi sticks on the table before the last call
	shows   []game.Seat // hands an abort shows: Ron answers to the tile on offer, the kyuushu declarer
	ended   bool        // AGARI or RYUUKYOKU written
	view    bool        // one player's view: unknown haipai tiles and draws are mjlog.Hidden
}

// NewKyokuView is NewKyoku for one player's view of a kyoku (a Mental
// Mahjong private-hands record): a haipai tile or a tsumo the engine does
// not know is recorded as mjlog.Hidden instead of being a misuse. Every
// tile a tag shows (dahai, calls, wins, tenpai hands, dora indicators)
// must still be known.
func NewKyokuView(k *game.Kyoku, dice [2]int) *Kyoku {
	r := &Kyoku{view: true}
	r.start(k, dice)
	return r
}

// NewKyoku starts recording kyoku k, which must be freshly created by
// game.NewKyoku or Match.Start (no Draw yet) with the haipai and the first
// dora indicator known to it. It records the INIT tag: seed="round,honba,
// kyotaku,dice[0],dice[1],dora indicator", ten= the scores in 100s, oya=,
// hai0..hai3 each seat's 13 tiles in deal order (Kyoku.HaipaiPositions,
// docs/wall-layout.md §5; hai3 empty in sanma). dice are the two 0-based die values (faces minus 1,
// 0..5), as in mjlog.Init.Dice. A tile k does not know, dice out of range
// or a k already in play make Err non-nil.
func NewKyoku(k *game.Kyoku, dice [2]int) *Kyoku {
	r := &Kyoku{}
	r.start(k, dice)
	return r
}

func (r *Kyoku) start(k *game.Kyoku, dice [2]int) {
	r.dora, r.kyotaku = 1, k.Kyotaku()
	sc := k.Scores()
	r.init = mjlog.Init{
		Kyoku:         k.Round(),
		Honba:         k.Honba(),
		Kyotaku:       k.Kyotaku(),
		Dice:          dice,
		DoraIndicator: game.Unknown,
		Ten:           hundreds(sc),
		Oya:           int(k.Oya()),
	}
	for _, d := range dice {
		if d < 0 || d > 5 {
			r.fail(fmt.Errorf("record INIT: die %d outside 0..5", d))
		}
	}
	if live, rinshan := k.Draws(); live+rinshan != 0 || k.Phase() != game.PhaseDraw {
		r.fail(fmt.Errorf("record INIT: kyoku already in play (%d draws, phase %s)", live+rinshan, k.Phase()))
	}
	if ind := k.DoraIndicators(); len(ind) > 0 {
		r.init.DoraIndicator = ind[0]
		r.dora = len(ind)
	}
	if !r.init.DoraIndicator.Valid() {
		r.fail(errors.New("record INIT: dora indicator not known to the engine"))
	}
	for s := range game.Seat(4) {
		for _, pos := range k.HaipaiPositions(s) {
			t := k.Tile(pos)
			if r.view && t == game.Unknown {
				t = mjlog.Hidden
			} else if !t.Valid() {
				r.fail(fmt.Errorf("record INIT hai%d: yama[%d] not known to the engine", s, pos))
			}
			r.init.Hai[s] = append(r.init.Hai[s], t)
		}
		r.melds[s] = k.Melds(s)
		r.riichi[s] = k.Riichi(s)
	}
}

// Draw records seat s's tsumo (live or rinshan) of tile t, the tag
// T/U/V/W followed by the tile id. t must be the tile given to
// Kyoku.Draw; an invalid t makes Err non-nil and records nothing.
func (r *Kyoku) Draw(k *game.Kyoku, s game.Seat, t wall.Tile) {
	if !r.usable(func() string { return "tsumo" }) {
		return
	}
	r.sync(k, nil)
	if r.view && t == game.Unknown {
		t = mjlog.Hidden
	} else if !s.Valid() || !t.Valid() {
		r.fail(fmt.Errorf("record tsumo: seat %d tile %d not known", int(s), int(t)))
		return
	}
	r.shows = nil
	r.add(mjlog.Draw{Who: int(s), Tile: t})
}

// Apply records action a, which k has just accepted (k.Apply(a) returned
// nil), and whatever the engine did on its own as a consequence, in
// Tenhou's tag order:
//
//   - Discard: <REACH step=1> if a.Riichi, <DORA> for a kan-dora indicator
//     the dahai turns, the dahai D/E/F/G;
//   - then, for any action: <REACH step=2 ten=> for a riichi deposit just
//     accepted, <N> for a meld just made (an ankan or kakan, or the chi,
//     pon or daiminkan that won the answers to a discard), <DORA> for
//     indicators just turned, and <AGARI> (one per winner) or <RYUUKYOKU>
//     when the kyoku has just ended.
//
// Passes, Ron answers and tenpai/noten declarations write nothing by
// themselves, only what they settle (a call, a deposit, the result). A
// tile the engine does not know makes Err non-nil.
func (r *Kyoku) Apply(k *game.Kyoku, a game.Action) {
	if !r.usable(a.String) {
		return
	}
	switch a.Type {
	case game.Discard:
		if !a.Tile.Valid() || !a.Seat.Valid() {
			r.fail(fmt.Errorf("record dahai: seat %d tile %d not known", int(a.Seat), int(a.Tile)))
			return
		}
		if a.Riichi {
			r.add(mjlog.Reach{Who: int(a.Seat), Step: 1})
		}
		r.doraTags(k)
		r.add(mjlog.Discard{Who: int(a.Seat), Tile: a.Tile})
		r.shows = nil
	case game.Ankan, game.Kakan:
		r.shows = nil
	case game.Kita:
		md := mjlog.Meld{Type: riichi.Kita, Tiles: []wall.Tile{a.Tile}, Called: -1, Added: -1, KanTile: -1}
		code, err := mjlog.EncodeMeld(md)
		if err != nil {
			r.fail(fmt.Errorf("record kita of seat %d: %w", int(a.Seat), err))
			return
		}
		md.Code = code
		r.add(mjlog.Call{Who: int(a.Seat), Meld: md})
		r.calls[a.Seat] = append(r.calls[a.Seat], -1-len(r.kita[a.Seat]))
		r.kita[a.Seat] = append(r.kita[a.Seat], md)
		r.shows = nil
	case game.Ron:
		r.shows = append(r.shows, a.Seat)
	case game.KyuushuKyuuhai:
		r.shows = []game.Seat{a.Seat}
	}
	r.sync(k, meldsMayChange(k, a))
}

// meldsMayChange returns the seats whose melds action a may have changed:
// the kan player's for an ankan or kakan, every seat when a call, pass or
// ron answer has just settled the answers to a discard, else none.
func meldsMayChange(k *game.Kyoku, a game.Action) []game.Seat {
	switch a.Type {
	case game.Ankan, game.Kakan:
		return []game.Seat{a.Seat}
	case game.Chi, game.Pon, game.Daiminkan, game.Pass, game.Ron:
		if k.Phase() != game.PhaseResponse {
			return []game.Seat{0, 1, 2, 3}
		}
	}
	return nil
}

// Round returns the recorded kyoku: the INIT and the events so far (all of
// them once the kyoku has ended). The INIT and the event list are copies;
// the tile lists inside the events are shared, and the recorder never
// changes them once written.
func (r *Kyoku) Round() mjlog.Round {
	in := r.init
	in.Ten = slices.Clone(in.Ten)
	for s := range in.Hai {
		in.Hai[s] = slices.Clone(in.Hai[s])
	}
	return mjlog.Round{Init: in, Events: slices.Clone(r.events)}
}

// Err returns the first misuse met: a tile the engine does not know where
// the mjlog needs it, a kyoku already in play at NewKyoku, a meld Tenhou's
// code cannot express, or a call fed after the kyoku's result was
// recorded. Nothing is recorded after it; Round keeps what came before.
func (r *Kyoku) Err() error { return r.err }

func (r *Kyoku) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// usable reports whether a call may be recorded; what names the call
// (built only for the error).
func (r *Kyoku) usable(what func() string) bool {
	if r.err != nil {
		return false
	}
	if r.ended {
		r.fail(fmt.Errorf("record %s: the kyoku's result is already recorded", what()))
		return false
	}
	return true
}

func (r *Kyoku) add(e mjlog.Event) { r.events = append(r.events, e) }

// sync writes what the engine decided since the last recorded call:
// accepted riichi, new melds of the seats in melds, turned dora
// indicators, the result.
func (r *Kyoku) sync(k *game.Kyoku, melds []game.Seat) {
	res := k.Result()
	for s := range game.Seat(4) {
		if k.Riichi(s) && !r.riichi[s] {
			r.riichi[s] = true
			sc := k.Scores()
			if res != nil {
				sc = res.Before
			}
			r.add(mjlog.Reach{Who: int(s), Step: 2, Ten: hundreds(sc)})
		}
	}
	for _, s := range melds {
		r.meldTags(k, s)
	}
	r.doraTags(k)
	if res != nil && r.err == nil {
		r.result(k, res)
		r.ended = true
	}
	if res == nil {
		r.kyotaku = k.Kyotaku()
	}
}

// meldTags writes <N> for each meld of seat s new since the last call, and
// for a pon that has become a kakan.
func (r *Kyoku) meldTags(k *game.Kyoku, s game.Seat) {
	now := k.Melds(s)
	old := r.melds[s]
	for i, m := range now {
		if i < len(old) && m.Type == old[i].Type {
			continue
		}
		var prev *game.Meld
		if i < len(old) {
			prev = &old[i]
		}
		md, err := tenhouMeld(m, prev)
		if err != nil {
			r.fail(fmt.Errorf("record <N who=%d>: %w", s, err))
			return
		}
		r.add(mjlog.Call{Who: int(s), Meld: md})
		if i < len(r.tenhou[s]) {
			r.tenhou[s][i] = md
		} else {
			r.calls[s] = append(r.calls[s], len(r.tenhou[s]))
			r.tenhou[s] = append(r.tenhou[s], md)
		}
	}
	r.melds[s] = now
}

// doraTags writes <DORA> for each indicator turned since the last call.
func (r *Kyoku) doraTags(k *game.Kyoku) {
	ind := k.DoraIndicators()
	for ; r.dora < len(ind); r.dora++ {
		t := ind[r.dora]
		if !t.Valid() {
			dora, _ := k.DoraPositions()
			r.fail(fmt.Errorf("record <DORA>: kan-dora indicator #%d (yama[%d]) not known to the engine", r.dora, dora[r.dora]))
			return
		}
		r.add(mjlog.Dora{Tile: t})
	}
}

// hundreds converts scores in points to Tenhou's units of 100 points.
func hundreds(sc [4]int) []int {
	out := make([]int, 4)
	for s, v := range sc {
		out[s] = v / 100
	}
	return out
}

// sortedTiles returns an ascending copy of ts, or an error naming what
// if a tile is not known.
func sortedTiles(ts []wall.Tile, what string) ([]wall.Tile, error) {
	out := slices.Clone(ts)
	for _, t := range out {
		if !t.Valid() {
			return nil, fmt.Errorf("%s: a tile is not known to the engine", what)
		}
	}
	slices.Sort(out)
	return out, nil
}

// tenhouMeld converts an engine meld to Tenhou's. prev is the meld it
// replaces (the pon of a kakan), else nil. The code is filled in with
// mjlog.EncodeMeld, as Parse would leave it.
func tenhouMeld(m game.Meld, prev *game.Meld) (mjlog.Meld, error) {
	tiles, err := sortedTiles(m.Tiles, fmt.Sprintf("%v meld", m.Type))
	if err != nil {
		return mjlog.Meld{}, err
	}
	md := mjlog.Meld{From: m.From, Tiles: tiles, Called: m.Called, Added: -1, KanTile: -1}
	switch m.Type {
	case riichi.Chi:
		md.Type = riichi.Chi
	case riichi.Pon:
		md.Type = riichi.Pon
	case riichi.Daiminkan:
		md.Type = riichi.Daiminkan
	case riichi.Ankan:
		// Tenhou stores one tile id of an ankan, by no rule the state
		// shows; the lowest is what it writes almost always (package doc).
		md.Type, md.Called, md.KanTile = riichi.Ankan, -1, tiles[0]
	case riichi.Kakan:
		md.Type = riichi.Kakan
		if prev == nil || prev.Type != riichi.Pon {
			return mjlog.Meld{}, errors.New("kakan without the pon it extends")
		}
		for _, t := range tiles {
			if !slices.Contains(prev.Tiles, t) {
				md.Added = t
			}
		}
	default:
		return mjlog.Meld{}, fmt.Errorf("unknown meld type %v", m.Type)
	}
	code, err := mjlog.EncodeMeld(md)
	if err != nil {
		return mjlog.Meld{}, err
	}
	md.Code = code
	return md, nil
}
