package riichi

// Payment is who pays what for a win, honba included, riichi sticks
// (kyotaku, 1000 each, which go to the winner) and pao excluded.
//
// Ron: Ron is the total the discarder pays: the hand's points plus 300 per
// honba; the tsumo fields are 0.
//
// Tsumo by a non-dealer: TsumoDealer is what the dealer (oya) pays and
// TsumoNonDealer what each of the two other non-dealers pays, each plus 100
// per honba. Tsumo by the dealer: TsumoNonDealer is what each of the three
// non-dealers pays (plus 100 per honba) and TsumoDealer is 0. Ron is 0 for
// tsumo.
type Payment struct {
	Ron                         int
	TsumoDealer, TsumoNonDealer int
}

// Total returns the points the winner receives from the other players: Ron,
// or the sum of the tsumo payments of three payers (four players), honba
// included and riichi sticks excluded. For a three-player tsumo
// (Rules.Sanma) the two payers pay TsumoDealer + TsumoNonDealer, or twice
// TsumoNonDealer for a dealer's tsumo; Total does not know the rules and
// counts a third payer.
func (p Payment) Total() int {
	if p.Ron > 0 {
		return p.Ron
	}
	if p.TsumoDealer > 0 {
		return p.TsumoDealer + 2*p.TsumoNonDealer
	}
	return 3 * p.TsumoNonDealer
}

// ceil100 rounds v up to a multiple of 100 (Tenhou rounds every payment up).
func ceil100(v int) int { return (v + 99) / 100 * 100 }

// BasePoints returns the basic points (kihonten) of han and fu, following
// Tenhou: fu·2^(2+han), mangan 2000 from 5 han or when fu·2^(2+han)
// reaches 2000 (no kiriage mangan: 4 han 30 fu stays 1920), haneman 3000
// (6-7 han), baiman 4000 (8-10), sanbaiman 6000 (11-12), kazoe yakuman
// 8000 (13+). limit is Tenhou's ten= third field: 0 none, 1 mangan,
// 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman. han < 1 gives 0, 0.
func BasePoints(han, fu int) (base, limit int) {
	switch {
	case han < 1:
		return 0, 0
	case han >= 13:
		return 8000, 5
	case han >= 11:
		return 6000, 4
	case han >= 8:
		return 4000, 3
	case han >= 6:
		return 3000, 2
	case han == 5:
		return 2000, 1
	}
	b := fu << (2 + han)
	if b >= 2000 {
		return 2000, 1
	}
	return b, 0
}

// BasePoints is the package function BasePoints under rules r: with
// r.Kiriage 4 han 30 fu and 3 han 60 fu (1920) are a mangan (limit 1);
// with r.KazoeSanbaiman 13 han and more are a sanbaiman (6000, limit 4).
func (r Rules) BasePoints(han, fu int) (base, limit int) {
	base, limit = BasePoints(han, fu)
	switch {
	case r.KazoeSanbaiman && han >= 13:
		return 6000, 4
	case r.Kiriage && base == 1920:
		return 2000, 1
	}
	return base, limit
}

// YakumanCount returns how many yakuman the Tenhou yakuman ids ym are
// worth under r: one each (Tenhou); with r.DoubleYakuman two for
// suuankou tanki (41), junsei chuuren poutou (46), kokushi musou
// 13-sided (48) and daisuushii (49); with r.SingleYakuman one at most,
// a double yakuman included (WRC: "capped as that of a single yakuman";
// @kobalab/majiang-core's 役満の複合あり false).
func (r Rules) YakumanCount(ym []int) int {
	if r.SingleYakuman {
		return min(len(ym), 1)
	}
	n := 0
	for _, id := range ym {
		n++
		if r.DoubleYakuman && (id == YakuSuuankouTanki || id == YakuJunseiChuuren || id == YakuKokushi13 || id == YakuDaisuushii) {
			n++
		}
	}
	return n
}

// pay computes Tenhou's ten= value (without honba) and the payment (with
// honba) for basic points base; h is the value of one honba on a
// four-player ron (300 on Tenhou); sanma: three players (tsumo loss, h/3
// per honba from each of the two payers, 2h/3 per honba on a ron).
func pay(base int, dealer, tsumo bool, honba int, sanma bool, h int) (points int, p Payment) {
	each := h / 3 * honba
	if sanma {
		switch {
		case !tsumo && dealer:
			points = ceil100(6 * base)
			p.Ron = points + 2*each
		case !tsumo:
			points = ceil100(4 * base)
			p.Ron = points + 2*each
		case dealer:
			share := ceil100(2 * base)
			points = 2 * share
			p.TsumoNonDealer = share + each
		default:
			d, n := ceil100(2*base), ceil100(base)
			points = d + n
			p.TsumoDealer = d + each
			p.TsumoNonDealer = n + each
		}
		return points, p
	}
	switch {
	case !tsumo && dealer:
		points = ceil100(6 * base)
		p.Ron = points + h*honba
	case !tsumo:
		points = ceil100(4 * base)
		p.Ron = points + h*honba
	case dealer:
		share := ceil100(2 * base)
		points = 3 * share
		p.TsumoNonDealer = share + each
	default:
		d, n := ceil100(2*base), ceil100(base)
		points = d + 2*n
		p.TsumoDealer = d + each
		p.TsumoNonDealer = n + each
	}
	return points, p
}

// Points returns the value of a hand as Tenhou's ten= second field (no
// honba) and the Payment with honba, for han and fu (BasePoints) or, when
// yakuman > 0, for that many yakuman (8000 basic points each). dealer is
// whether the winner is the oya.
func Points(han, fu, yakuman int, dealer, tsumo bool, honba int) (points int, p Payment) {
	return PointsRules(han, fu, yakuman, dealer, tsumo, honba, TenhouRules)
}

// PointsRules is Points under rules r: with r.Sanma the three-player
// payments (Rules.Sanma): a tsumo is paid by the two other players only,
// so points is 2 shares, not 3; r.Kiriage and r.KazoeSanbaiman as
// Rules.BasePoints; r.Honba the honba value. yakuman is the count already
// weighed by r (Rules.YakumanCount).
func PointsRules(han, fu, yakuman int, dealer, tsumo bool, honba int, r Rules) (points int, p Payment) {
	base, _ := r.BasePoints(han, fu)
	if yakuman > 0 {
		base = 8000 * yakuman
	}
	return pay(base, dealer, tsumo, honba, r.Sanma, r.HonbaValue())
}

// PaoPayment returns who pays a single-yakuman win (daisangen or
// daisuushii) for which another player is liable (pao, sekinin barai)
// because their discard was called to complete the yakuman's last set.
// dealer is whether the winner is the oya.
//
// Tsumo: the liable player pays the whole yakuman value (48000 dealer,
// 32000 non-dealer) plus 300 per honba, alone; discarder is 0 (checked
// against the pao tsumo wins of the shared Tenhou logs).
//
// Ron: the liable player and the discarder each pay half of the value and
// the discarder also pays the 300 per honba (the common rule; no pao ron is
// in the corpus to check it). When the liable player is the discarder the
// caller should use the ordinary Payment instead.
//
// Hands worth more than one yakuman, where only part of the value is under
// pao, are not modelled.
func PaoPayment(dealer, tsumo bool, honba int) (liable, discarder int) {
	value := 32000
	if dealer {
		value = 48000
	}
	if tsumo {
		return value + 300*honba, 0
	}
	return value / 2, value/2 + 300*honba
}
