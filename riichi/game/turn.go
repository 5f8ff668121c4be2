package game

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// closed reports whether seat s's hand is closed (no melds but ankan).
func (k *Kyoku) closed(s Seat) bool {
	for _, m := range k.p[s].melds {
		if m.Type != riichi.Ankan {
			return false
		}
	}
	return true
}

// riichiBlock returns why seat s may not declare riichi now (apart from
// tenpai), or "".
func (k *Kyoku) riichiBlock(s Seat) string {
	p := &k.p[s]
	switch {
	case p.riichi != noRiichi:
		return "already in riichi"
	case k.afterCall || !k.closed(s):
		return "riichi needs a closed hand"
	case k.scores[s] < 1000:
		return fmt.Sprintf("riichi needs 1000 points, seat has %d", k.scores[s])
	case k.liveLeft() < k.n() && !k.rules.RiichiNoDraw:
		return fmt.Sprintf("riichi needs %d tiles left in the live wall, %d left", k.n(), k.liveLeft())
	}
	return ""
}

// discardBlock returns why seat s (to act) may not discard the tile at
// position pos, or "".
func (k *Kyoku) discardBlock(s Seat, pos int, t wall.Tile) string {
	p := &k.p[s]
	if p.riichi != noRiichi && pos != k.drawn {
		return "in riichi only the drawn tile may be discarded"
	}
	if k.afterCall && p.kuikae&kindBit(t.Kind()) != 0 {
		return fmt.Sprintf("kuikae: %s may not be discarded right after the call", t.Kind())
	}
	return ""
}

func (k *Kyoku) discard(a Action) error {
	s := a.Seat
	p := &k.p[s]
	pos, ok := k.handPos(s, a.Tile)
	if !ok {
		return k.illegal(a, "tile not in the hand (or not revealed)")
	}
	if r := k.discardBlock(s, pos, a.Tile); r != "" {
		return k.illegal(a, r)
	}
	var deferred *check
	if a.Riichi {
		if r := k.riichiBlock(s); r != "" {
			return k.illegal(a, r)
		}
		if p.unknown == 0 {
			c := p.counts
			c[a.Tile.Kind()]--
			if len(riichi.Waits(&c, len(p.melds))) == 0 {
				return k.illegal(a, "not tenpai after the discard")
			}
		} else {
			rest := slices.DeleteFunc(slices.Clone(p.hand), func(x int) bool { return x == pos })
			deferred = &check{kind: checkRiichiTenpai, seat: s, hand: rest, melds: len(p.melds), discard: len(p.river) + 1}
		}
	}
	// The action is legal: commit.
	if deferred != nil {
		k.checks = append(k.checks, *deferred)
	}
	k.doraShown += k.doraPending
	k.doraPending = 0
	k.removeHand(s, pos)
	p.river = append(p.river, RiverTile{Tile: a.Tile, Pos: pos, Tsumogiri: pos == k.drawn, Riichi: a.Riichi})
	kind := a.Tile.Kind()
	p.discarded |= kindBit(kind)
	p.passed = 0
	if !isYaochuu(kind) {
		p.nagashi = false
	}
	first := p.discards == 0
	p.discards++
	if p.riichi == riichiAccepted {
		p.ippatsu = false
	}
	if a.Riichi {
		p.riichi = riichiDeclared
		p.doubleRiichi = first && !k.anyCall
	}
	if k.n() == 4 && first && !k.anyCall && s == k.next(k.oya, 3) {
		k.suufon = kind >= 27 && kind <= 30
		for o := Seat(0); o < 4 && k.suufon; o++ {
			r := k.p[o].river
			k.suufon = len(r) == 1 && r[0].Tile.Kind() == kind
		}
	}
	k.afterCall = false
	p.kuikae = 0
	k.drawn = -1
	k.startOffer(offerDiscard, s, a.Tile, pos, a.Riichi)
	return nil
}

// kanBlock returns why seat s may not declare a kan now, or "".
func (k *Kyoku) kanBlock() string {
	switch {
	case k.afterCall:
		return "no kan right after a chi or pon"
	case k.kans >= 4:
		return "four kans already declared"
	case k.liveLeft() <= 0:
		return "no kan on the last tile of the wall"
	}
	return ""
}

