package game

import (
	"errors"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// harness drives a Kyoku in tests: hands and draws are written in the
// standard notation ("123m456p789s11z", 0 = red five) and each tile gets a
// distinct Tenhou id.
type harness struct {
	t    *testing.T
	k    *Kyoku
	used [wall.NumTiles]bool
}

// ids turns notation into distinct unused tile ids (red fives get 16, 52,
// 88; plain fives never do).
func (h *harness) ids(s string) []wall.Tile {
	h.t.Helper()
	var out []wall.Tile
	var digits []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
			continue
		}
		if len(digits) == 0 {
			h.t.Fatalf("notation %q: suit %q without digits", s, c)
		}
		for _, d := range digits {
			k, red, err := wall.ParseTileName(string([]byte{d, c}))
			if err != nil {
				h.t.Fatalf("notation %q: %v", s, err)
			}
			out = append(out, h.free(k, red, s))
		}
		digits = digits[:0]
	}
	if len(digits) > 0 {
		h.t.Fatalf("notation %q: digits without suit", s)
	}
	return out
}

func (h *harness) free(k wall.Kind, red bool, src string) wall.Tile {
	h.t.Helper()
	for id := wall.Tile(4 * k); id < wall.Tile(4*k+4); id++ {
		if h.used[id] || id.IsRed() != red {
			continue
		}
		h.used[id] = true
		return id
	}
	h.t.Fatalf("notation %q: no %s left", src, k)
	return 0
}

func (h *harness) tile(s string) wall.Tile {
	h.t.Helper()
	ts := h.ids(s)
	if len(ts) != 1 {
		h.t.Fatalf("want one tile, got %q", s)
	}
	return ts[0]
}

// newHarness deals hands[s] to seat s (13 tiles each), seat 0 the dealer
// of East 1, with dora indicator dora; edit may change the deal first.
func newHarness(t *testing.T, hands [4]string, dora string, edit func(*Deal)) *harness {
	t.Helper()
	return newHarnessRules(t, TenhouRules(true, true, true), hands, dora, edit)
}

// newHarnessRules is newHarness under rules r (four players).
func newHarnessRules(t *testing.T, r Rules, hands [4]string, dora string, edit func(*Deal)) *harness {
	t.Helper()
	h := &harness{t: t}
	d := Deal{Scores: [4]int{25000, 25000, 25000, 25000}}
	for s := range hands {
		d.Haipai[s] = h.ids(hands[s])
	}
	d.DoraIndicator = h.tile(dora)
	if edit != nil {
		edit(&d)
	}
	k, err := NewKyoku(r, d)
	if err != nil {
		t.Fatal(err)
	}
	h.k = k
	return h
}

// draw makes the pending draw with the tile named by s.
func (h *harness) draw(s string) {
	h.t.Helper()
	if _, err := h.k.Draw(h.tile(s)); err != nil {
		h.t.Fatal(err)
	}
}

// held returns the id of a tile named s (kind, red or not) in seat's hand.
func (h *harness) held(seat Seat, s string) wall.Tile {
	h.t.Helper()
	k, red, err := wall.ParseTileName(s)
	if err != nil {
		h.t.Fatal(err)
	}
	tiles, _ := h.k.Hand(seat)
	for _, t := range tiles {
		if t != Unknown && t.Kind() == k && t.IsRed() == red {
			return t
		}
	}
	h.t.Fatalf("seat %d holds no %s (hand %v)", seat, s, tiles)
	return 0
}

func (h *harness) heldN(seat Seat, s string) []wall.Tile {
	h.t.Helper()
	var out []wall.Tile
	for i := 0; i+2 <= len(s); i += 2 {
		k, red, err := wall.ParseTileName(s[i : i+2])
		if err != nil {
			h.t.Fatal(err)
		}
		tiles, _ := h.k.Hand(seat)
		found := false
		for _, t := range tiles {
			if t != Unknown && t.Kind() == k && t.IsRed() == red && !containsTile(out, t) {
				out = append(out, t)
				found = true
				break
			}
		}
		if !found {
			h.t.Fatalf("seat %d lacks %s", seat, s[i:i+2])
		}
	}
	return out
}

