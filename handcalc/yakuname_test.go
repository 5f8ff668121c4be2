package handcalc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/tenhou6"
)

// TestYakuNamesFollowTenhouEnglishUI checks every name YakuName gives
// against testdata/tenhou_english_yaku.tsv, the names Tenhou's English UI
// shows (its source is cited in the file), and that each row's Japanese
// name is the one the tenhou.net/6 result gives that id (package tenhou6),
// so that the ids are Tenhou's. It also checks a scored hand carries the
// names.
func TestYakuNamesFollowTenhouEnglishUI(t *testing.T) {
	f, err := os.Open("testdata/tenhou_english_yaku.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[int]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 3 {
			t.Fatalf("line %d: %d columns, want 3", n, len(col))
		}
		id, err := strconv.Atoi(col[0])
		if err != nil || id < 0 || id >= len(tenhou6.YakuNames) || seen[id] {
			t.Fatalf("line %d: bad or repeated id %q", n, col[0])
		}
		seen[id] = true
		if got := tenhou6.YakuNames[id]; got != col[1] {
			t.Errorf("id %d: tenhou.net/6 name %q, the English UI's key %q", id, got, col[1])
		}
		if got := YakuName(id); got != col[2] {
			t.Errorf("YakuName(%d) = %q, Tenhou's English UI shows %q", id, got, col[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 55 || len(yakuNames) != 55 {
		t.Fatalf("%d ids in the file, %d names, want 55", len(seen), len(yakuNames))
	}
	if got := YakuName(55); got != "yaku(55)" {
		t.Errorf("YakuName(55) = %q", got)
	}

	// A scored hand names its yaku so: riichi ippatsu tsumo pinfu with a
	// red five (ids 1, 2, 0, 7, 54; aka=3 is the tenhou preset).
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
