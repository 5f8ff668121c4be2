package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// TestMLeagueMatchesMajiangPreset compares the mleague preset with a second
// program's reading of the league's rules: the "Mリーグルール" preset of
// kobalab/Majiang (testdata/majiang_mleague_preset.json), written in
// @kobalab/majiang-core's rule options. Our side goes through majiangRule,
// the mapping the differential tests use. Every option of that preset is
// either compared or named here with the reason it is not.
func TestMLeagueMatchesMajiangPreset(t *testing.T) {
	b, err := os.ReadFile("testdata/majiang_mleague_preset.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Rule map[string]any `json:"rule"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatalf("testdata/majiang_mleague_preset.json: %v", err)
	}
	s, err := Preset("mleague")
	if err != nil {
		t.Fatal(err)
	}
	// Round-trip our side through JSON so numbers compare as the file's do.
	var ours map[string]any
	raw, _ := json.Marshal(majiangRule(s, true))
	if err := json.Unmarshal(raw, &ours); err != nil {
		t.Fatal(err)
	}
	// The rank points are the uma (majiang-core has no return score).
	ours["順位点"] = []any{}
	for _, u := range s.Uma {
		ours["順位点"] = append(ours["順位点"].([]any), fmt.Sprintf("%+.1f", float64(u)))
	}
	notCompared := map[string]string{
		"連風牌は2符":      "not modelled: the scorer counts a double-wind pair 4 fu, as Tenhou",
		"ノーテン宣言あり":    "not modelled: tenpai is read from the hand, never declared",
		"ノーテン罰あり":     "no switch: every preset pays tenpai at an exhaustive draw",
		"一発あり":        "no switch: every preset scores ippatsu",
		"カンドラ後乗せ":     "not modelled: the moment a kan dora is turned is Tenhou's for every preset",
		"リーチ後暗槓許可レベル": "no switch: a closed kan after riichi follows Tenhou for every preset",
	}
	compared := 0
	for key, want := range file.Rule {
		if why, ok := notCompared[key]; ok {
			t.Logf("%s: %s", key, why)
			continue
		}
		got, ok := ours[key]
		if !ok {
			t.Errorf("%s: the majiang preset sets it (%v) but the mapping has no such option", key, want)
			continue
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if string(gj) != string(wj) {
			t.Errorf("%s: mleague maps to %s, kobalab/Majiang's M.League preset has %s", key, gj, wj)
		}
		compared++
	}
	if compared < 20 {
		t.Errorf("only %d options compared, want at least 20", compared)
	}
}
