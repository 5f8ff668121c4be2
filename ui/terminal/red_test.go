package terminal

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/selfplay"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// redByAka is docs/rules.md's "House rules" table for the aka switch, as
// tile ids (the first id of a five is its red copy, docs/wall-layout.md §7):
// 1 a red 5p; 2 red 5p and 5s; 3 one per suit; 4 one per suit and a
// second red 5p (id 53).
var redByAka = map[int][]wall.Tile{0: {}, 1: {52}, 2: {52, 88}, 3: {16, 52, 88}, 4: {16, 52, 53, 88}}

// fives are every red-five candidate and a plain copy of each five: the
// dealer's haipai holds them, so every game shows them.
var fives = []wall.Tile{16, 17, 52, 53, 54, 88, 89}

// nameByIsRed names tile t as the rules' IsRed says (the second path):
// the digit 0 for a red five, else the rank.
func nameByIsRed(hand riichi.Rules, t wall.Tile) string {
	k := t.Kind()
	if k.Suit() == 'z' {
		// Honours by name, never "3z" (issue 26).
		return []string{"East", "South", "West", "North", "White", "Green", "Red"}[k.Number()-1]
	}
	if hand.IsRed(t) {
		return fmt.Sprintf("0%c", k.Suit())
	}
	return fmt.Sprintf("%d%c", k.Number(), k.Suit())
}

// checkHandLine checks a "your hand: 1:5m 2:0p …" line against the hand
// ids it shows: each tile named as nameByIsRed names it.
func checkHandLine(line string, ids []int, hand riichi.Rules) error {
	f := strings.Fields(strings.ReplaceAll(strings.TrimPrefix(line, "your hand: "), "+ drew ", ""))
	if len(f) != len(ids) {
		return fmt.Errorf("%q shows %d tiles, the hand has %d", line, len(f), len(ids))
	}
	for i, id := range ids {
		if want := fmt.Sprintf("%d:%s", i+1, nameByIsRed(hand, wall.Tile(id))); f[i] != want {
			return fmt.Errorf("%q: tile %d (id %d) shown as %s, want %s", line, i+1, id, f[i], want)
		}
	}
	return nil
}

// bots returns the built-in bot at every seat, seeded from seed.
func bots(seed uint64) (out [4]selfplay.Chooser) {
	for s := range out {
		out[s] = bot.New(seed + uint64(s)).Choose
	}
	return out
}

// redName matches a red-five name anywhere in a text.
var redName = regexp.MustCompile(`(^|[^0-9])0[mps]`)

