package game

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// startOffer puts tile t (at yama position pos) on offer from seat from
// and computes who must answer. A seat with hidden tiles must always
// answer; a fully known seat only if it has an option besides passing.
func (k *Kyoku) startOffer(kind offerKind, from Seat, t wall.Tile, pos int, riichiDecl bool) {
	k.offer = offer{kind: kind, from: from, tile: t, pos: pos, riichi: riichiDecl}
	k.phase = PhaseResponse
	any := false
	for i := 1; i < k.n(); i++ {
		s := k.next(from, i)
		if k.p[s].unknown > 0 || k.mayAnswer(s) {
			k.offer.pending[s] = true
			any = true
		}
	}
	if !any {
		k.resolve()
	}
}

// mayAnswer reports whether fully known seat s has an option other than
// pass on the tile on offer (a cheap superset for calls, exact for ron).
func (k *Kyoku) mayAnswer(s Seat) bool {
	p := &k.p[s]
	kind := k.offer.tile.Kind()
	c := p.counts
	c[kind]++
	if mayComplete(&p.counts, kind) && isComplete(&c, len(p.melds)) {
		if _, r := k.evalWin(s, k.offer.tile, false, k.offerIsKan(), false); r == "" {
			return true
		}
	}
	if k.offer.kind != offerDiscard || p.riichi != noRiichi || k.liveLeft() == 0 {
		return false
	}
	if p.counts[kind] >= 2 {
		return true
	}
	if k.n() == 4 && s == k.next(k.offer.from, 1) && !kind.IsHonor() {
		n := int(kind % 9)
		has := func(d int) bool { return n+d >= 0 && n+d < 9 && p.counts[int(kind)+d] > 0 }
		return has(-2) && has(-1) || has(-1) && has(1) || has(1) && has(2)
	}
	return false
}

func (k *Kyoku) respond(a Action) error {
	s := a.Seat
	a.Tile = k.offer.tile
	if s == k.offer.from {
		return k.illegal(a, "cannot answer the own tile")
	}
	if !k.offer.pending[s] {
		// A seat the engine sees completely with no option: say why.
		switch a.Type {
		case Ron:
			if _, r := k.evalWin(s, k.offer.tile, false, k.offerIsKan(), false); r != "" {
				return k.illegal(a, r)
			}
		case Chi, Pon, Daiminkan:
			if r := k.callBlock(a); r != "" {
				return k.illegal(a, r)
			}
		}
		return k.illegal(a, "nothing to answer (no option on this tile)")
	}
	if k.offer.answer[s].Type != 0 {
		return k.illegal(a, "already answered")
	}
	switch a.Type {
	case Pass:
	case Ron:
		w, r := k.evalWin(s, k.offer.tile, false, k.offerIsKan(), true)
		if r != "" {
			return k.illegal(a, r)
		}
		k.ronValue[s] = w
	case Chi, Pon, Daiminkan:
		if r := k.callBlock(a); r != "" {
			return k.illegal(a, r)
		}
	default:
		return k.illegal(a, "only pass, ron, chi, pon or daiminkan when a tile is on offer")
	}
	k.offer.answer[s] = a
	for i := 1; i < k.n(); i++ {
		o := k.next(k.offer.from, i)
		if k.offer.pending[o] && k.offer.answer[o].Type == 0 {
			return nil
		}
	}
	k.resolve()
	return nil
}

// callTiles resolves the hand tiles of a call to yama positions.
func (k *Kyoku) callTiles(s Seat, tiles []wall.Tile) ([]int, string) {
	pos := make([]int, len(tiles))
	for i, t := range tiles {
		p, ok := k.handPos(s, t)
		if !ok {
			return nil, fmt.Sprintf("%s (id %d) not in the hand (or not revealed)", t, int(t))
		}
		if slices.Contains(pos[:i], p) {
			return nil, "a tile is given twice"
		}
		pos[i] = p
	}
	return pos, ""
}

