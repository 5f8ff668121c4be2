package replay

import (
	"strings"
	"testing"
)

// The five special-rule logs of the shared corpus (GO type bits above
// 0xFF; special.go says what each bit does).
const (
	logCsrule = "dnovikoff+tenhou__log__test_data__newattr2023.xml" // 0x101, csrule
	logChip   = "dnovikoff+tenhou__log__test_data__chip.xml"        // 0x229
	logRatio  = "dnovikoff+tenhou__log__test_data__ratio.xml"       // 0x841
	logRatio1 = "dnovikoff+tenhou__log__test_data__ratio1.xml"      // 0x621
	logSanma  = "dnovikoff+tenhou__log__test_data__sanma.xml"       // 0x841 (four players)
)

// TestSpecialRuleLogs replays the special-rule logs whose bits the
// switches express (0x100 with csrule: start, return, uma; 0x800: the
// 1000-point game) against the logs' own hands, scores and owari, and
// wants the others skipped naming the bit no switch plays (0x200 chips,
// 0x400).
func TestSpecialRuleLogs(t *testing.T) {
	for _, c := range []struct {
		file string
		skip string // "" when replayed; else a substring of the reason
	}{
		{logCsrule, ""},
		{logRatio, ""},
		{logSanma, ""},
		{logChip, "0x200 (chips"},
		{logRatio1, "0x400 ("},
	} {
		res := Game(readLog(t, c.file))
		t.Logf("%s: games %d rounds %d agari %d checks %v skipped %v unchecked %v", c.file, res.Games, res.Rounds, res.Agari, res.Checks, res.Skipped, res.Unchecked)
		for _, m := range res.Mismatches {
			t.Errorf("%s [%s] %s:\n  log:    %s\n  engine: %s", c.file, m.Round, m.Tag, m.Expected, m.Actual)
		}
		if c.skip != "" {
			if res.Games != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, c.skip) {
				t.Errorf("%s: want skipped naming %q, got games %d skipped %v", c.file, c.skip, res.Games, res.Skipped)
			}
			continue
		}
		if res.Games != 1 || len(res.Skipped) != 0 {
			t.Errorf("%s: want replayed, got games %d skipped %v", c.file, res.Games, res.Skipped)
		}
		kinds := []string{CheckInit, CheckAgari, CheckAgariSc, CheckEnd, CheckOwariScores, CheckOwariPoints}
		if c.file == logCsrule {
			// Its 1st and 2nd tie and share their uma, which no switch
			// plays: the points are named unchecked.
			kinds = kinds[:len(kinds)-1]
			if res.Checks[CheckOwariPoints] != 0 || len(res.Unchecked) != 1 || !strings.Contains(res.Unchecked[0].Reason, "tied final scores") {
				t.Errorf("%s: want owari points unchecked for the tie, got %d checks, unchecked %v", c.file, res.Checks[CheckOwariPoints], res.Unchecked)
			}
		} else if len(res.Unchecked) != 0 {
			t.Errorf("%s: unchecked %v", c.file, res.Unchecked)
		}
		for _, k := range kinds {
			if res.Checks[k] == 0 {
				t.Errorf("%s: no %s check", c.file, k)
			}
		}
	}
}

// TestSpecialRuleCsruleRead changes the starting points in the csrule of
// newattr2023.xml (30000, which its INIT ten= confirms) to 25000: the
// replay must then expect 25000 at the first deal, so the csrule is what
// sets the match's points.
func TestSpecialRuleCsruleRead(t *testing.T) {
	g := readLog(t, logCsrule)
	for i, a := range g.Go.Extra {
		if a.Name == "csrule" {
			f := strings.Split(a.Value, ",")
			if f[4] != "30000" {
				t.Fatalf("csrule field 4 = %q, want 30000", f[4])
			}
			f[4] = "25000"
			g.Go.Extra[i].Value = strings.Join(f, ",")
		}
	}
	res := wantMismatch(t, g, "INIT")
	if !strings.Contains(res.Mismatches[0].Actual, "[25000 25000 25000 25000]") {
		t.Errorf("mismatch %+v", res.Mismatches[0])
	}
}

// TestSpecialRule1000Points changes the 1000-point game of ratio.xml
// (0x841) to an ordinary game (0x41): the replay must then expect 25000
// at the deal, not the log's 1000.
func TestSpecialRule1000Points(t *testing.T) {
	g := readLog(t, logRatio)
	g.Go.Type &^= bit1000
	wantMismatch(t, g, "INIT")
}