// kanTiles resolves the tiles of an ankan: four distinct tiles of one kind
// in the hand.
func (k *Kyoku) kanTiles(s Seat, tiles []wall.Tile) ([]int, string) {
	if len(tiles) != 4 {
		return nil, fmt.Sprintf("ankan takes 4 tiles, got %d", len(tiles))
	}
	pos := make([]int, 4)
	for i, t := range tiles {
		p, ok := k.handPos(s, t)
		if !ok {
			return nil, fmt.Sprintf("%s (id %d) not in the hand (or not revealed)", t, int(t))
		}
		if t.Kind() != tiles[0].Kind() {
			return nil, "ankan tiles are not one kind"
		}
		if slices.Contains(pos[:i], p) {
			return nil, "ankan repeats a tile"
		}
		pos[i] = p
	}
	return pos, ""
}

func (k *Kyoku) ankan(a Action) error {
	s := a.Seat
	p := &k.p[s]
	if r := k.kanBlock(); r != "" {
		return k.illegal(a, r)
	}
	pos, r := k.kanTiles(s, a.Tiles)
	if r != "" {
		return k.illegal(a, r)
	}
	kind := a.Tiles[0].Kind()
	var deferred *check
	if p.riichi != noRiichi {
		if k.drawn < 0 || !slices.Contains(pos, k.drawn) {
			return k.illegal(a, "in riichi an ankan must use the drawn tile")
		}
		if p.unknown == 0 {
			if !k.riichiKanKeepsWaits(&p.counts, kind, k.known[k.drawn].Kind(), len(p.melds)) {
				return k.illegal(a, "in riichi an ankan may not change the waits")
			}
		} else {
			deferred = &check{kind: checkRiichiAnkan, seat: s, hand: slices.Clone(p.hand), melds: len(p.melds), drawn: k.drawn, kanKind: kind}
		}
	}
	if deferred != nil {
		k.checks = append(k.checks, *deferred)
	}
	tiles := slices.Clone(a.Tiles)
	slices.Sort(tiles)
	for _, x := range pos {
		k.removeHand(s, x)
	}
	p.melds = append(p.melds, Meld{Meld: riichi.Meld{Type: riichi.Ankan, Tiles: tiles, Called: -1, From: 0}, FromSeat: s})
	k.doraShown += k.doraPending + 1 // Tenhou: an ankan turns its indicator at once
	k.doraPending = 0
	k.addKan(s)
	k.drawn = -1
	k.startOffer(offerAnkan, s, a.Tiles[0], pos[0], false)
	return nil
}

// riichiKanKeepsWaits reports whether an ankan of kind in a riichi hand
// (counts c, including the drawn tile of kind drawnKind) leaves the waits
// of the hand before the draw unchanged.
func (k *Kyoku) riichiKanKeepsWaits(c *riichi.Counts, kind, drawnKind wall.Kind, melds int) bool {
	before := *c
	before[drawnKind]--
	after := *c
	after[kind] -= 4
	if after[kind] < 0 {
		return false
	}
	w1 := riichi.Waits(&before, melds)
	w2 := riichi.Waits(&after, melds+1)
	return len(w1) > 0 && slices.Equal(w1, w2)
}

func (k *Kyoku) addKan(s Seat) {
	k.kans++
	k.kanBy[s]++
	k.anyCall = true
	for i := range k.p {
		k.p[i].ippatsu = false
	}
	if k.kans == 4 && k.kanBy[s] != 4 {
		k.suukan = true
	}
	k.needRinshan = true
}

func (k *Kyoku) kakan(a Action) error {
	s := a.Seat
	p := &k.p[s]
	if r := k.kanBlock(); r != "" {
		return k.illegal(a, r)
	}
	pos, ok := k.handPos(s, a.Tile)
	if !ok {
		return k.illegal(a, "tile not in the hand (or not revealed)")
	}
	mi := slices.IndexFunc(p.melds, func(m Meld) bool { return m.Type == riichi.Pon && m.Tiles[0].Kind() == a.Tile.Kind() })
	if mi < 0 {
		return k.illegal(a, fmt.Sprintf("no pon of %s to add to", a.Tile.Kind()))
	}
	k.doraShown += k.doraPending // a pending minkan indicator turns at the next kan
	k.doraPending = 1
	k.removeHand(s, pos)
	m := p.melds[mi]
	tiles := append(slices.Clone(m.Tiles), a.Tile)
	slices.Sort(tiles)
	m.Type, m.Tiles = riichi.Kakan, tiles
	p.melds[mi] = m
	// addKan without breaking ippatsu yet: chankan may still claim it.
	keep := [4]bool{}
	for i := range k.p {
		keep[i] = k.p[i].ippatsu
	}
	k.addKan(s)
	for i := range k.p {
		k.p[i].ippatsu = keep[i]
	}
	k.drawn = -1
	k.startOffer(offerKakan, s, a.Tile, pos, false)
	return nil
}