// callBlock returns why call a (chi, pon, daiminkan) is illegal, or "".
func (k *Kyoku) callBlock(a Action) string {
	s := a.Seat
	p := &k.p[s]
	t := k.offer.tile
	kind := t.Kind()
	switch {
	case k.offer.kind == offerKita:
		return "only ron may take a kita tile"
	case k.offer.kind != offerDiscard:
		return "only ron may take a kan tile"
	case p.riichi != noRiichi:
		return "no calls in riichi"
	case k.liveLeft() == 0:
		return "no calls on the last discard (houtei)"
	}
	want := map[ActionType]int{Chi: 2, Pon: 2, Daiminkan: 3}[a.Type]
	if len(a.Tiles) != want {
		return fmt.Sprintf("%s takes %d hand tiles, got %d", a.Type, want, len(a.Tiles))
	}
	if _, r := k.callTiles(s, a.Tiles); r != "" {
		return r
	}
	var forbid uint64
	switch a.Type {
	case Pon, Daiminkan:
		for _, x := range a.Tiles {
			if x.Kind() != kind {
				return fmt.Sprintf("%s is not %s", x, kind)
			}
		}
		if a.Type == Daiminkan && k.kans >= 4 {
			return "four kans already declared"
		}
		forbid = k.kuikaeKinds(kind, a.Tiles, false)
	case Chi:
		if k.n() == 3 {
			return "no chi in three-player mahjong"
		}
		if s != k.next(k.offer.from, 1) {
			return "chi only from kamicha (the previous seat)"
		}
		ks := []wall.Kind{kind, a.Tiles[0].Kind(), a.Tiles[1].Kind()}
		slices.Sort(ks)
		if kind.IsHonor() || ks[0].IsHonor() || ks[2].IsHonor() || ks[0]/9 != ks[2]/9 || ks[1] != ks[0]+1 || ks[2] != ks[0]+2 {
			return "the tiles do not form a sequence with the discard"
		}
		forbid = k.kuikaeKinds(kind, a.Tiles, true)
	}
	if a.Type != Daiminkan && p.unknown == 0 {
		c := p.counts
		for _, x := range a.Tiles {
			c[x.Kind()]--
		}
		ok := false
		for kk, v := range c {
			if v > 0 && forbid&kindBit(wall.Kind(kk)) == 0 {
				ok = true
				break
			}
		}
		if !ok {
			return "kuikae: no tile could be discarded after the call"
		}
	}
	return ""
}

// resolve settles the offer once every awaited seat has answered: rons
// first (three rons abort), then riichi acceptance and abortive draws, the
// exhaustive draw, then pon/daiminkan over chi, else the next draw.
func (k *Kyoku) resolve() {
	o := &k.offer
	var rons []winEval
	for i := 1; i < k.n(); i++ {
		s := k.next(o.from, i)
		if o.answer[s].Type == Ron {
			rons = append(rons, k.ronValue[s])
		}
	}
	switch {
	case len(rons) > 1 && k.rules.Ron == RonAtamahane:
		rons = rons[:1] // head bump: the nearest to the discarder
	case len(rons) == 3 && k.rules.Ron == RonDouble && !k.rules.NoSanchahou:
		k.abort(AbortSanchahou)
		return
	case len(rons) == 3 && k.rules.Ron == RonDouble:
		rons = rons[:2]
	}
	if len(rons) > 0 {
		k.settleWins(rons)
		return
	}
	// A passed discard or kakan tile makes furiten (Tenhou: chankan on a
	// kakan is a pass); an ankan tile does not: only kokushi may rob it,
	// and on Tenhou another player's ankan of a winning tile is not a tile
	// passed, so the other waits may still be ronned later.
	if o.kind != offerAnkan {
		bit := kindBit(o.tile.Kind())
		for i := 1; i < k.n(); i++ {
			p := &k.p[k.next(o.from, i)]
			p.passed |= bit
			if p.riichi != noRiichi {
				p.riichiPassed |= bit
			}
		}
	}
	if o.kind == offerKita {
		for i := range k.p {
			k.p[i].ippatsu = false // the kita passed: it ends every ippatsu
		}
		k.turn = o.from
		k.phase = PhaseDraw
		return
	}
	if o.kind != offerDiscard {
		if o.kind == offerKakan {
			for i := range k.p {
				k.p[i].ippatsu = false
			}
		}
		k.turn = o.from
		k.phase = PhaseDraw
		return
	}
	d := &k.p[o.from]
	if o.riichi {
		d.riichi = riichiAccepted
		d.ippatsu = true
		k.scores[o.from] -= 1000
		k.kyotaku++
		all := k.n() == 4 && !k.rules.NoSuucha // no suucha riichi in sanma
		for i := range k.n() {
			all = all && k.p[i].riichi == riichiAccepted
		}
		if all {
			k.abort(AbortSuucha)
			return
		}
	}
	if k.suufon && !k.rules.NoSuufon {
		k.abort(AbortSuufon)
		return
	}
	if k.suukan && !k.rules.NoSuukaikan {
		k.abort(AbortSuukan)
		return
	}
	if k.liveLeft() == 0 {
		k.exhaustiveDraw()
		return
	}
	var call *Action
	for i := 1; i < k.n(); i++ {
		a := &o.answer[k.next(o.from, i)]
		switch a.Type {
		case Pon, Daiminkan:
			call = a
		case Chi:
			if call == nil {
				call = a
			}
		}
	}
	if call != nil {
		k.applyCall(*call)
		return
	}
	k.turn = k.next(o.from, 1)
	k.phase = PhaseDraw
}

