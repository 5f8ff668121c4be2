package rules

// mleague is M.League's rules (Mリーグ).
//
// Sources: M.League's rule page (m-league.jp/about, "ルール") and
// riichi.wiki "M.League" (Game rules: "The starting score is 25,000
// points; the target score is 30,000 points. The bonus of oka and uma is
// +50/+10/-10/-30", i.e. uma +30/+10/-10/-30 and oka +20; "Atamahane";
// "Sekinin barai: daisangen, daisuushi and suukantsu"). M.League is
// four-player only: the three-player values are Tenhou's. Not modelled:
// the uma split of tied players (ties go by seat order, as Tenhou) and pao
// for suukantsu.
func mleague() Set {
	return Set{
		Aka:            3,               // one red five per suit
		Kuitan:         true,            // open tanyao
		Kuikae:         KuikaeForbidden, // kuikae forbidden
		Tobi:           false,           // no bust: a match is always played to its end
		Ron:            RonAtamahane,    // "Atamahane": only the nearest ron wins
		Kyuushu:        true,            // abortive draws: kyuushu kyuuhai, suufon renda, suucha riichi, suukaikan
		Suufon:         true,
		Suucha:         true,
		Suukaikan:      true,
		Sanchahou:      false,         // atamahane: three rons are no draw
		Nagashi:        true,          // nagashi mangan
		Kiriage:        false,         // no kiriage mangan
		KazoeYakuman:   true,          // kazoe yakuman
		DoubleYakuman:  false,         // no double yakuman
		StackedYakuman: true,          // yakuman add up
		Renchan:        RenchanTenpai, // tenpai renchan
		AgariYame:      false,         // no agari-yame or tenpai-yame: South 4 is played on
		TenpaiYame:     false,
		Start:          25000, // "starting score is 25,000 points"
		Return:         30000, // "target score is 30,000 points"
		Uma:            [4]int{30, 10, -10, -30},
		Start3:         35000, // not defined by the league: Tenhou's
		Return3:        40000,
		Uma3:           [3]int{20, 0, -20},
		Honba:          300,
		Pao:            true,  // daisangen, daisuushii (suukantsu pao not modelled)
		West:           false, // no west round: the match ends after South 4
		RiichiNoDraw:   false, // riichi needs a draw left
		Ura:            true,
		KanDora:        true, // kan dora flips at once for every kan (timing not modelled)
		KanUra:         true,
	}
}
