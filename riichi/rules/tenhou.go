package rules

// tenhou is Tenhou's ranked rules (段位戦, ari-ari), exactly what the engine
// plays with game.TenhouRules(hanchan, true, true) and
// game.TenhouSanmaRules(hanchan, true, true).
//
// Sources: tenhou.net/man (Tenhou's rule page) and its English rendering
// "Rules for 4-player Ranking Match" (www.mjstars.net/rules-for); the
// three-player values were read off the owari and AGARI sc= of the 100
// shared three-player logs (see game.TenhouSanmaRules).
func tenhou() Set {
	return Set{
		Aka:            3,                        // "one red five in each suit if red dora are allowed"
		Kuitan:         true,                     // open tanyao (the ari-ari lobbies)
		Kuikae:         KuikaeForbidden,          // "Kuikae (swap calling) disallowed"
		Tobi:           true,                     // "a player going into negative points (busting out) ends the game"
		TobiBelow:      0,                        // below 0; exactly 0 plays on
		Ron:            RonDouble,                // "double ron allowed"; three rons: sanchahou
		Kyuushu:        true,                     // "abortive draws (kyuushuukyuuhai, suucha riichi, sanchahou, suukaikan, suufuurenda) allowed"
		Suufon:         true,                     // (same line)
		Suucha:         true,                     // (same line)
		Suukaikan:      true,                     // (same line)
		Sanchahou:      true,                     // (same line)
		Nagashi:        true,                     // "nagashi mangan allowed"
		Kiriage:        false,                    // tenhou.net/man: no kiriage mangan (4 han 30 fu is 7700)
		KazoeYakuman:   true,                     // tenhou.net/man: 13 han and more is kazoe yakuman
		DoubleYakuman:  false,                    // tenhou.net/man: no double yakuman (each yakuman id counts one)
		StackedYakuman: true,                     // tenhou.net/man: several yakuman add up
		Renchan:        RenchanTenpai,            // "tenpai renchan"
		AgariYame:      true,                     // "automatic agariyame and tenpaiyame for last dealer who ends in 1st place"
		TenpaiYame:     true,                     // (same line)
		Start:          25000,                    // "25000 point start with 30000 point return"
		Return:         30000,                    // (same line)
		Uma:            [4]int{20, 10, -10, -20}, // "10-20 uma"
		Start3:         35000,                    // three-player logs: 35000 start
		Return3:        40000,                    // three-player logs: 40000 return
		Uma3:           [3]int{20, 0, -20},       // three-player logs: owari values
		Honba:          300,                      // 300 per honba (100 from each payer on a tsumo; sanma logs: 100 each, 200 on a ron)
		Pao:            true,                     // "pao for daisangen and daisuushii"
		West:           true,                     // "sudden death rule if all players are below 30000 points after the last round"
		WestTarget:     0,                        // the return score: 30000 (40000 in sanma)
		RiichiNoDraw:   false,                    // "riichi can only be declared by a player who ... has at least one more draw"
		Ura:            true,                     // ura dora, kan dora and kan ura are played (tenhou.net/man)
		KanDora:        true,
		KanUra:         true,
	}
}
