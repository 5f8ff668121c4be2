package riichi

import "fmt"

// yakuNames are the names of Tenhou's yaku ids 0..54 (mjlog <AGARI
// yaku=>, the Yaku* constants) as Tenhou's English UI shows them: the
// "Romaji" level, its default, of the Tenhou English UI browser extension
// (gitlab.com/ApplySci/tenhou-english-ui, translations.js), which is how
// Tenhou is played in English; Tenhou itself prints only Japanese.
// testdata/tenhou_english_yaku.tsv lists them with Tenhou's Japanese
// names and the source.
var yakuNames = [...]string{
	"Menzen tsumo",          // 0 門前清自摸和
	"Riichi",                // 1 立直
	"Ippatsu",               // 2 一発
	"Chankan",               // 3 槍槓
	"Rinshan kaihou",        // 4 嶺上開花
	"Haitei raoyue",         // 5 海底摸月
	"Houtei raoyui",         // 6 河底撈魚
	"Pinfu",                 // 7 平和
	"Tanyao",                // 8 断幺九
	"Iipeikou",              // 9 一盃口
	"Jikaze Ton",            // 10 自風 東
	"Jikaze Nan",            // 11 自風 南
	"Jikaze Sha",            // 12 自風 西
	"Jikaze Pei",            // 13 自風 北
	"Bakaze Ton",            // 14 場風 東
	"Bakaze Nan",            // 15 場風 南
	"Bakaze Shaa",           // 16 場風 西
	"Bakaze Pei",            // 17 場風 北
	"Yakuhai Haku",          // 18 役牌 白
	"Yakuhai Hatsu",         // 19 役牌 發
	"Yakuhai Chun",          // 20 役牌 中
	"Double riichi",         // 21 両立直
	"Chiitoitsu",            // 22 七対子
	"Chanta",                // 23 混全帯幺九
	"Ikkitsuukan",           // 24 一気通貫
	"Sanshoku doujun",       // 25 三色同順
	"Sanshoku doukou",       // 26 三色同刻
	"Sankantsu",             // 27 三槓子
	"Toitoi",                // 28 対々和
	"Sanankou",              // 29 三暗刻
	"Shousangen",            // 30 小三元
	"Honroutou",             // 31 混老頭
	"Ryanpeikou",            // 32 二盃口
	"Junchan",               // 33 純全帯幺九
	"Honitsu",               // 34 混一色
	"Chinitsu",              // 35 清一色
	"Renhou",                // 36 人和
	"Tenhou",                // 37 天和
	"Chiihou",               // 38 地和
	"Daisangen",             // 39 大三元
	"Suuankou",              // 40 四暗刻
	"Suuankou tanki",        // 41 四暗刻単騎
	"Tsuuiisou",             // 42 字一色
	"Ryuuiisou",             // 43 緑一色
	"Chinroutou",            // 44 清老頭
	"Chuuren poutou",        // 45 九蓮宝燈
	"Junsei chuuren poutou", // 46 純正九蓮宝燈
	"Kokushi musou",         // 47 国士無双
	"Kokushi musou 13 men",  // 48 国士無双１３面
	"Daisuushi",             // 49 大四喜
	"Shousuushi",            // 50 小四喜
	"Suukantsu",             // 51 四槓子
	"Dora",                  // 52 ドラ
	"Uradora",               // 53 裏ドラ
	"Akadora",               // 54 赤ドラ
}

// YakuName returns the name Tenhou's English UI shows for Tenhou yaku id
// (0..54), e.g. YakuName(7) = "Pinfu" and YakuName(18) = "Yakuhai Haku",
// or "yaku(<id>)" for an id outside that range. Every command names yaku
// so: the calculator, the end-of-hand summary and the verdicts.
func YakuName(id int) string {
	if id < 0 || id >= len(yakuNames) {
		return fmt.Sprintf("yaku(%d)", id)
	}
	return yakuNames[id]
}