func containsTile(ts []wall.Tile, t wall.Tile) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// do applies a, failing the test on error.
func (h *harness) do(a Action) {
	h.t.Helper()
	if err := h.k.Apply(a); err != nil {
		h.t.Fatal(err)
	}
}

// deny applies a and wants an *IllegalError whose text contains want.
func (h *harness) deny(a Action, want string) {
	h.t.Helper()
	err := h.k.Apply(a)
	var ie *IllegalError
	if !errors.As(err, &ie) || !errors.Is(err, ErrIllegal) {
		h.t.Fatalf("%v: want an illegal-action error containing %q, got %v", a, want, err)
	}
	if !strings.Contains(err.Error(), want) {
		h.t.Fatalf("%v: error %q does not contain %q", a, err, want)
	}
}

func (h *harness) discard(seat Seat, s string) {
	h.t.Helper()
	h.do(Action{Type: Discard, Seat: seat, Tile: h.held(seat, s)})
}

func (h *harness) riichi(seat Seat, s string) {
	h.t.Helper()
	h.do(Action{Type: Discard, Seat: seat, Tile: h.held(seat, s), Riichi: true})
}

// pass makes every awaited seat pass.
func (h *harness) pass() {
	h.t.Helper()
	for _, s := range h.k.Awaiting() {
		h.do(Action{Type: Pass, Seat: s})
	}
}

func (h *harness) has(seat Seat, typ ActionType) bool {
	for _, a := range h.k.LegalActions(seat) {
		if a.Type == typ {
			return true
		}
	}
	return false
}

func (h *harness) phase(want Phase) {
	h.t.Helper()
	if got := h.k.Phase(); got != want {
		h.t.Fatalf("phase %s, want %s", got, want)
	}
}

// drawWhere draws the lowest free non-red tile whose kind satisfies ok.
func (h *harness) drawWhere(ok func(wall.Kind) bool) wall.Tile {
	h.t.Helper()
	for id := wall.Tile(0); id < wall.NumTiles; id++ {
		if h.used[id] || id.IsRed() || !ok(id.Kind()) {
			continue
		}
		h.used[id] = true
		if _, err := h.k.Draw(id); err != nil {
			h.t.Fatal(err)
		}
		return id
	}
	h.t.Fatal("no free tile left")
	return 0
}

// fillTurn draws a free tile not of the avoided kinds for the seat to
// move, discards it and lets everyone pass.
func (h *harness) fillTurn(avoid string) {
	h.t.Helper()
	bad := map[wall.Kind]bool{}
	for i := 0; i+2 <= len(avoid); i += 2 {
		k, _, err := wall.ParseTileName(avoid[i : i+2])
		if err != nil {
			h.t.Fatal(err)
		}
		bad[k] = true
	}
	seat := h.k.Turn()
	t := h.drawWhere(func(k wall.Kind) bool { return !bad[k] })
	h.do(Action{Type: Discard, Seat: seat, Tile: t})
	h.pass()
}

func notYaochuu(k wall.Kind) bool { return !isYaochuu(k) }

// tsumogiri discards the tile seat just drew (the last in its hand).
func (h *harness) tsumogiri(seat Seat) {
	h.t.Helper()
	tiles, _ := h.k.Hand(seat)
	h.do(Action{Type: Discard, Seat: seat, Tile: tiles[len(tiles)-1]})
}

// revealUra reveals the ura-dora indicators of the turned indicators with
// free honour tiles (needed before a riichi win is paid).
func (h *harness) revealUra() {
	h.t.Helper()
	_, ura := h.k.DoraPositions()
	for _, pos := range ura {
		if h.k.Tile(pos) != Unknown {
			continue
		}
		for id := wall.Tile(wall.NumTiles - 1); id >= 0; id-- {
			if !h.used[id] {
				h.used[id] = true
				if err := h.k.Reveal(pos, id); err != nil {
					h.t.Fatal(err)
				}
				break
			}
		}
	}
}
