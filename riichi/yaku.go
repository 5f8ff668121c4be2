package riichi

import "github.com/mentalmj/mentalmj/wall"

// Tenhou yaku ids, as used in the mjlog <AGARI yaku=...> (pairs of id, han)
// and yakuman= attributes. The numbering was checked against the shared
// four-player logs.
const (
	YakuMenzenTsumo    = 0  // menzen tsumo (closed self-draw), 1 han
	YakuRiichi         = 1  // riichi, 1 han
	YakuIppatsu        = 2  // ippatsu, 1 han
	YakuChankan        = 3  // chankan (robbing a kakan), 1 han
	YakuRinshan        = 4  // rinshan kaihou, 1 han
	YakuHaitei         = 5  // haitei raoyue (tsumo on the last live tile), 1 han
	YakuHoutei         = 6  // houtei raoyui (ron on the last discard), 1 han
	YakuPinfu          = 7  // pinfu, 1 han (closed)
	YakuTanyao         = 8  // tanyao (all simples), 1 han (open too with kuitan)
	YakuIipeikou       = 9  // iipeikou, 1 han (closed)
	YakuSeatEast       = 10 // seat wind East triplet, 1 han; South 11, West 12, North 13
	YakuRoundEast      = 14 // round wind East triplet, 1 han; South 15, West 16, North 17
	YakuHaku           = 18 // haku triplet, 1 han
	YakuHatsu          = 19 // hatsu triplet, 1 han
	YakuChun           = 20 // chun triplet, 1 han
	YakuDoubleRiichi   = 21 // double riichi, 2 han (replaces riichi)
	YakuChiitoitsu     = 22 // chiitoitsu, 2 han
	YakuChanta         = 23 // chanta, 2 han closed / 1 open
	YakuIttsu          = 24 // ittsu (1-9 straight), 2 han closed / 1 open
	YakuSanshoku       = 25 // sanshoku doujun, 2 han closed / 1 open
	YakuSanshokuDoukou = 26 // sanshoku doukou, 2 han
	YakuSankantsu      = 27 // sankantsu, 2 han
	YakuToitoi         = 28 // toitoi, 2 han
	YakuSanankou       = 29 // sanankou, 2 han
	YakuShousangen     = 30 // shousangen, 2 han
	YakuHonroutou      = 31 // honroutou, 2 han
	YakuRyanpeikou     = 32 // ryanpeikou, 3 han (closed)
	YakuJunchan        = 33 // junchan, 3 han closed / 2 open
	YakuHonitsu        = 34 // honitsu, 3 han closed / 2 open
	YakuChinitsu       = 35 // chinitsu, 6 han closed / 5 open
	YakuRenhou         = 36 // renhou: not played on Tenhou; never produced by Score
	YakuTenhou         = 37 // tenhou, yakuman
	YakuChiihou        = 38 // chiihou, yakuman
	YakuDaisangen      = 39 // daisangen, yakuman
	YakuSuuankou       = 40 // suuankou, yakuman
	YakuSuuankouTanki  = 41 // suuankou tanki, one yakuman on Tenhou
	YakuTsuuiisou      = 42 // tsuuiisou, yakuman
	YakuRyuuiisou      = 43 // ryuuiisou, yakuman
	YakuChinroutou     = 44 // chinroutou, yakuman
	YakuChuuren        = 45 // chuuren poutou, yakuman
	YakuJunseiChuuren  = 46 // junsei chuuren poutou (nine-sided wait), one yakuman on Tenhou
	YakuKokushi        = 47 // kokushi musou, yakuman
	YakuKokushi13      = 48 // kokushi musou 13-sided wait, one yakuman on Tenhou
	YakuDaisuushii     = 49 // daisuushii, one yakuman on Tenhou
	YakuShousuushii    = 50 // shousuushii, yakuman
	YakuSuukantsu      = 51 // suukantsu, yakuman
	YakuDora           = 52 // dora, han = count
	YakuUraDora        = 53 // ura dora, han = count (listed at 0 with riichi)
	YakuAkaDora        = 54 // aka dora (red fives), han = count
)

// Yaku is one entry of a win's yaku list: Tenhou id (Yaku* constants) and
// its han (dora entries carry the dora count; ura dora may be 0).
type Yaku struct {
	ID, Han int
}

// waitKind is the role the winning tile plays in a reading.
type waitKind int

