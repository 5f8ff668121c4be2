package riichi_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/record/tenhou6"
	"github.com/mentalmj/mentalmj/riichi"
)

// TestYakuNamesFollowTenhouEnglishUI checks every name YakuName gives
// against testdata/tenhou_english_yaku.tsv, the names Tenhou's English UI
// shows (its source is cited in the file), and that each row's Japanese
// name is the one the tenhou.net/6 result gives that id (package record/tenhou6),
// so that the ids are Tenhou's.
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
		if got := riichi.YakuName(id); got != col[2] {
			t.Errorf("YakuName(%d) = %q, Tenhou's English UI shows %q", id, got, col[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 55 {
		t.Fatalf("%d ids in the file, want 55", len(seen))
	}
	// The package's constants are those ids.
	for id, want := range map[int]string{riichi.YakuMenzenTsumo: "Menzen tsumo", riichi.YakuRiichi: "Riichi",
		riichi.YakuPinfu: "Pinfu", riichi.YakuDora: "Dora", riichi.YakuUraDora: "Uradora", riichi.YakuAkaDora: "Akadora"} {
		if got := riichi.YakuName(id); got != want {
			t.Errorf("YakuName(%d) = %q, want %q", id, got, want)
		}
	}
	if got := riichi.YakuName(55); got != "yaku(55)" {
		t.Errorf("YakuName(55) = %q", got)
	}
}
