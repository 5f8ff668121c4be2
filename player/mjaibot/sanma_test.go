package mjaibot

import (
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
)

// TestSanmaMjaiClient plays three-player hands with the Python client at
// seats 0 and 1 and the built-in bot at seat 2. The client declares kita
// (nukidora) whenever it has just drawn and holds a north. Checked against
// the audited record: the client gets the sanma form of mjai (four seats,
// the empty one with 0 points and 13 "?" tiles), one nukidora event per
// kita of the record (any seat) followed by that seat's replacement tsumo
// or a ron on it, every kita of a client seat is one of its nukidora
// replies in order, and its discards are its own.
func TestSanmaMjaiClient(t *testing.T) {
	t.Parallel()
	// table's deal is the same in every run (fixed seeds), and in it a
	// client seat holds a north: a deal where none did would exercise no
	// nukidora reply.
	if sanmaClientRun(t) == 0 && !t.Failed() {
		t.Error("no kita by a client seat in three hands: the nukidora reply was not exercised")
	}
}

// sanmaClientRun plays one table of TestSanmaMjaiClient, checks it, and
// returns how many kita the client seats declared.
func sanmaClientRun(t *testing.T) int {
	t.Helper()
	dir := t.TempDir()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	players := make([]protocol.Player, 3)
	var bots []*Player
	for i := range 2 {
		p := startClient(t, filepath.Join(dir, "bot"+string(rune('0'+i))+".jsonl"), "", logger)
		players[i] = p
		bots = append(bots, p)
	}
	results, g := table(t, 3, 10*time.Second, players)
	rec := g.Record(results)
	for _, b := range bots {
		b.Close()
	}
	if rec.Go.Players() != 3 {
		t.Fatalf("record of %d players", rec.Go.Players())
	}
	// The record's kita, per seat and in all.
	var kitaBy [4]int
	total := 0
	for _, rd := range rec.Rounds {
		for _, e := range rd.Events {
			if c, ok := e.(mjlog.Call); ok && c.Meld.Type == riichi.Kita {
				kitaBy[c.Who]++
				total++
			}
		}
	}
	clientKita := 0
	for i := range 2 {
		path := filepath.Join(dir, "bot"+string(rune('0'+i))+".jsonl")
		received := readLines(t, path)
		seat := checkNoLeak(t, received)
		nuki := 0
		for j, e := range received {
			switch e.Type {
			case mjai.StartKyoku:
				if len(e.Scores) != 4 || e.Scores[3] != 0 || len(e.Tehais) != 4 || !slices.Equal(e.Tehais[3], mjai.SanmaTehai()) {
					t.Fatalf("seat %d: %s", seat, e)
				}
			case mjai.Nukidora:
				nuki++
				k := j + 1
				for k < len(received) && received[k].Type == mjai.Dora {
					k++
				}
				if e.Pai != "N" || k >= len(received) ||
					!(received[k].Type == mjai.Tsumo && received[k].Actor == e.Actor || received[k].Type == mjai.Hora && received[k].Target == e.Actor) {
					t.Errorf("seat %d: %s not followed by the replacement tsumo or a ron", seat, e)
				}
			case mjai.Chi:
				t.Errorf("seat %d: chi in sanma: %s", seat, e)
			}
		}
		if nuki != total {
			t.Errorf("seat %d received %d nukidora, the record has %d kita", seat, nuki, total)
		}
		var said, kita []string
		for _, r := range readLines(t, path+".out") {
			switch r.Type {
			case mjai.Dahai:
				said = append(said, r.Pai)
			case mjai.Nukidora:
				kita = append(kita, r.Pai)
			}
		}
		if len(kita) != kitaBy[seat] {
			t.Errorf("seat %d: the client said nukidora %d times, the record has %d kita of it", seat, len(kita), kitaBy[seat])
		}
		clientKita += kitaBy[seat]
		if want := discards(rec, seat); strings.Join(said, " ") != strings.Join(want, " ") {
			t.Errorf("seat %d: the client discarded\n%v\nthe record has\n%v", seat, said, want)
		}
	}
	t.Logf("%d kita in %d hands, %d by the clients", total, len(rec.Rounds), clientKita)
	if s := logs.String(); strings.Contains(s, "level=WARN") || strings.Contains(s, "level=ERROR") {
		t.Errorf("warnings in a clean game:\n%s", s)
	}
	return clientKita
}