func (k *Kyoku) applyCall(a Action) {
	s := a.Seat
	p := &k.p[s]
	from := k.offer.from
	t := k.offer.tile
	pos, _ := k.callTiles(s, a.Tiles)
	for _, x := range pos {
		k.removeHand(s, x)
	}
	tiles := append(slices.Clone(a.Tiles), t)
	slices.Sort(tiles)
	mt := map[ActionType]riichi.MeldType{Chi: riichi.Chi, Pon: riichi.Pon, Daiminkan: riichi.Daiminkan}[a.Type]
	p.melds = append(p.melds, Meld{Meld: riichi.Meld{Type: mt, Tiles: tiles, Called: t, From: k.meldFrom(s, from)}, FromSeat: from})
	fp := &k.p[from]
	fp.river[len(fp.river)-1].Called = true
	fp.nagashi = false
	k.anyCall = true
	for i := range k.p {
		k.p[i].ippatsu = false
	}
	kind := t.Kind()
	if a.Type != Chi && !k.rules.NoPao {
		if kind >= 31 && k.countMelds(s, 31, 33) == 3 {
			p.paoDragon = from
		}
		if kind >= 27 && kind <= 30 && k.countMelds(s, 27, 30) == 4 {
			p.paoWind = from
		}
	}
	k.turn = s
	k.drawn = -1
	if a.Type == Daiminkan {
		k.doraShown += k.doraPending
		k.doraPending = 1 // Tenhou: turned after the rinshan draw's discard
		k.addKan(s)
		k.phase = PhaseDraw
		return
	}
	k.afterCall = true
	p.kuikae = k.kuikaeKinds(kind, a.Tiles, a.Type == Chi)
	k.phase = PhaseTurn
}

// kuikaeKinds returns the kinds (bit mask) the caller may not discard
// right after calling a tile of kind with own tiles (a chi when chi),
// under Rules.Kuikae: forbidden, the called kind and, for a chi, the kind
// at the other end of the sequence (Tenhou); suji, the called kind only;
// allowed, none.
func (k *Kyoku) kuikaeKinds(kind wall.Kind, own []wall.Tile, chi bool) uint64 {
	switch k.rules.Kuikae {
	case KuikaeAllowed:
		return 0
	case KuikaeSuji:
		return kindBit(kind)
	}
	m := kindBit(kind)
	if chi && len(own) == 2 {
		ks := []wall.Kind{kind, own[0].Kind(), own[1].Kind()}
		slices.Sort(ks)
		n := int(kind % 9)
		switch {
		case ks[0] == kind && n+3 < 9:
			m |= kindBit(kind + 3)
		case ks[2] == kind && n-3 >= 0:
			m |= kindBit(kind - 3)
		}
	}
	return m
}

// countMelds counts seat s's pon/kan melds of kinds lo..hi.
func (k *Kyoku) countMelds(s Seat, lo, hi wall.Kind) int {
	n := 0
	for _, m := range k.p[s].melds {
		if m.Type != riichi.Chi {
			if kk := m.Tiles[0].Kind(); kk >= lo && kk <= hi {
				n++
			}
		}
	}
	return n
}

// meldFrom returns the From of a meld seat s called from seat from, in
// Tenhou's convention (1 shimocha, 2 toimen, 3 kamicha): the seat
// difference modulo 4 also in sanma, whose empty fourth seat keeps its
// place (the 3p logs' meld codes show it).
func (k *Kyoku) meldFrom(s, from Seat) int { return s.Relative(from) }