const (
	waitNone    waitKind = iota // chiitoitsu, kokushi
	waitRyanmen                 // two-sided sequence wait
	waitKanchan                 // closed (middle) sequence wait
	waitPenchan                 // edge sequence wait (12-3, 7-89)
	waitShanpon                 // the winning tile completes a triplet
	waitTanki                   // the winning tile completes the pair
)

// handSet is one of the four sets of a standard reading, concealed or
// declared.
type handSet struct {
	kind  wall.Kind // first kind of a sequence, kind of a triplet/kan
	seq   bool      // sequence (shuntsu)
	kan   bool      // quad
	open  bool      // from an open meld (chi, pon, daiminkan, kakan)
	ankou bool      // triplet/quad counted as concealed: not an open meld and not completed by ron
}

// reading is one interpretation of a complete hand: a decomposition plus
// the role of the winning tile.
type reading struct {
	form Form
	// sets: the concealed sets in kind order, then the declared melds in
	// call order (the order Tenhou lists yakuhai in).
	sets  []handSet
	pair  wall.Kind // standard pair, kokushi doubled kind
	wait  waitKind
	pairs []wall.Kind // chiitoitsu pairs
}

// handFacts are the reading-independent facts about a win.
type handFacts struct {
	ctx     *WinContext
	all     Counts // every tile: concealed + melds (kans count 4)
	menzen  bool   // no open meld (ankan allowed)
	noMelds bool   // no meld at all (chuuren needs this)
	winKind wall.Kind
	// concealed13 is the concealed part minus the winning tile.
	concealed13 Counts
}

// yakuhaiIDs returns the yakuhai ids a triplet of k earns, in Tenhou's
// listing order (round wind before seat wind).
func yakuhaiIDs(k, seat, round wall.Kind) []int {
	switch {
	case k >= 31:
		return []int{YakuHaku + int(k-31)}
	case k >= 27:
		var ids []int
		if k == round {
			ids = append(ids, YakuRoundEast+int(k-27))
		}
		if k == seat {
			ids = append(ids, YakuSeatEast+int(k-27))
		}
		return ids
	}
	return nil
}

// isTerminalOrHonor reports whether k is a 1, 9 or honour.
func isTerminalOrHonor(k wall.Kind) bool { return k.IsHonor() || k.IsTerminal() }

// isGreen reports whether k is a ryuuiisou kind: 2s 3s 4s 6s 8s hatsu.
func isGreen(k wall.Kind) bool {
	switch k {
	case 19, 20, 21, 23, 25, 32:
		return true
	}
	return false
}

// yakumanOf returns the Tenhou yakuman ids of reading r, in id order.
// Tenhou counts each id as one yakuman (no double yakuman for suuankou
// tanki, kokushi 13-wait, junsei chuuren or daisuushii) and adds up
// different yakuman.
func yakumanOf(f *handFacts, r *reading) []int {
	ctx := f.ctx
	var out []int
	if ctx.Tenhou {
		out = append(out, YakuTenhou)
	}
	if ctx.Chiihou {
		out = append(out, YakuChiihou)
	}
	// Tile-colour yakuman, valid for every form.
	allHonor, allGreen, allTerminal := true, true, true
	for k, n := range f.all {
		if n == 0 {
			continue
		}
		kk := wall.Kind(k)
		if !kk.IsHonor() {
			allHonor = false
		}
		if !isGreen(kk) {
			allGreen = false
		}
		if !kk.IsTerminal() {
			allTerminal = false
		}
	}
	switch r.form {
	case Kokushi:
		if f.concealed13[r.pair] == 1 && f.winKind == r.pair {
			out = append(out, YakuKokushi13)
		} else {
			out = append(out, YakuKokushi)
		}
	case Chiitoitsu:
		if allHonor {
			out = append(out, YakuTsuuiisou)
		}
	case Standard:
		dragons, winds, kans, ankou := 0, 0, 0, 0
		for _, s := range r.sets {
			if s.seq {
				continue
			}
			if s.kind >= 31 {
				dragons++
			} else if s.kind >= 27 {
				winds++
			}
			if s.kan {
				kans++
			}
			if s.ankou {
				ankou++
			}
		}
		if dragons == 3 {
			out = append(out, YakuDaisangen)
		}
		if ankou == 4 {
			if r.wait == waitTanki {
				out = append(out, YakuSuuankouTanki)
			} else {
				out = append(out, YakuSuuankou)
			}
		}
		if allHonor {
			out = append(out, YakuTsuuiisou)
		}
		if allGreen {
			out = append(out, YakuRyuuiisou)
		}
		if allTerminal {
			out = append(out, YakuChinroutou)
		}
		if id := chuuren(f); id >= 0 {
			out = append(out, id)
		}
		if winds == 4 {
			out = append(out, YakuDaisuushii)
		} else if winds == 3 && r.pair >= 27 && r.pair <= 30 {
			out = append(out, YakuShousuushii)
		}
		if kans == 4 {
			out = append(out, YakuSuukantsu)
		}
	}
	return out
}

