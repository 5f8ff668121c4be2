package game

import (
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// kindBit returns the bit of kind k in a 34-bit kind set.
func kindBit(k wall.Kind) uint64 { return 1 << uint(k) }

// isYaochuu reports whether k is a terminal (1 or 9) or an honour.
func isYaochuu(k wall.Kind) bool { return k.IsHonor() || k.IsTerminal() }

// isComplete reports whether the concealed counts c of a hand with melds
// declared melds form a complete hand (4 - melds sets and a pair,
// chiitoitsu or kokushi musou). It is a fast filter used before the full
// evaluation by riichi.Score; it shares no code with package riichi.
func isComplete(c *riichi.Counts, melds int) bool {
	n := 0
	for _, v := range c {
		n += v
	}
	if n != 14-3*melds {
		return false
	}
	if melds == 0 && (isChiitoi(c) || isKokushi(c)) {
		return true
	}
	return isStandard(c)
}

func isChiitoi(c *riichi.Counts) bool {
	pairs := 0
	for _, v := range c {
		switch v {
		case 0:
		case 2:
			pairs++
		default:
			return false
		}
	}
	return pairs == 7
}

var yaochuuKinds = [13]wall.Kind{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}

func isKokushi(c *riichi.Counts) bool {
	n, pair := 0, false
	for _, k := range yaochuuKinds {
		switch c[k] {
		case 1:
		case 2:
			if pair {
				return false
			}
			pair = true
		default:
			return false
		}
		n += c[k]
	}
	return n == 14 && pair
}

// isStandard checks the sets-and-a-pair form: exactly one suit (or the
// honours) has a tile count ≡ 2 mod 3 and holds the pair; every group
// must then split into triplets and sequences.
func isStandard(c *riichi.Counts) bool {
	pairGroup := -1
	for g := 0; g < 4; g++ {
		lo, hi := g*9, g*9+9
		if g == 3 {
			hi = 34
		}
		s := 0
		for k := lo; k < hi; k++ {
			s += c[k]
		}
		switch s % 3 {
		case 1:
			return false
		case 2:
			if pairGroup >= 0 {
				return false
			}
			pairGroup = g
		}
	}
	if pairGroup < 0 {
		return false
	}
	for g := 0; g < 4; g++ {
		if g == pairGroup {
			continue
		}
		if !groupSets(c, g) {
			return false
		}
	}
	lo, hi := pairGroup*9, pairGroup*9+9
	if pairGroup == 3 {
		hi = 34
	}
	var work riichi.Counts
	for k := lo; k < hi; k++ {
		if c[k] < 2 {
			continue
		}
		work = *c
		work[k] -= 2
		if groupSets(&work, pairGroup) {
			return true
		}
	}
	return false
}

// groupSets reports whether suit group g (0 m, 1 p, 2 s, 3 honours) of c
// splits into triplets and sequences (honours: triplets only). At the
// lowest remaining kind, count mod 3 tiles must start sequences; three
// equal sequences are interchangeable with three triplets, so the greedy
// choice is exact.
func groupSets(c *riichi.Counts, g int) bool {
	if g == 3 {
		for k := 27; k < 34; k++ {
			if c[k]%3 != 0 {
				return false
			}
		}
		return true
	}
	var a [11]int
	for i := 0; i < 9; i++ {
		a[i] = c[g*9+i]
	}
	for i := 0; i < 9; i++ {
		r := a[i] % 3
		if r == 0 {
			continue
		}
		if a[i+1] < r || a[i+2] < r {
			return false
		}
		a[i+1] -= r
		a[i+2] -= r
	}
	return a[9] == 0 && a[10] == 0
}

// yaochuuKindCount returns the number of distinct terminal and honour
// kinds in c (kyuushu kyuuhai needs 9).
func yaochuuKindCount(c *riichi.Counts) int {
	n := 0
	for _, k := range yaochuuKinds {
		if c[k] > 0 {
			n++
		}
	}
	return n
}

// mayComplete is a cheap necessary condition for kind to complete the
// concealed counts c: the hand holds the kind or a suit neighbour within
// two, or (kokushi musou) it is a terminal or honour and the hand holds
// twelve other kinds of them.
func mayComplete(c *riichi.Counts, kind wall.Kind) bool {
	if c[kind] > 0 {
		return true
	}
	if isYaochuu(kind) && yaochuuKindCount(c) >= 12 {
		return true
	}
	if kind.IsHonor() {
		return false
	}
	n := int(kind % 9)
	for d := -2; d <= 2; d++ {
		if d != 0 && n+d >= 0 && n+d < 9 && c[int(kind)+d] > 0 {
			return true
		}
	}
	return false
}
