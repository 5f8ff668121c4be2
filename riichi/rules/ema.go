package rules

// ema is the EMA Riichi Competition Rules (RCR), 2016 edition, of the
// European Mahjong Association.
//
// Sources:
//   - the EMA's announcement of the 2016 revision (Tina Christensen,
//     European Mahjong Association, 2015, as mahjong.ru publishes it, news
//     "ema-riichi-revision-2015"): "Red fives have been removed", "Tanyao
//     (All Simples) can be an open hand", "Dai suushii (Big Four Winds) is
//     a yakuman, not a double yakuman", "A hand with 13+ fan is scored as a
//     sanbaiman, not a yakuman", "Swap-calling is not allowed", "Abortive
//     draws are removed", "Nagashi Mangan is removed", "Uma is changed to
//     15,000/5,000/-5,000/-15,000", and, as differences to the WRC 2015
//     rules, "Multiple winners are allowed", "4-30 is not rounded to mangan
//     payment", "Riichi bets at game end go to the winner";
//   - riichi.wiki "EMA Riichi Competition Rules" (Current 2016+: "the
//     maximum score is a single yakuman"; "Double and triple Ron is
//     allowed, the discarder has to pay each winner separately"; "Ura
//     dora, kan dora, and kan ura dora are used"). Its "Nagashi mangan
//     counts as a win" is the 2012 rules' (the announcement removes it);
//   - no bust: a club playing the RCR 2016 adds, as its own amendment,
//     "The game will be terminated if a player's score drops below -30000
//     points" (burton.riichi.page "Rules of Mahjong"), so the RCR itself
//     plays on with negative scores.
//
// Values the announcement does not list are the WRC's, marked "as WRC".
// The three-player values are Tenhou's. Not modelled: Renhou, a mangan in
// the RCR 2016 (the engine, as Tenhou, has none).
func ema() Set {
	return Set{
		Aka:            0,               // "no more red fives"
		Kuitan:         true,            // "open tanyao (kuitan) allowed"
		Kuikae:         KuikaeForbidden, // "Swap-calling is not allowed"
		Tobi:           false,           // no bust (see above)
		Ron:            RonTriple,       // "Multiple winners are allowed", "Double and triple Ron"
		Kyuushu:        false,           // "Abortive draws are removed"
		Suufon:         false,
		Suucha:         false,
		Suukaikan:      false,
		Sanchahou:      false,
		Nagashi:        false, // "Nagashi Mangan is removed"
		Kiriage:        false, // "4-30 is not rounded to mangan payment"
		KazoeYakuman:   false, // "13+ fan is scored as a sanbaiman"
		DoubleYakuman:  false, // "Dai suushii ... is a yakuman, not a double yakuman"
		StackedYakuman: false, // "the maximum score is a single yakuman"
		Renchan:        RenchanTenpai,
		AgariYame:      false, // as WRC
		TenpaiYame:     false,
		Start:          30000, // as WRC: 30,000, no oka
		Return:         30000,
		Uma:            [4]int{15, 5, -5, -15}, // "Uma is changed to 15,000/5,000/-5,000/-15,000"
		Start3:         35000,                  // not defined by the EMA: Tenhou's
		Return3:        40000,
		Uma3:           [3]int{20, 0, -20},
		Honba:          300,
		Pao:            true,
		West:           false,
		RiichiNoDraw:   false,
		Ura:            true, // "Ura dora, kan dora, and kan ura dora are used"
		KanDora:        true,
		KanUra:         true,
	}
}
