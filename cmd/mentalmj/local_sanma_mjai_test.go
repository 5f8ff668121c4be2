package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
)

// TestLocalSanmaMjaiBot runs "mentalmj local --players 3 --hands 2" with
// the Python mjai client of package mjaibot as player-1: the hands must
// be audited by the three nodes, the client must have been sent the
// three-player form of mjai (four seats, the empty one with 0 points and
// 13 "?" tiles) and one nukidora per kita of the game record, the record
// must convert with "tenhou mjai", and stats must count the records and
// a transcript as one three-player game.
func TestLocalSanmaMjaiBot(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts three processes")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	client, err := filepath.Abs("../../player/mjaibot/testdata/mjai_client.py")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "run")
	log := filepath.Join(t.TempDir(), "p1.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "local", "--players", "3", "--hands", "2", "--dir", dir,
		"--mjai-bot", "1=MJAI_LOG="+log+" python3 "+client)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mentalmj local: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if n := strings.Count(stdout.String(), "audit ok (3 of 3 audits agree)"); n != 2 {
		t.Errorf("%d audited hands, want 2:\n%s", n, stdout.String())
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var starts, nuki int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e mjai.Event
		if err := e.UnmarshalJSON([]byte(line)); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		switch e.Type {
		case mjai.StartKyoku:
			starts++
			if len(e.Scores) != 4 || e.Scores[3] != 0 || len(e.Tehais) != 4 || strings.Join(e.Tehais[3], "") != strings.Repeat("?", 13) {
				t.Errorf("start_kyoku not in the three-player form: %s", line)
			}
		case mjai.Nukidora:
			nuki++
		}
	}
	record := filepath.Join(dir, "player-0.mjlog.xml")
	g, err := mjlog.Read(record)
	if err != nil {
		t.Fatal(err)
	}
	kita := 0
	for _, rd := range g.Rounds {
		for _, e := range rd.Events {
			if c, ok := e.(mjlog.Call); ok && c.Meld.Type == riichi.Kita {
				kita++
			}
		}
	}
	if starts != 2 || nuki != kita {
		t.Errorf("the client got %d start_kyoku and %d nukidora; the record has 2 kyoku and %d kita", starts, nuki, kita)
	}
	out, err := exec.CommandContext(ctx, bin, "tenhou", "mjai", record).Output()
	if err != nil || strings.Count(string(out), `"type":"nukidora"`) != kita {
		t.Errorf("tenhou mjai of the record: %v, %d nukidora, want %d", err, strings.Count(string(out), `"type":"nukidora"`), kita)
	}
	// Every record of the run (each player's mjlog, tenhou.net/6 JSON and
	// transcript, audited offline) and player-1's transcript named again
	// are one game: the transcripts' and JSON's hands must read as the
	// mjlogs' do, so that all but one are left out as copies.
	out, err = exec.CommandContext(ctx, bin, "stats", dir, filepath.Join(dir, "player-1.mjt")).CombinedOutput()
	m := regexp.MustCompile(`(\d+) records read, (\d+) left out as copies`).FindStringSubmatch(string(out))
	if err != nil || !strings.Contains(string(out), "Three-player (sanma): 1 game, 2 kyoku") || strings.Contains(string(out), "Four-player") ||
		m == nil || m[1] != "10" || m[2] != "9" {
		t.Errorf("stats of the run: %v\n%s\nwant 10 records read (3 players' mjlog, JSON and transcript, and player-1's transcript again), 9 left out as copies", err, out)
	}
	t.Logf("%d kita in the game", kita)
}
