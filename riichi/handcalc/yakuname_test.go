package handcalc

import "testing"

// TestScoredYakuNames: a scored hand names its yaku as Tenhou's English
// UI does (riichi.YakuName, checked against riichi's test vector file):
// riichi ippatsu tsumo pinfu with a red five (ids 1, 2, 0, 7, 54; aka=3
// is the tenhou preset).
func TestScoredYakuNames(t *testing.T) {
	req, err := DecodeRequest([]byte(`{"hand":"0m67m234p678s2399s","win":"1s","riichi":true,"ippatsu":true}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Score(req)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, y := range res.Yaku {
		names[y.Name] = true
	}
	for _, want := range []string{"Riichi", "Ippatsu", "Menzen tsumo", "Pinfu", "Akadora"} {
		if !names[want] {
			t.Errorf("scored yaku %v: no %q", res.Yaku, want)
		}
	}
}