// TestRedFivesFollowRules plays East 1 with bots at every seat under
// aka=0..4, the dealer's haipai holding every red-five candidate, and
// draws the dealer's terminal table at each of its decisions, its feed
// and the end-of-hand summary. Every hand line must name the tiles as the
// rules' IsRed does, every discard in the feed likewise; the first hand
// shows exactly the red fives of docs/rules.md's aka table; under aka=0 no
// red five is named anywhere. A tampered hand line must fail the check.
func TestRedFivesFollowRules(t *testing.T) {
	for aka := range 5 {
		set, err := rules.Parse("tenhou", []string{fmt.Sprintf("aka=%d", aka)})
		if err != nil {
			t.Fatal(err)
		}
		r := set.Game(4, false)
		yama, err := selfplay.Wall(uint64(aka)+7, fives...)
		if err != nil {
			t.Fatal(err)
		}
		k, err := selfplay.Deal(game.NewMatch(r), yama)
		if err != nil {
			t.Fatal(err)
		}
		start, _ := game.NewMatch(r).Next()
		var out bytes.Buffer
		model := screen.NewModel(nil)
		term := &Table{model: model, out: &out}
		seats := []peer.ID{"peer-a", "peer-b", "peer-c", "peer-d"}
		observe := func(k *game.Kyoku) error {
			term.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, Seats: seats, Nicks: []string{"alice", "bob", "carol", "dave"}, View: k.Clone()})
			return nil
		}
		observe(k)
		var hands [][]int // the hand ids of every table drawn
		err = selfplay.Play(k, yama, bots(uint64(aka)), selfplay.Hooks{
			Drew:    func(k *game.Kyoku, _ game.Seat, _ wall.Tile) error { return observe(k) },
			Applied: func(k *game.Kyoku, _ game.Action) error { return observe(k) },
			Decide: func(k *game.Kyoku, s game.Seat) {
				if s != 0 {
					return
				}
				def, _ := protocol.Tsumogiri{}.Act(t.Context(), k.Clone(), s)
				d := model.Decide(k, s, time.Time{}, def)
				snap := model.Snapshot()
				writeTable(&out, snap, nil, nil)
				writeOptions(&out, snap, d, nil, nil)
				hands = append(hands, handOrder(snap))
				model.Decided(d.ID, "")
			},
		})
		if err != nil {
			t.Fatalf("aka=%d: %v", aka, err)
		}
		term.HandDone(protocol.HandResult{Number: 1, Seats: seats, Start: start, Result: k.Result()})
		text := out.String()

		var lines []string
		for l := range strings.Lines(text) {
			if strings.HasPrefix(l, "your hand: ") {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		if len(lines) != len(hands) || len(lines) == 0 {
			t.Fatalf("aka=%d: %d hand lines for %d decisions", aka, len(lines), len(hands))
		}
		for i, l := range lines {
			if err := checkHandLine(l, hands[i], r.Hand); err != nil {
				t.Errorf("aka=%d: %v", aka, err)
			}
		}
		// The dealt hand shows docs/rules.md's red fives, no more, no less.
		if got, want := len(redName.FindAllString(lines[0], -1)), len(redByAka[aka]); got != want {
			t.Errorf("aka=%d: first hand %q names %d red fives, docs/rules.md's table %v", aka, lines[0], got, redByAka[aka])
		}
		for _, id := range fives {
			if r.Hand.IsRed(id) != slices.Contains(redByAka[aka], id) {
				t.Errorf("aka=%d: IsRed(%d) = %v disagrees with docs/rules.md's table", aka, id, r.Hand.IsRed(id))
			}
		}
		// Every discard of the feed names its tile as IsRed does.
		discards := 0
		for _, e := range model.Snapshot().Feed {
			if e.Kind != "discard" && e.Kind != "riichi" {
				continue
			}
			discards++
			if name := nameByIsRed(r.Hand, wall.Tile(e.Tile)); !strings.Contains(e.Text, "discarding "+name) && !strings.Contains(e.Text, "discards "+name) {
				t.Errorf("aka=%d: feed %q for tile %d, want %s", aka, e.Text, e.Tile, name)
			}
		}
		if discards == 0 {
			t.Errorf("aka=%d: no discard in the feed", aka)
		}
		if aka == 0 && redName.MatchString(text) {
			t.Errorf("aka=0: a red five is named:\n%s", redName.FindString(text))
		}
		if !strings.Contains(text, "end of hand 1") {
			t.Errorf("aka=%d: no end-of-hand summary", aka)
		}
		// Tamper: the first hand line as Tenhou's naming (Tile.String)
		// would print it must fail the check unless the rules are
		// Tenhou's.
		var tenhou []string
		for i, id := range hands[0] {
			name := wall.Tile(id).String()
			if wall.Tile(id).Kind().Suit() == 'z' {
				name = nameByIsRed(r.Hand, wall.Tile(id)) // honours are named alike
			}
			tenhou = append(tenhou, fmt.Sprintf("%d:%s", i+1, name))
		}
		err = checkHandLine("your hand: "+strings.Join(tenhou, " "), hands[0], r.Hand)
		if (err == nil) != (aka == 3) {
			t.Errorf("aka=%d: Tenhou's names checked as %v", aka, err)
		}
	}
}

// TestTypedRedFive reads "0p" and "5p" as the table plays them: with no
// red fives 0p names nothing (and says so), 5p the five whatever its id;
// with four red fives 0p takes either red 5p.
func TestTypedRedFive(t *testing.T) {
	d := screen.Decision{Options: []screen.Option{
		{ID: 0, Kind: "discard", Tile: 53},
		{ID: 1, Kind: "discard", Tile: 54},
	}}
	for _, c := range []struct {
		red  []int
		line string
		want int
		why  string
	}{
		{nil, "5p", 0, ""},
		{nil, "0p", 0, "this table plays no red 5p: type 5p"},
		{[]int{16, 52, 53, 88}, "0p", 0, ""},
		{[]int{16, 52, 53, 88}, "5p", 1, ""},
		{[]int{16, 52, 88}, "0p", 0, "0p is not in your hand"},
	} {
		s := screen.Snapshot{Red: c.red, MyHand: []int{53, 54}, Drawn: -1}
		got, why := Parse(c.line, s, d)
		if why != c.why || (why == "" && got != c.want) {
			t.Errorf("red %v, %q: option %d %q, want %d %q", c.red, c.line, got, why, c.want, c.why)
		}
	}
}
