package rules

// wrc is the World Riichi Championship rules (WRC Rules 2015, Sylvain
// Malbec, the rule book of the World Riichi Championship).
//
// Sources: riichi.wiki "World Riichi Championship rules" (ruleset box:
// kuitan ari, starting points 30,000, target 30,000, oka 0, uma
// +15/+5/-5/-15, tenpai renchan, abortive draws none; "Every yakuman is
// counted as single yakuman ... the maximum points awarded for any hand is
// capped as that of a single yakuman"; kazoe yakuman reduced to
// sanbaiman), the WRC 2014 rules errata (reachmahjong.com forum: "Swap
// calling (kuikae) is NOT allowed", "Kazoe yakuman is not allowed", "There
// is no daiminkan liability"), the WRC 2015 rule book (§5.9.1 "No
// agari yame"; §5.4 "Swap-calling (kuikae) is not allowed", as
// ooyamaneko.net's book comparison prints it) and the EMA's list of the
// RCR 2016's "Differences to World Championship Rules 2015" (Tina
// Christensen, European Mahjong Association, 2015, as mahjong.ru
// publishes it: "4-30 is not rounded to mangan payment" in the RCR, so the
// WRC rounds it up). The three-player values are Tenhou's (WRC is
// four-player only). Not modelled: the uma split of tied players, and the
// riichi sticks left at the end (the RCR gives them to the winner, "a
// difference" from the WRC; here, as on Tenhou, the first place takes
// them).
func wrc() Set {
	return Set{
		Aka:            0,               // no red fives
		Kuitan:         true,            // "Kuitan ... is allowed in the WRC rules"
		Kuikae:         KuikaeForbidden, // "Swap-calling (kuikae) is NOT allowed" (errata; WRC 2015 §5.4)
		Tobi:           true,            // riichi.wiki ruleset box: "Negative score: Game end"
		TobiBelow:      0,
		Ron:            RonAtamahane, // head bump: only the ron nearest the discarder wins
		Kyuushu:        false,        // "Abortive draws are completely omitted"
		Suufon:         false,
		Suucha:         false,
		Suukaikan:      false,
		Sanchahou:      false,
		Nagashi:        false, // no nagashi mangan
		Kiriage:        true,  // 4 han 30 fu is a mangan (the RCR 2016's "4-30 is not rounded" is a difference from WRC 2015)
		KazoeYakuman:   false, // "this value is reduced to sanbaiman"
		DoubleYakuman:  false, // "Every yakuman is counted as single yakuman"
		StackedYakuman: false, // "capped as that of a single yakuman"
		Renchan:        RenchanTenpai,
		AgariYame:      false, // "No agari yame"
		TenpaiYame:     false,
		Start:          30000, // "Starting points 30,000"
		Return:         30000, // "Session score = ((points - 30,000) / 1,000) + uma": oka 0
		Uma:            [4]int{15, 5, -5, -15},
		Start3:         35000, // not defined by WRC: Tenhou's
		Return3:        40000,
		Uma3:           [3]int{20, 0, -20},
		Honba:          300,
		Pao:            true,  // liability for daisangen and daisuushii (no daiminkan liability)
		West:           false, // no extension: the session ends after South 4
		RiichiNoDraw:   false, // riichi needs at least four tiles left in the wall
		Ura:            true,
		KanDora:        true, // flipped at once for every kan (timing not modelled)
		KanUra:         true,
	}
}
