package rules

// majsoul is Mahjong Soul's ranked rules (段位戦).
//
// Sources:
//   - Mahjong Soul's "段位戦ルール説明" (mahjongsoul.com/?newsid=60c8610c2ac863186fdbebd4,
//     quoted in github.com/Cryolite's 2021 questions to Mahjong Soul support:
//     "ダブロン・トリプルロンの場合、積み棒は上家取り", "包発生時には積み棒は包の責任者が支払う");
//   - riichi.wiki "Majsoul", Ladder (revision of 2024-11-07, diff 26381):
//     "Starting Points: 4P 25000; 3P 35000", uma "3P: 1st +15, 2nd ±0,
//     3rd -15" and "PtsGain = (RawScore - StartingPts) / 1000 + UmaPts +
//     RankPts": the points are counted from the starting points, so
//     there is no oka (return = start), and the rank points (RankPts) are
//     the room's, no table rule;
//   - riichi.wiki "Majsoul", Calculations (revisions of 2019-07-22, diff
//     20005, and 2019-08-21, diff 20082): "Oka Points: Not applied",
//     "Uma Points: 4P: 1st +15, 2nd +5, 3rd -5, 4th -15; 3P: 1st +15,
//     2nd ±0, 3rd -15", "EndScore = (MatchResult - StartingPts) / 1000 +
//     UmaPts". The same uma reproduces the rank points of a published
//     Gold-room game (amae-koromo record 90LXpfcSY9g: 44200 → +115,
//     38900 → +59, 18600 → -11, rounded up, with the Gold room's rank
//     points +80/+40/0);
//   - the target score: 30000 in four-player games (a Mahjong Soul guide
//     on Steam, app 2739990: games "extend past East/South 4 if no player
//     has reached 30000 points", ending at West 4), 40000 in three-player
//     ones (mahjong-portal.com 三人麻雀: "配原:35000", "一位必要点数:40000",
//     "35000点開始の35000点返し", "ウマ15-0-15"; mj-news.net 2019-11-12, a
//     雀魂 Throne-room sanma game: "西入があるのでトップを取るためには40000点以上").
//
// Where Mahjong Soul does what Tenhou does, the comment says "as Tenhou".
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
		Sanchahou:      false,                  // a triple ron is paid (above), never aborted
		Nagashi:        true,                   // nagashi mangan (several at once all count)
		Kiriage:        false,                  // no kiriage mangan
		KazoeYakuman:   true,                   // kazoe yakuman
		DoubleYakuman:  true,                   // double yakuman for the four hands with the double wait/set
		StackedYakuman: true,                   // yakuman add up
		Renchan:        RenchanTenpai,          // tenpai renchan
		AgariYame:      true,                   // automatic agari-yame and tenpai-yame, as Tenhou
		TenpaiYame:     true,                   // (same)
		Start:          25000,                  // "Starting Points: 4P 25000"
		Return:         25000,                  // points counted from the start: no oka
		Uma:            [4]int{15, 5, -5, -15}, // "4P: 1st +15, 2nd +5, 3rd -5, 4th -15"
		Start3:         35000,                  // "3P 35000"
		Return3:        35000,                  // "35000点開始の35000点返し": no oka
		Uma3:           [3]int{15, 0, -15},     // "3P: 1st +15, 2nd ±0, 3rd -15"
		Honba:          300,                    // 300 per honba, to the ron nearest the discarder ("上家取り")
		Pao:            true,                   // pao for daisangen and daisuushii
		West:           true,                   // sudden-death west (south) round, as Tenhou
		WestTarget:     30000,                  // "no player has reached 30000 points"
		WestTarget3:    40000,                  // "一位必要点数:40000"
		RiichiNoDraw:   false,                  // riichi needs a draw left
		Ura:            true,
		KanDora:        true,
		KanUra:         true,
	}
}
