package rules

// majsoul is Mahjong Soul's ranked rules (段位戦).
//
// Sources: Mahjong Soul's "段位戦ルール説明" (mahjongsoul.com/?newsid=60c8610c2ac863186fdbebd4,
// quoted in github.com/Cryolite's 2021 questions to Mahjong Soul support:
// "ダブロン・トリプルロンの場合、積み棒は上家取り", "包発生時には積み棒は包の責任者が支払う");
// riichi.wiki "Mahjong Soul" (rules section). Where Mahjong Soul does what
// Tenhou does, the comment says "as Tenhou". The uma is the friendly-room
// default; ranked rooms add rank points by room instead, which are no
// table rule.
func majsoul() Set {
	return Set{
		Aka:            3,               // one red five per suit
		Kuitan:         true,            // open tanyao
		Kuikae:         KuikaeForbidden, // kuikae forbidden, as Tenhou
		Tobi:           true,            // bust below 0 ends the game, as Tenhou
		TobiBelow:      0,
		Ron:            RonTriple, // "ダブロン・トリプルロン": double and triple ron are paid
		Kyuushu:        true,      // abortive draws as Tenhou, except sanchahou
		Suufon:         true,
		Suucha:         true,
		Suukaikan:      true,
		Sanchahou:      false,         // a triple ron is paid (above), never aborted
		Nagashi:        true,          // nagashi mangan (several at once all count)
		Kiriage:        false,         // no kiriage mangan
		KazoeYakuman:   true,          // kazoe yakuman
		DoubleYakuman:  true,          // double yakuman for the four hands with the double wait/set
		StackedYakuman: true,          // yakuman add up
		Renchan:        RenchanTenpai, // tenpai renchan
		AgariYame:      true,          // automatic agari-yame and tenpai-yame, as Tenhou
		TenpaiYame:     true,
		Start:          25000, // 25000 start, 30000 return
		Return:         30000,
		Uma:            [4]int{15, 5, -5, -15}, // friendly-room default uma 5-15
		Start3:         35000,                  // three-player: 35000 start, 40000 return
		Return3:        40000,
		Uma3:           [3]int{15, 0, -15},
		Honba:          300,   // 300 per honba, to the ron nearest the discarder ("上家取り")
		Pao:            true,  // pao for daisangen and daisuushii
		West:           true,  // sudden-death west (south) round, as Tenhou
		WestTarget:     0,     // the return score
		RiichiNoDraw:   false, // riichi needs a draw left
		Ura:            true,
		KanDora:        true,
		KanUra:         true,
	}
}
