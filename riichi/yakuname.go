package riichi

import "fmt"

// yakuNames are the romaji names of Tenhou's yaku ids 0..54, in Tenhou's
// numbering (AGARI yaku= and yakuman=).
var yakuNames = [...]string{
	"menzen tsumo", "riichi", "ippatsu", "chankan", "rinshan kaihou", "haitei raoyue", "houtei raoyui",
	"pinfu", "tanyao", "iipeikou", "seat wind east", "seat wind south", "seat wind west", "seat wind north",
	"round wind east", "round wind south", "round wind west", "round wind north", "haku", "hatsu", "chun",
	"double riichi", "chiitoitsu", "chanta", "ittsu", "sanshoku doujun", "sanshoku doukou", "sankantsu",
	"toitoi", "sanankou", "shousangen", "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu",
	"renhou", "tenhou", "chiihou", "daisangen", "suuankou", "suuankou tanki", "tsuuiisou", "ryuuiisou",
	"chinroutou", "chuuren poutou", "junsei chuuren poutou", "kokushi musou", "kokushi musou 13-sided wait",
	"daisuushii", "shousuushii", "suukantsu", "dora", "ura dora", "aka dora",
}

// YakuName returns the romaji name of Tenhou yaku id (0..54), e.g.
// YakuName(7) = "pinfu", or "yaku(<id>)" for an id outside that range.
func YakuName(id int) string {
	if id < 0 || id >= len(yakuNames) {
		return fmt.Sprintf("yaku(%d)", id)
	}
	return yakuNames[id]
}
