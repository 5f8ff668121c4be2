package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// A hand that ends without a result (here a fault) reports the scores as
// they stood when it started, not zeros (issue 21).
func TestHandWithoutResultKeepsScores(t *testing.T) {
	start := [4]int{31000, 19000, 25000, 25000}
	var buf bytes.Buffer
	r := &reporter{w: &buf, json: true}
	seats := []peer.ID{"a", "b", "c", "d"}
	r.hand(protocol.HandResult{Number: 2, Seats: seats, Start: game.Deal{Scores: start}}, seats[0], nil, 4)
	var ev struct {
		Scores [4]int `json:"scores"`
	}
	line, _, _ := strings.Cut(buf.String(), "\n")
	if err := json.Unmarshal([]byte(line), &ev); err != nil {
		t.Fatalf("%v: %q", err, line)
	}
	if ev.Scores != start {
		t.Errorf("scores %v, want the starting scores %v", ev.Scores, start)
	}

	buf.Reset()
	r = &reporter{w: &buf}
	r.hand(protocol.HandResult{Number: 2, Seats: seats, Start: game.Deal{Scores: start}}, seats[0], nil, 4)
	if !strings.Contains(buf.String(), "31000") || !strings.Contains(buf.String(), "19000") {
		t.Errorf("text line does not show the scores as they stood: %q", buf.String())
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"128KiB": 128 << 10, "256MiB": 256 << 20, "1GiB": 1 << 30, "100B": 100, "4096": 4096} {
		got, err := parseBytes(in)
		if err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "KiB", "-1KiB", "0", "12x", "1.5MiB", "99999999999GiB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}
