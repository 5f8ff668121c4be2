package tenhou6

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// meldString returns the tenhou.net/6 string of a call and whether it is
// a take (chi, pon, daiminkan) rather than a discard (kakan, ankan, kita).
// The tiles from the hand are sorted as a haipai (a red five after the
// plain ones) and the called tile is placed by where it came from: first
// from kamicha, second from toimen, last from shimocha.
func meldString(m mjlog.Meld, red func(wall.Tile) bool) (string, bool, error) {
	code := func(t wall.Tile) int { return codeRed(t, red) }
	switch m.Type {
	case riichi.Chi:
		if len(m.Tiles) != 3 {
			return "", false, fmt.Errorf("chi of %d tiles", len(m.Tiles))
		}
		var rest []int
		for _, t := range m.Tiles {
			if t != m.Called {
				rest = append(rest, code(t))
			}
		}
		return "c" + join(append([]int{code(m.Called)}, rest...)), true, nil
	case riichi.Pon:
		s, err := placed(m.Tiles, m.Called, m.From, "p", red)
		return s, true, err
	case riichi.Daiminkan:
		s, err := placed(m.Tiles, m.Called, m.From, "m", red)
		return s, true, err
	case riichi.Kakan:
		pon := slices.DeleteFunc(slices.Clone(m.Tiles), func(t wall.Tile) bool { return t == m.Added })
		s, err := placed(pon, m.Called, m.From, "k"+strconv.Itoa(code(m.Added)), red)
		return s, false, err
	case riichi.Ankan:
		if len(m.Tiles) != 4 {
			return "", false, fmt.Errorf("ankan of %d tiles", len(m.Tiles))
		}
		codes := make([]int, 4)
		for i, t := range m.Tiles {
			codes[i] = code(t)
		}
		slices.SortFunc(codes, func(a, b int) int { return sortKey(a) - sortKey(b) })
		return join(codes[:3]) + "a" + strconv.Itoa(codes[3]), false, nil
	case riichi.Kita:
		if len(m.Tiles) != 1 {
			return "", false, fmt.Errorf("kita of %d tiles", len(m.Tiles))
		}
		return "f" + strconv.Itoa(code(m.Tiles[0])), false, nil
	}
	return "", false, fmt.Errorf("meld type %v", m.Type)
}

// placed writes a pon or daiminkan (or the pon of a kakan): the hand tiles
// sorted, with mark and the called tile inserted at the position of the
// seat it came from (From 3 kamicha: first; 2 toimen: second; 1 shimocha:
// last).
func placed(tiles []wall.Tile, called wall.Tile, from int, mark string, red func(wall.Tile) bool) (string, error) {
	if !slices.Contains(tiles, called) {
		return "", fmt.Errorf("%s: called tile %v not in the meld", mark, called)
	}
	var hand []int
	for _, t := range tiles {
		if t != called {
			hand = append(hand, codeRed(t, red))
		}
	}
	slices.SortFunc(hand, func(a, b int) int { return sortKey(a) - sortKey(b) })
	var at int
	switch from {
	case 3:
		at = 0
	case 2:
		at = 1
	case 1:
		at = len(hand)
	default:
		return "", fmt.Errorf("%s from relative seat %d", mark, from)
	}
	var b strings.Builder
	for i := 0; i <= len(hand); i++ {
		if i == at {
			b.WriteString(mark)
			b.WriteString(strconv.Itoa(codeRed(called, red)))
		}
		if i < len(hand) {
			b.WriteString(strconv.Itoa(hand[i]))
		}
	}
	return b.String(), nil
}

func join(codes []int) string {
	var b strings.Builder
	for _, c := range codes {
		b.WriteString(strconv.Itoa(c))
	}
	return b.String()
}
