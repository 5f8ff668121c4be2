package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/wall"
)

// TestLocalSanmaEndToEnd builds the real binary and runs "mentalmj local
// --players 3 --hands 2": three OS processes, each a libp2p node on
// 127.0.0.1, deal, play and audit two three-player hands. Every transcript
// then audits clean offline ("mentalmj audit --json"), the walls agree and
// are permutations of Tenhou's 108-tile three-player set (no 2m-8m) with
// the dora indicator at yama[9], and the game record is a three-player
// mjlog that "mentalmj tenhou replay" checks with 0 mismatches.
func TestLocalSanmaEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts three processes")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "local", "--players", "3", "--hands", "2", "--dir", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mentalmj local --players 3: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	handLine := regexp.MustCompile(`(?m)^hand [12] \(East \d, honba \d\): dealer player-\d \(East, seat \d\), dice \d\+\d, dora indicator \w+: .+?; scores (player-\d \((East|South|West), seat \d\) -?\d+(, )?){3}; \d+ events, audit ok \(3 of 3 audits agree\)`)
	if got := len(handLine.FindAllString(stdout.String(), -1)); got != 2 {
		t.Errorf("want 2 three-player hand lines with a passing audit, got %d in:\n%s", got, stdout.String())
	}
	seating := regexp.MustCompile(`(?m)^seating \(hand 1\):\n  player-\d \(East, seat 0\) in East 1\n  player-\d \(South, seat 1\) in East 1\n  player-\d \(West, seat 2\) in East 1\n[^ ]`)
	if !seating.MatchString(stdout.String()) {
		t.Errorf("local did not print the three seats:\n%s", stdout.String())
	}
	set := map[int]bool{}
	for _, id := range wall.ThreePlayer.Set() {
		set[int(id)] = true
	}
	var walls [][]int
	var paths []string
	for i := 0; i < 3; i++ {
		path := filepath.Join(dir, "player-"+string(rune('0'+i))+".mjt")
		paths = append(paths, path)
		out, err := exec.CommandContext(ctx, bin, "audit", "--json", path).Output()
		if err != nil {
			t.Fatalf("mentalmj audit %s: %v\n%s", path, err, out)
		}
		var v struct {
			OK      bool `json:"ok"`
			Sanma   bool `json:"sanma"`
			Players []any
			Hands   []struct {
				Yama          []int `json:"yama"`
				DoraIndicator int   `json:"dora_indicator"`
			} `json:"hands"`
			Blame []any `json:"blame"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("audit --json output: %v\n%s", err, out)
		}
		if !v.OK || !v.Sanma || len(v.Players) != 3 || len(v.Hands) != 2 || len(v.Blame) != 0 {
			t.Fatalf("player %d transcript: ok=%v sanma=%v players=%d hands=%d blame=%v", i, v.OK, v.Sanma, len(v.Players), len(v.Hands), v.Blame)
		}
		for _, h := range v.Hands {
			seen := map[int]bool{}
			for _, id := range h.Yama {
				if !set[id] || seen[id] {
					t.Fatalf("player %d: yama holds %d, not a permutation of the three-player set", i, id)
				}
				seen[id] = true
			}
			if len(h.Yama) != 108 || h.DoraIndicator != h.Yama[9] {
				t.Errorf("player %d: yama len %d, dora %d vs yama[9] %d", i, len(h.Yama), h.DoraIndicator, h.Yama[9])
			}
		}
		walls = append(walls, append(v.Hands[0].Yama, v.Hands[1].Yama...))
	}
	for i := 1; i < 3; i++ {
		if !slices.Equal(walls[i], walls[0]) {
			t.Errorf("player %d's audited walls differ from player 0's", i)
		}
	}
	if out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput(); err != nil || !strings.Contains(string(out), "verified: every hand") || !strings.Contains(string(out), "three-player (sanma)") {
		t.Errorf("mentalmj audit of the three transcripts: %v\n%s", err, out)
	}
	record := filepath.Join(dir, "player-0.mjlog.xml")
	out, err := exec.CommandContext(ctx, bin, "tenhou", "replay", record).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "rounds 2 (2 three-player)") || !strings.Contains(string(out), "mismatches 0") {
		t.Errorf("mentalmj tenhou replay %s: %v\n%s", record, err, out)
	}
}
