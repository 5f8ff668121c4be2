package rules

// ema is the EMA Riichi Competition Rules (RCR), 2016 edition, of the
// European Mahjong Association.
//
// Sources: riichi.wiki "EMA Riichi Competition Rules" (Current 2016+:
// "changes ... to resemble the standard set by the WRC rules"; "no more
// red fives; open tanyao (kuitan) allowed; ... the maximum score is a
// single yakuman"; "Abortive draws are no longer used in EMA riichi
// rules"; "Double and triple Ron is allowed, the discarder has to pay each
// winner separately"; "Nagashi mangan counts as a win"; "Ura dora, kan
// dora, and kan ura dora are used"), and the RCR 2016 rule book compared
// with WRC 2015 (ooyamaneko.net bookcmp). Values the RCR shares with the
// WRC rules are marked "as WRC". The three-player values are Tenhou's.
func ema() Set {
	return Set{
		Aka:            0,               // "no more red fives"
		Kuitan:         true,            // "open tanyao (kuitan) allowed"
		Kuikae:         KuikaeForbidden, // as WRC
		Tobi:           false,           // as WRC: sessions are played to the end
		Ron:            RonTriple,       // "Double and triple Ron is allowed"
		Kyuushu:        false,           // "Abortive draws are no longer used"
		Suufon:         false,
		Suucha:         false,
		Suukaikan:      false,
		Sanchahou:      false,
		Nagashi:        true,  // "Nagashi mangan counts as a win"
		Kiriage:        false, // as WRC
		KazoeYakuman:   false, // as WRC: 13 han is sanbaiman
		DoubleYakuman:  false, // "the maximum score is a single yakuman"
		StackedYakuman: false, // (same)
		Renchan:        RenchanTenpai,
		AgariYame:      false, // as WRC
		TenpaiYame:     false,
		Start:          30000, // as WRC: 30,000, no oka
		Return:         30000,
		Uma:            [4]int{15, 5, -5, -15}, // as WRC
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
