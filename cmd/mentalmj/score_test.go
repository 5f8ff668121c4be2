package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// runScoreT runs "mentalmj score args..." and returns the exit code,
// stdout and stderr.
func runScoreT(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(context.Background(), append([]string{"score"}, args...), &out, &errs)
	return code, out.String(), errs.String()
}

// TestScoreCommand checks the calculator's exit codes and messages: a win
// (riichi, pinfu and one dora at 30 fu, 3900 in the scoring table; the
// HAND before, between or after the flags), a hand that does not win
// (exit 1) and malformed input (exit 2, naming what is wrong).
func TestScoreCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"123m456p789s2344s", "--win", "4s", "--ron", "--riichi", "--dora", "1m"},
		{"--win", "4s", "123m456p789s2344s", "--ron", "--riichi", "--dora", "1m"},
		{"--win", "4s", "--ron", "--riichi", "--dora", "1m", "123m456p789s2344s"},
	} {
		code, out, errs := runScoreT(t, args...)
		if code != 0 || !strings.Contains(out, "3 han 30 fu: 3900 points") || !strings.Contains(out, "the discarder pays 3900") || !strings.Contains(out, "Pinfu") {
			t.Errorf("score %q: exit %d, out %q, err %q", args, code, out, errs)
		}
	}
	// The request restated, defaults filled in; a house rule on top of
	// the preset: with kiriage mangan (riichi.wiki) 4 han 30 fu is 8000.
	code, out, _ := runScoreT(t, "22334m567p345s55s", "--win", "4m", "--ron", "--riichi", "--rule", "kiriage=on")
	if code != 0 || !strings.Contains(out, "22334m567p345s55s, ron on 4m, riichi; seat S (non-dealer), round E; tenhou rules with kiriage=on, 4 players") || !strings.Contains(out, "4 han 30 fu: 8000 points (mangan)") {
		t.Errorf("kiriage: exit %d, out %q", code, out)
	}
	// A dealer's tsumo with honba: 1 han 30 fu is 500 all, plus 100 each
	// per honba.
	code, out, _ = runScoreT(t, "234m567p789s2s", "--meld", "pon:7z7z7z", "--win", "2s", "--tsumo", "--dealer", "--honba", "2")
	if code != 0 || !strings.Contains(out, "1 han 30 fu: 1500 points") || !strings.Contains(out, "S pays 700, W pays 700, N pays 700 (2 honba included)") {
		t.Errorf("dealer tsumo: exit %d, out %q", code, out)
	}
	code, out, _ = runScoreT(t, "123m456p789s2345s", "--win", "9s")
	if code != 1 || !strings.Contains(out, "no win") || !strings.Contains(out, "waits on 2s 5s") {
		t.Errorf("incomplete hand: exit %d, out %q; want 1 naming the waits", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"123m456p789s2344s"}, "missing --win"},
		{[]string{"--win", "4s"}, "missing HAND"},
		{[]string{"123m456p789s2344x", "--win", "4s"}, `hand "123m456p789s2344x": position 16`},
		{[]string{"123m456p789s234s", "--win", "4s"}, "has 12 tiles"},
		{[]string{"1111m456p789s234s", "--win", "1m"}, "5 copies of 1m"},
		{[]string{"123m456p2344s", "--meld", "chi:1m2m4m", "--win", "4s"}, `meld "chi:1m2m4m"`},
		{[]string{"123m456p789s2344s", "--win", "4s", "--ron", "--tsumo"}, "--ron and --tsumo"},
		{[]string{"123m456p789s2344s", "--win", "4s", "--rules", "nope"}, `preset "nope"; presets: tenhou, majsoul, mleague, wrc, ema`},
		{[]string{"123m456p789s2344s", "--win", "4s", "--bogus"}, "unknown flag --bogus"},
		{[]string{"123m456p789s2344s", "--win", "4s", "--json"}, "--json reads every request from stdin"},
	} {
		code, out, errs := runScoreT(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("score %q: exit %d, out %q, err %q; want 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestScoreHelp checks that "score -h" lists every flag and every JSON key.
func TestScoreHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := runScoreT(t, "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, s := range []string{"-win", "-meld", "-ron", "-tsumo", "-riichi", "-double-riichi", "-ippatsu", "-haitei", "-houtei", "-rinshan", "-chankan", "-tenhou", "-chiihou", "-dora", "-ura", "-seat-wind", "-round-wind", "-dealer", "-honba", "-players", "-rules", "-json",
		"hand", "win", "melds", "ron", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "dora", "ura", "seat_wind", "round_wind", "honba", "dealer", "rules", "players",
		`"ok"`, `"han"`, `"fu"`, `"points"`, `"payments"`, `"yaku"`, `"yakuman"`, `"error"`, "Exit status"} {
		if !strings.Contains(out, s) {
			t.Errorf("help lacks %q", s)
		}
	}
}

// TestScoreJSON runs "score --json" on a pipe: one result line per request
// line, a bad line in the middle included.
func TestScoreJSON(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	go func() {
		w.WriteString(`{"hand":"123m456p789s2344s","win":"4s","ron":true,"riichi":true,"dora":["1m"]}` + "\n" + `{"hand":"1"}` + "\n" + `{"hand":"19m19p19s1234567z","win":"1m","ron":true}` + "\n")
		w.Close()
	}()
	code, out, errs := runScoreT(t, "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], `{"ok":true,"han":3,"fu":30,"points":3900,`) ||
		!strings.HasPrefix(lines[1], `{"ok":false,"error":"line 2: `) || !strings.Contains(lines[2], `"points":32000`) {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
}

// TestScoreJSONInterrupted checks that an interrupt ends "score --json"
// while it waits for a line, with exit 2 and the lines done.
func TestScoreJSONInterrupted(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close(); w.Close() }()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errs bytes.Buffer
	done := make(chan int)
	go func() { done <- run(ctx, []string{"score", "--json"}, &out, &errs) }()
	w.WriteString(`{"hand":"123m456p789s2344s","win":"4s","ron":true}` + "\n")
	cancel()
	select {
	case code := <-done:
		if code != 2 || !strings.Contains(errs.String(), "interrupted after") {
			t.Errorf("exit %d, out %q, err %q", code, out.String(), errs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("score --json did not end within 10 s of the interrupt")
	}
}
