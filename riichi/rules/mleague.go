package rules

// mleague is M.League's rules (Mリーグ).
//
// Sources:
//   - M.League's rule page (m-league.jp/about, "ルール") as riichi.wiki
//     "M.League" gives it (Game rules: "The starting score is 25,000
//     points; the target score is 30,000 points. The bonus of oka and uma
//     is +50/+10/-10/-30", i.e. uma +30/+10/-10/-30 and oka +20;
//     "Atamahane"; "Sekinin barai: daisangen, daisuushi and suukantsu");
//   - summaries of the official rules: mahjong-space.com "Mリーグ" ("途中流局
//     (九種九牌、四風子連打、四人リーチ、箱割れ、四槓流れ)なし"),
//     k-bys.work/mleague-rule ("切り上げ満貫", "数え役満なし ... 役満以外で
//     13翻以上あっても役満扱いにせず、3倍満になります", "純粋な役満の複合のみ、
//     ダブル役満になります"),
//     majannavi.com/archives/55 "Mリーグ公式ルールまとめ" ("飛びなし",
//     "ダブロン・トリプルロンはなし(全て頭ハネ)", "アガリ止め無し", "途中流局
//     なし(九種九牌・四風子連打・四開槓・四人リーチは流局せず続行)", "ツモ番なし
//     リーチあり"), majyan-item.com/m-rule ("7700は切り上げ", "トビなし");
//   - w.atwiki.jp/mahjlocal 役満の複合: "Mリーグ・神域リーグ(2023年から):
//     純粋な役満の複合を認める" (yakuman add up; suuankou tanki, kokushi
//     13-sided, daisuushii and junsei chuuren are single yakuman alone);
//   - nagashi mangan: no page of the league's own text could be read (the
//     summary ojisan-gyakushu.com/mleague-rule names "流し満貫" among the
//     league's notable rules, but its paragraph was out of reach, and none
//     of the summaries above mentions it in the parts that were read). Two
//     independent implementations' M.League presets both leave it out:
//     kobalab/Majiang (電脳麻将, by the author of @kobalab/majiang-core,
//     which the differential tests run) src/js/conf/rule.json "Mリーグルール"
//     has "流し満貫あり":false (commit 77cbcba, 2022-11-10, kept by 537be08,
//     2023-04-09), and MahjongPantheon/pantheon
//     Mimir/config/rulesets/mleague.php ("M-League ruleset", commit
//     d8a2847a, 2020-10-14) has 'withNagashiMangan' => false. Off, on their
//     word, until the league's text says otherwise.
//     TestMLeagueMatchesMajiangPreset compares every value with kobalab's.
//
// M.League is four-player only: the three-player values are Tenhou's. Not
// modelled: the uma split of tied players (ties go by seat order, as
// Tenhou); pao for suukantsu (riichi.wiki "M.League", diff 26112:
// "Suukantsu's pao only applies to the case where sankantsu is completed
// while fourth kan is daiminkan"); the double-wind pair's 2 fu (same diff:
// "Double-wind pair worths 2 fu"; the scorer counts 4, as Tenhou); and
// riichi with fewer than 1000 points ("持ち点1000点以下でもリーチ可").
func mleague() Set {
	return Set{
		Aka:            3,               // one red five per suit
		Kuitan:         true,            // open tanyao ("喰いタンあり")
		Kuikae:         KuikaeForbidden, // kuikae forbidden
		Tobi:           false,           // "飛びなし": a match is always played to its end
		Ron:            RonAtamahane,    // "Atamahane": only the nearest ron wins
		Kyuushu:        false,           // "途中流局なし": no abortive draw at all
		Suufon:         false,
		Suucha:         false,
		Suukaikan:      false,
		Sanchahou:      false,         // atamahane: three rons are no draw
		Nagashi:        false,         // kobalab/Majiang "流し満貫あり":false, pantheon 'withNagashiMangan' => false (see above)
		Kiriage:        true,          // "7700は切り上げ": 4 han 30 fu (and 3 han 60 fu) pay a mangan
		KazoeYakuman:   false,         // "数え役満なし": 13 han is a sanbaiman
		DoubleYakuman:  false,         // no double yakuman from one yakuman
		StackedYakuman: true,          // "純粋な役満の複合を認める"
		Renchan:        RenchanTenpai, // tenpai renchan ("テンパイ連荘")
		AgariYame:      false,         // "アガリ止め無し": South 4 is played on
		TenpaiYame:     false,
		Start:          25000, // "starting score is 25,000 points"
		Return:         30000, // "target score is 30,000 points"
		Uma:            [4]int{30, 10, -10, -30},
		Start3:         35000, // not defined by the league: Tenhou's
		Return3:        40000,
		Uma3:           [3]int{20, 0, -20},
		Honba:          300,   // "1本場300点"
		Pao:            true,  // daisangen, daisuushii (suukantsu pao not modelled)
		West:           false, // no west round: the match ends after South 4
		RiichiNoDraw:   true,  // "ツモ番なしリーチあり"
		Ura:            true,
		KanDora:        true, // kan dora flips at once for every kan (timing not modelled)
		KanUra:         true,
	}
}
