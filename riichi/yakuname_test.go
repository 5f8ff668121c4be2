package riichi

import "testing"

// The ids are Tenhou's, as exported by this package's Yaku constants; the
// names must follow the same numbering.
func TestYakuNamesFollowConstants(t *testing.T) {
	cases := map[int]string{
		YakuMenzenTsumo: "menzen tsumo", YakuRiichi: "riichi", YakuPinfu: "pinfu", YakuTanyao: "tanyao",
		YakuChiitoitsu: "chiitoitsu", YakuToitoi: "toitoi", YakuChinitsu: "chinitsu", YakuDora: "dora",
		YakuUraDora: "ura dora", YakuAkaDora: "aka dora",
	}
	for id, want := range cases {
		if got := YakuName(id); got != want {
			t.Errorf("YakuName(%d) = %q, want %q", id, got, want)
		}
	}
	if got := YakuName(55); got != "yaku(55)" {
		t.Errorf("YakuName(55) = %q", got)
	}
}
