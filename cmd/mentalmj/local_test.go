package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildBinary returns the mentalmj command, built once per test binary
// run (builtBinary) and shared by every test that runs it.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin, err := built.get()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestLocalTwoHandsEndToEnd builds the real binary and runs
// "mentalmj local --hands 2": four OS processes, each a libp2p node on
// 127.0.0.1, deal, play and audit two hands. Then it audits every
// transcript offline with "mentalmj audit --json" and checks that the four
// walls agree and are permutations of the 136 tiles.
func TestLocalTwoHandsEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "local", "--hands", "2", "--dir", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mentalmj local: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	handLine := regexp.MustCompile(`(?m)^hand [12] \(East \d, honba \d\): dealer player-\d \(East, seat \d\), dice \d\+\d, dora indicator \w+: .+?; scores (player-\d \((East|South|West|North), seat \d\) -?\d+(, )?){4}; \d+ events, audit ok \(4 of 4 audits agree\)`)
	if got := len(handLine.FindAllString(stdout.String(), -1)); got != 2 {
		t.Errorf("want 2 hand lines with a passing audit, got %d in:\n%s", got, stdout.String())
	}
	seating := regexp.MustCompile(`(?m)^seating \(hand 1\):\n  player-\d \(East, seat 0\) in East 1\n  player-\d \(South, seat 1\) in East 1\n  player-\d \(West, seat 2\) in East 1\n  player-\d \(North, seat 3\) in East 1$`)
	if !seating.MatchString(stdout.String()) {
		t.Errorf("local did not print where each player sits:\n%s", stdout.String())
	}
	var walls [][]int
	for i := 0; i < 4; i++ {
		path := filepath.Join(dir, "player-"+string(rune('0'+i))+".mjt")
		out, err := exec.CommandContext(ctx, bin, "audit", "--json", path).Output()
		if err != nil {
			t.Fatalf("mentalmj audit %s: %v\n%s", path, err, out)
		}
		var v struct {
			OK    bool `json:"ok"`
			Hands []struct {
				Yama          []int `json:"yama"`
				DoraIndicator int   `json:"dora_indicator"`
				Events        int   `json:"events"`
			} `json:"hands"`
			Blame []any `json:"blame"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("audit --json output: %v\n%s", err, out)
		}
		if !v.OK || len(v.Hands) != 2 || len(v.Blame) != 0 {
			t.Fatalf("player %d transcript: ok=%v hands=%d blame=%v", i, v.OK, len(v.Hands), v.Blame)
		}
		for _, h := range v.Hands {
			seen := make([]bool, 136)
			for _, id := range h.Yama {
				if id < 0 || id >= 136 || seen[id] {
					t.Fatalf("player %d: yama is not a permutation of 0..135", i)
				}
				seen[id] = true
			}
			if len(h.Yama) != 136 || h.DoraIndicator != h.Yama[5] || h.Events < 10 {
				t.Errorf("player %d: yama len %d, dora %d vs yama[5] %d, events %d", i, len(h.Yama), h.DoraIndicator, h.Yama[5], h.Events)
			}
		}
		walls = append(walls, append(v.Hands[0].Yama, v.Hands[1].Yama...))
	}
	for i := 1; i < 4; i++ {
		if !slices.Equal(walls[i], walls[0]) {
			t.Errorf("player %d's audited walls differ from player 0's", i)
		}
	}
	// All four transcripts together: audited and compared, consistent.
	var paths []string
	for i := 0; i < 4; i++ {
		paths = append(paths, filepath.Join(dir, "player-"+string(rune('0'+i))+".mjt"))
	}
	if out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput(); err != nil || !strings.Contains(string(out), "verified: every hand") {
		t.Errorf("mentalmj audit of the four transcripts: %v\n%s", err, out)
	}
	// A flipped byte in a saved transcript makes it unauditable (exit 2):
	// a damaged record proves nothing against the player it names.
	path := filepath.Join(dir, "player-1.mjt")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	bad := filepath.Join(t.TempDir(), "bad.mjt")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, bin, "audit", bad).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || strings.Contains(string(out), "BLAME") || !strings.Contains(string(out), "damaged") {
		t.Errorf("audit of a tampered transcript: %v, want exit status 2, a damaged-transcript fault and no blame\n%s", err, out)
	}
}

// TestBadArguments checks that bad command lines are refused with exit
// status 2 and a message naming the flag or argument.
func TestBadArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"join", "--table", "t"}, "--peer"},
		{[]string{"join", "--peer", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1"}, "--table"},
		{[]string{"join", "--table", "t", "--peer", "x", "--peer", "y", "--peer", "z"}, "--peer"},
		{[]string{"join", "--table", "t", "--hands", "-1", "--peer", "a", "--peer", "b", "--peer", "c"}, "--hands must be"},
		{[]string{"local", "--hands", "-1"}, "--hands"},
		{[]string{"local", "--private-hands", "--no-proofs"}, "--private-hands"},
		{[]string{"local", "--rtt", "-1ms"}, "--rtt"},
		{[]string{"lab", "--rtt", "100ms", "--jitter", "-5ms"}, "--jitter"},
		{[]string{"join", "--table", "t", "--private-hands", "--no-proofs", "--peer", "a", "--peer", "b", "--peer", "c"}, "--private-hands"},
		{[]string{"audit"}, "transcript"},
		{[]string{"audit", filepath.Join(t.TempDir(), "missing.mjt")}, "missing.mjt"},
		{[]string{"nosuchcommand"}, "nosuchcommand"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, &stdout, &stderr)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: stderr does not name %q:\n%s", c.args, c.want, stderr.String())
		}
	}
}

// TestLocalHanchanEndToEnd builds the binary and runs "mentalmj local": four
// bot processes play a whole hanchan under the mental protocol. It checks
// the final standings are printed, that every node wrote the same Tenhou
// mjlog record, that the record passes "mentalmj tenhou replay" (every
// action legal, every AGARI, RYUUKYOKU and owari reproduced by the rules
// engine), and that "mentalmj tenhou verify" reports it as skipped (it has
// no Tenhou SHUFFLE seed), not failed.
func TestLocalHanchanEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "hanchan")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "local", "--dir", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("mentalmj local: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^final standings \(points with uma\):\n  1\. player-\d \((East|South|West|North), seat \d\): -?\d+ points \([-+]\d+\.\d\)`).Match(out) {
		t.Errorf("no final standings in:\n%s", out)
	}
	if !strings.Contains(string(out), "identical on all four nodes") {
		t.Errorf("local did not confirm identical records:\n%s", out)
	}
	record := filepath.Join(dir, "player-2.mjlog.xml")
	rep, err := exec.CommandContext(ctx, bin, "tenhou", "replay", "--json", record).Output()
	if err != nil {
		t.Fatalf("mentalmj tenhou replay %s: %v\n%s", record, err, rep)
	}
	var r struct {
		Games      int   `json:"games"`
		Rounds     int   `json:"rounds"`
		Mismatches []any `json:"mismatches"`
	}
	if err := json.Unmarshal(rep, &r); err != nil {
		t.Fatal(err)
	}
	hands := len(regexp.MustCompile(`(?m)^hand \d+ `).FindAll(out, -1))
	if r.Games != 1 || r.Rounds != hands || len(r.Mismatches) != 0 {
		t.Errorf("replay: %d games, %d rounds (want %d), mismatches %v", r.Games, r.Rounds, hands, r.Mismatches)
	}
	ver, err := exec.CommandContext(ctx, bin, "tenhou", "verify", record).CombinedOutput()
	if err != nil || !strings.Contains(string(ver), "1 skipped") {
		t.Errorf("tenhou verify on a mental-protocol record: %v\n%s", err, ver)
	}
}
