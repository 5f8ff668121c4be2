package mjaibot

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/internal/selfplay"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/wall"
)

// mjaiByIsRed names tile t in mjai's notation as the rules' IsRed says
// (the second path): the kind's name, "r" after a red five.
func mjaiByIsRed(hand riichi.Rules, t wall.Tile) string {
	if hand.IsRed(t) {
		return mjai.KindName(t.Kind()) + "r"
	}
	return mjai.KindName(t.Kind())
}

// bots returns the built-in bot at every seat, seeded from seed.
func bots(seed uint64) (out [4]selfplay.Chooser) {
	for s := range out {
		out[s] = bot.New(seed + uint64(s)).Choose
	}
	return out
}

// sameNames reports whether got names exactly the tiles ids as name does,
// as multisets.
func sameNames(got []string, ids []wall.Tile, name func(wall.Tile) string) bool {
	want := make([]string, len(ids))
	for i, t := range ids {
		want[i] = name(t)
	}
	got = slices.Clone(got)
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want)
}

// TestMjaiRedFivesFollowRules plays East 1 with bots at every seat under
// aka=0..4, the dealer's haipai holding every red-five candidate (16,
// 52, 53, 88) and plain fives, and feeds the dealer's mjai seat every
// step through a Player whose bot keeps the stream. The dealer's tehai and every dahai of the stream must name the
// tiles as the rules' IsRed does; the tehai has exactly the red fives of
// docs/rules.md's aka table (1: 5pr; 2: 5pr 5sr; 3: one per suit; 4: and a
// second 5pr); under aka=0 the stream names no red five. Naming the
// tehai as Tenhou does (the mjlog aka bit) must fail the check except
// under aka=3 (a deliberate tamper).
func TestMjaiRedFivesFollowRules(t *testing.T) {
	t.Parallel()
	readme := map[int][]string{0: {}, 1: {"5pr"}, 2: {"5pr", "5sr"}, 3: {"5mr", "5pr", "5sr"}, 4: {"5mr", "5pr", "5pr", "5sr"}}
	for aka := range 5 {
		set, err := rules.Parse("tenhou", []string{fmt.Sprintf("aka=%d", aka)})
		if err != nil {
			t.Fatal(err)
		}
		r := set.Game(4, false)
		yama, err := selfplay.Wall(uint64(aka)+11, 16, 17, 52, 53, 54, 88, 89)
		if err != nil {
			t.Fatal(err)
		}
		k, err := selfplay.Deal(game.NewMatch(r), yama)
		if err != nil {
			t.Fatal(err)
		}
		haipai, _ := k.Hand(0)
		haipai = slices.Clone(haipai)
		// The dealer's mjai seat, its bot a cat that keeps the stream.
		path := filepath.Join(t.TempDir(), "stream.jsonl")
		p, err := Start(Config{Command: "cat > " + path})
		if err != nil {
			t.Fatal(err)
		}
		observe := func(k *game.Kyoku) error {
			p.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, View: k.Clone(), Step: "tsumo"})
			return nil
		}
		observe(k)
		err = selfplay.Play(k, yama, bots(uint64(aka)), selfplay.Hooks{
			Drew:    func(k *game.Kyoku, _ game.Seat, _ wall.Tile) error { return observe(k) },
			Applied: func(k *game.Kyoku, _ game.Action) error { return observe(k) },
		})
		p.Close()
		if err != nil {
			t.Fatalf("aka=%d: %v", aka, err)
		}
		events := readLines(t, path)
		if events[1].Type != mjai.StartKyoku {
			t.Fatalf("aka=%d: stream starts %v", aka, events[:2])
		}
		tehai := events[1].Tehais[0]
		if !sameNames(tehai, haipai, func(t wall.Tile) string { return mjaiByIsRed(r.Hand, t) }) {
			t.Errorf("aka=%d: tehai %v for haipai %v", aka, tehai, haipai)
		}
		var reds []string
		for _, n := range tehai {
			if len(n) == 3 {
				reds = append(reds, n)
			}
		}
		slices.Sort(reds)
		if !slices.Equal(reds, readme[aka]) {
			t.Errorf("aka=%d: tehai red fives %v, docs/rules.md's table %v", aka, reds, readme[aka])
		}
		if tenhou := sameNames(tehai, haipai, func(t wall.Tile) string { return mjai.Tile(t, wall.TenhouReds) }); tenhou != (aka == 3) {
			t.Errorf("aka=%d: Tenhou's naming checked as %v", aka, tenhou)
		}
		// Every dahai, in order, against the engine's rivers.
		var seen [4]int
		for _, e := range events {
			if e.Type != mjai.Dahai {
				continue
			}
			river := k.River(game.Seat(e.Actor))
			if seen[e.Actor] >= len(river) {
				t.Fatalf("aka=%d: more dahai of %d than its river has", aka, e.Actor)
			}
			if want := mjaiByIsRed(r.Hand, river[seen[e.Actor]].Tile); e.Pai != want {
				t.Errorf("aka=%d: dahai %d of seat %d is %s, want %s", aka, seen[e.Actor], e.Actor, e.Pai, want)
			}
			seen[e.Actor]++
		}
		for s := range 4 {
			if seen[s] != len(k.River(game.Seat(s))) {
				t.Errorf("aka=%d: seat %d: %d dahai for a river of %d", aka, s, seen[s], len(k.River(game.Seat(s))))
			}
		}
		if aka == 0 {
			var b bytes.Buffer
			if err := mjai.Write(&b, events); err != nil {
				t.Fatal(err)
			}
			if red := regexp.MustCompile(`"5[mps]r"`).FindString(b.String()); red != "" {
				t.Errorf("aka=0: the stream names %s", red)
			}
		}
	}
}

// TestRepliesFollowRules maps a bot's dahai to the table's tiles: with
// one red five (5p, id 52) 5mr names nothing and 5m the five id 16; with
// none 5p takes id 52 and 5pr nothing; with four 5pr takes id 53 as
// well as 52.
func TestRepliesFollowRules(t *testing.T) {
	t.Parallel()
	legal := func(ids ...wall.Tile) []game.Action {
		var out []game.Action
		for _, id := range ids {
			out = append(out, game.Action{Type: game.Discard, Seat: 0, Tile: id})
		}
		return out
	}
	for _, c := range []struct {
		aka   int
		legal []game.Action
		pai   string
		want  wall.Tile // -1: refused
	}{
		{1, legal(16, 52), "5m", 16},
		{1, legal(16, 52), "5mr", -1},
		{1, legal(16, 52), "5pr", 52},
		{0, legal(52, 88), "5p", 52},
		{0, legal(52, 88), "5pr", -1},
		{0, legal(52, 88), "5sr", -1},
		{4, legal(53, 54), "5pr", 53},
		{4, legal(53, 54), "5p", 54},
		{2, legal(16, 88), "5m", 16},
		{2, legal(16, 88), "5sr", 88},
	} {
		r := game.TenhouRules(true, c.aka > 0, true)
		r.Hand.Red = c.aka
		reply := mjai.Event{Type: mjai.Dahai, Actor: 0, Pai: c.pai}
		a, err := action(reply, c.legal, 0, false, game.Unknown, r.Hand.Reds())
		switch {
		case c.want < 0 && err == nil:
			t.Errorf("aka=%d: %s taken as %v", c.aka, c.pai, a)
		case c.want >= 0 && (err != nil || a.Tile != c.want):
			t.Errorf("aka=%d: %s: %v %v, want the discard of %d", c.aka, c.pai, a, err, c.want)
		}
	}
}