func (k *Kyoku) tsumoAgari(a Action) error {
	s := a.Seat
	if k.drawn < 0 {
		return k.illegal(a, "no tile drawn this turn")
	}
	w, r := k.evalWin(s, k.known[k.drawn], true, false, true)
	if r != "" {
		return k.illegal(a, r)
	}
	k.settleWins([]winEval{w})
	return nil
}

func (k *Kyoku) kyuushu(a Action) error {
	s := a.Seat
	p := &k.p[s]
	switch {
	case k.drawn < 0 || k.rinshanTurn:
		return k.illegal(a, "only right after the first draw")
	case p.discards > 0 || k.anyCall:
		return k.illegal(a, "only on the first draw with no call before")
	case p.unknown > 0:
		return k.illegal(a, "hand not revealed")
	}
	if k.rules.NoKyuushu {
		return k.illegal(a, "no kyuushu kyuuhai under these rules")
	}
	if n := yaochuuKindCount(&p.counts); n < 9 {
		return k.illegal(a, fmt.Sprintf("only %d kinds of terminals and honours, need 9", n))
	}
	k.abort(AbortKyuushu)
	return nil
}

// kitaBlock returns why seat s may not declare kita (nukidora) with the
// tile at position pos now, or "".
func (k *Kyoku) kitaBlock(s Seat, pos int, t wall.Tile) string {
	switch {
	case k.n() != 3:
		return "kita only in three-player mahjong"
	case t.Kind() != 30:
		return fmt.Sprintf("kita takes a north tile, not %s", t.Kind())
	case k.afterCall:
		return "no kita right after a pon"
	case k.liveLeft() <= 0:
		return "no kita on the last tile of the wall"
	case k.p[s].riichi != noRiichi && pos != k.drawn:
		return "in riichi only the drawn north may be set aside"
	}
	return ""
}

// kita sets a north tile aside (nukidora, sanma): it is put on offer for
// ron like a discard (Tenhou), then replaced by a rinshan draw. Like a call
// it ends the first go-around and, once nobody rons the north, every
// ippatsu. Evidence for the latter: all five wins of a riichi player after
// another player's kita within the ippatsu window in the shared Tenhou
// three-player logs (four tsumo, one ron on a later discard; e.g.
// 2020010100gm-00b9-0000-bc812169, 2020010101gm-00b9-0000-1a2531ca)
// score riichi without ippatsu (replay.TestKitaEndsIppatsuInLogs), and
// Tenhou sanma players use a kita to erase an opponent's ippatsu
// (z-sanma.hatenablog.com 2017-07-10, "一発、ハイテイなどの細かいコント
// ロールアイテム"). A ron on the kita itself keeps the ronner's ippatsu,
// as a chankan does (issue 20; no shared log has that ron within the
// window).
func (k *Kyoku) kita(a Action) error {
	s := a.Seat
	p := &k.p[s]
	pos, ok := k.handPos(s, a.Tile)
	if !ok {
		return k.illegal(a, "tile not in the hand (or not revealed)")
	}
	if r := k.kitaBlock(s, pos, a.Tile); r != "" {
		return k.illegal(a, r)
	}
	// A pending daiminkan/kakan indicator turns at the kita, as at a
	// discard or the next kan (a shared three-player log shows its DORA
	// tag between the kita and its rinshan draw).
	k.doraShown += k.doraPending
	k.doraPending = 0
	k.removeHand(s, pos)
	p.kita = append(p.kita, pos)
	// Tenhou: a kita ends every ippatsu, but only once its offer passes:
	// a ron on the kita tile within the window still scores ippatsu, as a
	// chankan does (resolve ends the ippatsu).
	k.anyCall = true // and the first go-around (no double riichi after it)
	k.drawn = -1
	k.needRinshan = true
	k.startOffer(offerKita, s, a.Tile, pos, false)
	return nil
}