// chuuren returns YakuJunseiChuuren, YakuChuuren or -1: a meldless hand of
// one number suit holding 1112345678999 plus any tile of the suit; junsei
// when the 13 tiles before the win are exactly 1112345678999.
func chuuren(f *handFacts) int {
	if !f.noMelds {
		return -1
	}
	suit := -1
	for k, n := range f.all {
		if n == 0 {
			continue
		}
		if k >= 27 || (suit >= 0 && k/9 != suit) {
			return -1
		}
		suit = k / 9
	}
	if suit < 0 {
		return -1
	}
	need := [9]int{3, 1, 1, 1, 1, 1, 1, 1, 3}
	pure := true
	for i, v := range need {
		if f.all[suit*9+i] < v {
			return -1
		}
		if f.concealed13[suit*9+i] != v {
			pure = false
		}
	}
	if pure {
		return YakuJunseiChuuren
	}
	return YakuChuuren
}

// yakuOf returns the non-dora yaku of reading r in Tenhou's listing order
// (checked against the shared logs): riichi/double riichi, ippatsu,
// chankan, rinshan, haitei, houtei, menzen tsumo, pinfu, iipeikou /
// ryanpeikou / chiitoitsu, ittsu, sanshoku, shousangen, sanankou, toitoi,
// sankantsu, sanshoku doukou, tanyao, yakuhai (sets in reading order; round
// wind before seat wind), chanta / junchan / honroutou, honitsu / chinitsu.
// pinfu reports whether pinfu applies (for fu).
func yakuOf(f *handFacts, r *reading) (out []Yaku, pinfu bool) {
	ctx := f.ctx
	add := func(id, han int) { out = append(out, Yaku{id, han}) }
	open := !f.menzen
	// openHan returns closed han, reduced by one for open hands (kuisagari).
	kui := func(closed int) int {
		if open {
			return closed - 1
		}
		return closed
	}
	switch {
	case ctx.DoubleRiichi:
		add(YakuDoubleRiichi, 2)
	case ctx.Riichi:
		add(YakuRiichi, 1)
	}
	if ctx.Ippatsu {
		add(YakuIppatsu, 1)
	}
	if ctx.Chankan {
		add(YakuChankan, 1)
	}
	if ctx.Rinshan {
		add(YakuRinshan, 1)
	}
	if ctx.Haitei {
		add(YakuHaitei, 1)
	}
	if ctx.Houtei {
		add(YakuHoutei, 1)
	}
	if ctx.Tsumo && f.menzen {
		add(YakuMenzenTsumo, 1)
	}

	// Tile-property facts over the whole hand.
	simples, hasHonor, suits := true, false, [3]bool{}
	allTermHonor := true
	for k, n := range f.all {
		if n == 0 {
			continue
		}
		kk := wall.Kind(k)
		if isTerminalOrHonor(kk) {
			simples = false
		} else {
			allTermHonor = false
		}
		if kk.IsHonor() {
			hasHonor = true
		} else {
			suits[k/9] = true
		}
	}
	nSuits := 0
	for _, s := range suits {
		if s {
			nSuits++
		}
	}
	tanyao := simples && (f.menzen || ctx.Rules.Kuitan)

	if r.form == Chiitoitsu {
		add(YakuChiitoitsu, 2)
		if tanyao {
			add(YakuTanyao, 1)
		}
		if allTermHonor {
			add(YakuHonroutou, 2)
		}
		if nSuits == 1 && hasHonor {
			add(YakuHonitsu, 3)
		} else if nSuits == 1 {
			add(YakuChinitsu, 6)
		}
		return out, false
	}

	seqs, trips, kans, ankou := 0, 0, 0, 0
	var seqCount [wall.NumKinds]int
	var seqSuit, tripNum [9]uint8 // bit per suit
	dragonTrips := 0
	for _, s := range r.sets {
		if s.seq {
			seqs++
			seqCount[s.kind]++
			seqSuit[s.kind%9] |= 1 << (s.kind / 9)
			continue
		}
		trips++
		if s.kan {
			kans++
		}
		if s.ankou {
			ankou++
		}
		if s.kind >= 31 {
			dragonTrips++
		}
		if !s.kind.IsHonor() {
			tripNum[s.kind%9] |= 1 << (s.kind / 9)
		}
	}
	pairYakuhai := r.pair >= 31 || r.pair == ctx.SeatWind || r.pair == ctx.RoundWind
	pinfu = f.menzen && len(ctx.Melds) == 0 && seqs == 4 && !pairYakuhai && r.wait == waitRyanmen
	if pinfu {
		add(YakuPinfu, 1)
	}
	if f.menzen {
		peikou := 0
		for _, n := range seqCount {
			peikou += n / 2
		}
		switch {
		case peikou >= 2:
			add(YakuRyanpeikou, 3)
		case peikou == 1:
			add(YakuIipeikou, 1)
		}
	}
	for suit := wall.Kind(0); suit < 3; suit++ {
		if seqCount[suit*9] > 0 && seqCount[suit*9+3] > 0 && seqCount[suit*9+6] > 0 {
			add(YakuIttsu, kui(2))
			break
		}
	}
	for n := 0; n < 7; n++ {
		if seqSuit[n] == 7 {
			add(YakuSanshoku, kui(2))
			break
		}
	}
	if dragonTrips == 2 && r.pair >= 31 {
		add(YakuShousangen, 2)
	}
	if ankou == 3 {
		add(YakuSanankou, 2)
	}
	if trips == 4 {
		add(YakuToitoi, 2)
	}
	if kans == 3 {
		add(YakuSankantsu, 2)
	}
	for n := 0; n < 9; n++ {
		if tripNum[n] == 7 {
			add(YakuSanshokuDoukou, 2)
			break
		}
	}
	if tanyao {
		add(YakuTanyao, 1)
	}
	for _, s := range r.sets {
		if !s.seq {
			for _, id := range yakuhaiIDs(s.kind, ctx.SeatWind, ctx.RoundWind) {
				add(id, 1)
			}
		}
	}
	// Chanta / junchan: every set and the pair hold a terminal or honour,
	// with at least one sequence (otherwise it is honroutou / chinroutou).
	outside := isTerminalOrHonor(r.pair)
	for _, s := range r.sets {
		if s.seq {
			if s.kind%9 != 0 && s.kind%9 != 6 {
				outside = false
			}
		} else if !isTerminalOrHonor(s.kind) {
			outside = false
		}
	}
	switch {
	case allTermHonor:
		add(YakuHonroutou, 2)
	case outside && seqs > 0 && hasHonor:
		add(YakuChanta, kui(2))
	case outside && seqs > 0:
		add(YakuJunchan, kui(3))
	}
	if nSuits == 1 && hasHonor {
		add(YakuHonitsu, kui(3))
	} else if nSuits == 1 {
		add(YakuChinitsu, kui(6))
	}
	return out, pinfu
}

// doraKind returns the dora indicated by indicator kind k: the next number
// of the suit (9 wraps to 1), winds East→South→West→North→East, dragons
// haku→hatsu→chun→haku.
func doraKind(k wall.Kind) wall.Kind {
	switch {
	case k < 27:
		return k/9*9 + (k%9+1)%9
	case k < 31:
		return 27 + (k-27+1)%4
	default:
		return 31 + (k-31+1)%3
	}
}

// DoraOf returns the dora kind indicated by a dora (or ura) indicator tile
// under the four-player rules (the next kind of the suit, 9 → 1, E S W N
// and haku hatsu chun in cycle).
func DoraOf(indicator wall.Tile) wall.Kind { return doraKind(indicator.Kind()) }

// DoraOfRules is DoraOf under rules r: in three-player mahjong (r.Sanma)
// the manzu has only 1m and 9m, so a 1m indicator makes 9m dora and a 9m
// indicator 1m (Tenhou's three-player rules).
func DoraOfRules(indicator wall.Tile, r Rules) wall.Kind {
	if r.Sanma {
		switch indicator.Kind() {
		case 0:
			return 8
		case 8:
			return 0
		}
	}
	return DoraOf(indicator)
}
