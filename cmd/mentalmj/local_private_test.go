package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
)

// TestLocalPrivateHandsEndToEnd runs "mentalmj local --private-hands
// --hands 2": four processes on 127.0.0.1 play two hands in which only the
// keys the rules need are revealed. Every node's audit passes and agrees
// on the public part of the wall; "mentalmj audit" passes every transcript
// and says the wall was only partly revealed; no transcript holds a global
// key or a public key for more than part of the wall; each node's record
// is its own view (its own haipai in full, other seats' tiles hidden
// unless shown, checkOwnViews) and the tools that need every tile refuse
// it by name.
func TestLocalPrivateHandsEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "local", "--private-hands", "--hands", "2", "--dir", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mentalmj local --private-hands: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if got := len(regexp.MustCompile(`(?m)^hand [12] .*audit ok \(4 of 4 audits agree\)`).FindAllString(stdout.String(), -1)); got != 2 {
		t.Errorf("want 2 hands with agreeing audits, got %d in:\n%s", got, stdout.String())
	}
	if !strings.Contains(stdout.String(), "each node's own view") {
		t.Errorf("local did not describe the per-node records:\n%s", stdout.String())
	}
	var records [][]byte
	for i := 0; i < 4; i++ {
		path := filepath.Join(dir, "player-"+string(rune('0'+i))+".mjt")
		out, err := exec.CommandContext(ctx, bin, "audit", "--json", path).Output()
		if err != nil {
			t.Fatalf("mentalmj audit %s: %v\n%s", path, err, out)
		}
		var v struct {
			OK           bool `json:"ok"`
			PrivateHands bool `json:"private_hands"`
			Hands        []struct {
				Yama         []int  `json:"yama"`
				Audit        string `json:"audit"`
				Shown        int    `json:"shown"`
				PrivateHands bool   `json:"private_hands"`
			} `json:"hands"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("audit --json output: %v\n%s", err, out)
		}
		if !v.OK || !v.PrivateHands || len(v.Hands) != 2 {
			t.Fatalf("player %d transcript: ok=%v private=%v hands=%d", i, v.OK, v.PrivateHands, len(v.Hands))
		}
		for h, hand := range v.Hands {
			hidden := 0
			for _, id := range hand.Yama {
				if id < 0 {
					hidden++
				}
			}
			if !hand.PrivateHands || hidden == 0 || hand.Shown+hidden != 136 || !strings.HasPrefix(hand.Audit, "wall partly revealed (private hands): ") {
				t.Errorf("player %d hand %d: private %v, %d shown, %d hidden, audit %q", i, h+1, hand.PrivateHands, hand.Shown, hidden, hand.Audit)
			}
		}
		// The transcript itself: no global key, and keys made public for
		// only part of the wall in each hand.
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := protocol.ReadTranscript(f, path)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		public := map[uint32]map[uint32]bool{}
		add := func(hand uint32, ps []uint32) {
			if public[hand] == nil {
				public[hand] = map[uint32]bool{}
			}
			for _, p := range ps {
				public[hand][p] = true
			}
		}
		for _, o := range entries {
			e := o.Entry
			switch {
			case e.GetKeyReveal() != nil:
				if len(e.GetKeyReveal().GlobalKey) > 0 {
					t.Fatalf("%s: %s published its global key", path, o.Sender)
				}
				add(e.Hand, e.GetKeyReveal().Positions)
			case e.GetKeyRelease() != nil && o.Recipient == "":
				add(e.Hand, e.GetKeyRelease().Positions)
			case e.GetTurn() != nil:
				add(e.Hand, e.GetTurn().GetShown().GetPositions())
			case e.GetCall() != nil:
				add(e.Hand, e.GetCall().GetShown().GetPositions())
			case e.GetDeclare() != nil:
				add(e.Hand, e.GetDeclare().GetShown().GetPositions())
			}
		}
		for hand, ps := range public {
			if len(ps) == 0 || len(ps) >= 136 {
				t.Errorf("%s hand %d: keys public for %d positions", path, hand, len(ps))
			}
		}
		rec, err := os.ReadFile(filepath.Join(dir, "player-"+string(rune('0'+i))+".mjlog.xml"))
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, rec)
	}
	checkOwnViews(t, records)
	text, err := exec.CommandContext(ctx, bin, "audit", filepath.Join(dir, "player-0.mjt")).CombinedOutput()
	if err != nil || !strings.Contains(string(text), "wall partly revealed (private hands): ") || !strings.Contains(string(text), "with private hands") {
		t.Errorf("mentalmj audit (text): %v\n%s", err, text)
	}
	out, err := exec.CommandContext(ctx, bin, "tenhou", "replay", filepath.Join(dir, "player-0.mjlog.xml")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "private-hands") {
		t.Errorf("tenhou replay of a private view: %v, want a refusal naming private hands\n%s", err, out)
	}
}

// initTag matches an mjlog INIT tag's four haipai attributes.
var initTag = regexp.MustCompile(`<INIT [^>]*hai0="([^"]*)" hai1="([^"]*)" hai2="([^"]*)" hai3="([^"]*)"`)

// checkOwnViews checks that records[i], player-i's private-hands mjlog, is
// player-i's own view: its own haipai is shown in full in every hand, every
// tile it shows of another seat is that seat's tile in that seat's own
// record, and some tile is hidden in some record. Two records may be equal
// (when both players' hands were shown at the end of every hand), so
// equality is not the test.
func checkOwnViews(t *testing.T, records [][]byte) {
	t.Helper()
	seatOf := func(rec []byte, player int) int {
		for s := 0; s < 4; s++ {
			m := regexp.MustCompile(`\bn` + string(rune('0'+s)) + `="([^"]*)"`).FindSubmatch(rec)
			if m == nil {
				continue
			}
			if name, err := url.PathUnescape(string(m[1])); err == nil && name == "player-"+string(rune('0'+player)) {
				return s
			}
		}
		t.Fatalf("player-%d's record names no seat player-%d", player, player)
		return -1
	}
	// hands[i][h][s] is seat s's haipai in hand h of record i.
	hands := make([][][4][]string, len(records))
	seats := make([]int, len(records))
	hidden := 0
	for i, rec := range records {
		seats[i] = seatOf(rec, i)
		for _, m := range initTag.FindAllSubmatch(rec, -1) {
			var hand [4][]string
			for s := 0; s < 4; s++ {
				hand[s] = strings.Split(string(m[s+1]), ",")
			}
			hands[i] = append(hands[i], hand)
		}
		if len(hands[i]) != 2 {
			t.Fatalf("player-%d's record has %d INIT tags, want 2", i, len(hands[i]))
		}
	}
	for i := range records {
		for h, hand := range hands[i] {
			for s := 0; s < 4; s++ {
				for k, tile := range hand[s] {
					if tile == "?" {
						hidden++
						if s == seats[i] {
							t.Errorf("player-%d's record hides its own haipai tile %d in hand %d", i, k, h+1)
						}
						continue
					}
					owner := slices.Index(seats, s)
					if own := hands[owner][h][s]; k >= len(own) || own[k] != tile {
						t.Errorf("player-%d's record shows seat %d's haipai tile %d in hand %d as %s; that seat's own record does not", i, s, k, h+1, tile)
					}
				}
			}
		}
	}
	if hidden == 0 {
		t.Errorf("no record hides any haipai tile: private-hands records are each node's own view")
	}
}
