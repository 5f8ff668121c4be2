package riichi

import (
	"sync"

	"github.com/mentalmj/mentalmj/wall"
)

// ShantenInvalid is returned by the shanten functions for counts that cannot
// be a hand: a count outside 0..4, more than 14 tiles, or melds outside 0..4.
const ShantenInvalid = 99

// maxHandTiles is the most tiles a concealed hand holds (14, after tsumo).
const maxHandTiles = 14

// Shanten returns the shanten number of the concealed part c of a hand with
// melds declared melds (chi, pon or kan, 0..4): the minimum over the
// standard form, chiitoitsu and kokushi musou (the last two only when
// melds == 0). c holds 13-3*melds tiles (before tsumo; 0 = tenpai) or
// 14-3*melds tiles (after tsumo; -1 = complete hand). It is the exact
// exchange distance within the four-copy limit of the concealed part: no
// target hand needs a fifth tile of a kind, so a hand whose only wait is a
// kind it already holds four of is 1-shanten, not tenpai (as Tenhou's
// tenpai check at ryuukyoku). Tiles outside c (the declared melds, the
// rivers) are not counted against the limit. Invalid counts give
// ShantenInvalid.
func Shanten(c *Counts, melds int) int {
	s := ShantenStandard(c, melds)
	if melds == 0 && s != ShantenInvalid {
		s = min(s, ShantenChiitoi(c), ShantenKokushi(c))
	}
	return s
}

// ShantenStandard returns the shanten number of c for the standard form,
// 4-melds sets plus one pair (see Shanten for the sizes of c). It is the
// exact exchange distance: one less than the fewest tiles that must be
// added (after as many removals) to reach a complete hand holding at most
// four tiles of a kind, found with the per-suit tables of shantenTables.
func ShantenStandard(c *Counts, melds int) int {
	if melds < 0 || melds > 4 {
		return ShantenInvalid
	}
	var rows [4]*[10]uint8
	if !suitRows(shantenTables(), c, &rows) {
		return ShantenInvalid
	}
	return standardFromRows(&rows, melds)
}

// suitRows looks up the table rows of the four suits of c (m, p, s,
// honours); false if a suit is out of range.
func suitRows(tab *shantenTableSet, c *Counts, rows *[4]*[10]uint8) bool {
	var ok bool
	for suit := 0; suit < 3; suit++ {
		if rows[suit], ok = tab.suit.lookup(c[suit*9 : suit*9+9]); !ok {
			return false
		}
	}
	rows[3], ok = tab.honor.lookup(c[27:34])
	return ok
}

// standardFromRows combines the per-suit rows (max-plus convolution over
// the number of sets and the pair) into the standard shanten for
// 4-melds sets and a pair.
func standardFromRows(rows *[4]*[10]uint8, melds int) int {
	sets := 4 - melds
	// acc[j][h]: most tiles used by j sets and h pairs in the suits so far.
	var acc [5][2]int
	r0 := rows[0]
	for j := 0; j <= sets; j++ {
		acc[j][0], acc[j][1] = int(r0[2*j]), int(r0[2*j+1])
	}
	for _, row := range rows[1:3] {
		for j := sets; j >= 0; j-- { // in place: acc[j] reads only acc[<=j]
			best0, best1 := -1, -1
			for j2 := 0; j2 <= j; j2++ {
				a := &acc[j-j2]
				v0, v1 := int(row[2*j2]), int(row[2*j2+1])
				best0 = max(best0, a[0]+v0)
				best1 = max(best1, a[1]+v0, a[0]+v1)
			}
			acc[j][0], acc[j][1] = best0, best1
		}
	}
	// Honours: only the final cell (sets, pair) is needed.
	hr := rows[3]
	best := -1
	for j2 := 0; j2 <= sets; j2++ {
		a := &acc[sets-j2]
		best = max(best, a[1]+int(hr[2*j2]), a[0]+int(hr[2*j2+1]))
	}
	return 3*sets + 1 - best
}

// ShantenChiitoi returns the shanten number of c for chiitoitsu: seven
// distinct pairs, where four of a kind counts as one pair only (Tenhou).
// It returns ShantenInvalid for counts outside 0..4.
func ShantenChiitoi(c *Counts) int {
	pairs, kinds := 0, 0
	for _, v := range c {
		if v < 0 || v > 4 {
			return ShantenInvalid
		}
		if v >= 1 {
			kinds++
		}
		if v >= 2 {
			pairs++
		}
	}
	return 6 - pairs + max(0, 7-kinds)
}

// yaochuu lists the 13 terminal and honour kinds used by kokushi musou.
var yaochuu = [13]wall.Kind{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}

// ShantenKokushi returns the shanten number of c for kokushi musou (one of
// each of the 13 terminals and honours plus a pair of one of them). It
// returns ShantenInvalid for counts outside 0..4.
func ShantenKokushi(c *Counts) int {
	kinds, pair := 0, 0
	for _, v := range c {
		if v < 0 || v > 4 {
			return ShantenInvalid
		}
	}
	for _, k := range yaochuu {
		if c[k] >= 1 {
			kinds++
		}
		if c[k] >= 2 {
			pair = 1
		}
	}
	return 13 - kinds - pair
}

// Complete reports whether c (14-3*melds tiles) with melds declared melds is
// a complete hand in any form (standard; chiitoitsu or kokushi when
// melds == 0). It does not check for yaku.
func Complete(c *Counts, melds int) bool {
	return Shanten(c, melds) == -1
}

// Waits returns, in kind order, the kinds that would complete the tenpai
// hand c (13-3*melds tiles) with melds declared melds, in any of the three
// forms. A kind of which c already holds all four copies is excluded: it
// cannot be drawn, and Tenhou does not count it as a wait (a hand waiting
// only on such a kind is noten). It returns nil when c has no wait.
func Waits(c *Counts, melds int) []wall.Kind {
	if melds < 0 || melds > 4 || c.Total() != 13-3*melds {
		return nil
	}
	tab := shantenTables()
	var rows [4]*[10]uint8
	if !suitRows(tab, c, &rows) {
		return nil
	}
	var out []wall.Kind
	cc := *c
	for k := wall.Kind(0); k < wall.NumKinds; k++ {
		if cc[k] >= 4 || !mayComplete(&cc, k, melds) {
			continue
		}
		cc[k]++
		// Only the suit of k changes: look up that row alone.
		suit := int(k) / 9
		saved := rows[suit]
		var ok bool
		if suit < 3 {
			rows[suit], ok = tab.suit.lookup(cc[suit*9 : suit*9+9])
		} else {
			rows[suit], ok = tab.honor.lookup(cc[27:34])
		}
		complete := ok && standardFromRows(&rows, melds) == -1
		if !complete && melds == 0 {
			complete = ShantenChiitoi(&cc) == -1 || ShantenKokushi(&cc) == -1
		}
		if complete {
			out = append(out, k)
		}
		rows[suit] = saved
		cc[k]--
	}
	return out
}

// mayComplete reports whether adding kind k can possibly complete c: k is
// held, or a kind within two ranks of k in its number suit is held, or k is
// a terminal/honour of a closed hand (kokushi).
func mayComplete(c *Counts, k wall.Kind, melds int) bool {
	if c[k] > 0 || (melds == 0 && isTerminalOrHonor(k)) {
		return true
	}
	if k.IsHonor() {
		return false
	}
	lo, hi := k-k%9, k-k%9+8
	for d := max(lo, k-2); d <= min(hi, k+2); d++ {
		if c[d] > 0 {
			return true
		}
	}
	return false
}

// PrepareTables builds the lookup tables of Shanten and Waits now instead
// of on their first use: about 270 ms of CPU, once per process (measured
// on the project's 2-core machine). A node calls it in the background
// while it connects, so that its first kyoku does not wait for them.
// Later calls return at once.
func PrepareTables() { shantenTables() }

// shantenTables returns the read-only lookup tables, built once on first use.
var shantenTables = sync.OnceValue(func() *shantenTableSet {
	return &shantenTableSet{suit: buildGroupTable(9, true), honor: buildGroupTable(7, false)}
})

// shantenTableSet holds the number-suit table (shared by m, p, s) and the
// honour table.
type shantenTableSet struct {
	suit, honor *groupTable
}

// groupTable maps every count vector of one suit (n kinds, counts 0..4,
// at most 14 tiles) to the most of its tiles that a pattern of j sets and h
// pairs (j = 0..4, h = 0..1) of that suit, holding at most four tiles of a
// kind, can use: entry[2*j+h]. The distance of the whole hand to a complete
// hand is then 3*sets+2 minus the best sum over the four suits
// (ShantenStandard).
type groupTable struct {
	n       int
	seq     bool
	off     [9][maxHandTiles + 1][6]int32
	entries [][10]uint8
}

// lookup returns the table row for the count vector c (len n), or false if
// c is out of range.
func (t *groupTable) lookup(c []int) (*[10]uint8, bool) {
	r, ok := t.rank(c)
	if !ok {
		return nil, false
	}
	return &t.entries[r], true
}

// rank returns the lexicographic index of c among all count vectors of
// length n with counts 0..4 and at most 14 tiles.
func (t *groupTable) rank(c []int) (int, bool) {
	rem, r := maxHandTiles, int32(0)
	for pos := 0; pos < t.n; pos++ {
		v := c[pos]
		if v < 0 || v > 4 || v > rem {
			return 0, false
		}
		r += t.off[pos][rem][v]
		rem -= v
	}
	return int(r), true
}

// buildGroupTable builds the table for n kinds, with sequences when seq.
func buildGroupTable(n int, seq bool) *groupTable {
	t := &groupTable{n: n, seq: seq}
	// ways[pos][rem]: number of vectors for positions pos..n-1 with sum <= rem.
	var ways [10][maxHandTiles + 1]int32
	for rem := 0; rem <= maxHandTiles; rem++ {
		ways[n][rem] = 1
	}
	for pos := n - 1; pos >= 0; pos-- {
		for rem := 0; rem <= maxHandTiles; rem++ {
			for v := 0; v <= 4 && v <= rem; v++ {
				ways[pos][rem] += ways[pos+1][rem-v]
			}
		}
	}
	for pos := 0; pos < n; pos++ {
		for rem := 0; rem <= maxHandTiles; rem++ {
			acc := int32(0)
			for v := 0; v <= 5; v++ {
				t.off[pos][rem][v] = acc
				if v <= 4 && v <= rem {
					acc += ways[pos+1][rem-v]
				}
			}
		}
	}
	t.entries = make([][10]uint8, ways[0][maxHandTiles])
	t.fillAll()
	return t
}

// suitDP is the dynamic-programming state of fillAll after some kinds of a
// suit: [s1][s2][j][h] is the most hand tiles used by a target with j sets
// and h pairs so far, s1 of its sequences started at the previous kind and
// s2 at the one before (both still to cover the current kind); -1 where
// no such target exists.
type suitDP [5][5][5][2]int8

// fillAll computes every row exactly, honouring the four-copy limit: a
// target pattern (j sets and h pairs of this suit) never needs more than
// four tiles of a kind, so for every kind k it holds T_k = 3·triplets +
// 2·pairs + sequences covering k ≤ 4 tiles and uses min(c_k, T_k) of the
// hand's. The kinds are scanned left to right carrying the open sequences;
// count vectors are enumerated depth first so that vectors sharing a prefix
// share its states.
func (t *groupTable) fillAll() {
	var dp [10]suitDP
	for i := range dp[0] {
		for j := range dp[0][i] {
			for x := range dp[0][i][j] {
				dp[0][i][j][x] = [2]int8{-1, -1}
			}
		}
	}
	dp[0][0][0][0][0] = 0
	c := make([]int, t.n)
	last := t.n - 1
	var fill func(pos, rem int)
	fill = func(pos, rem int) {
		if pos == last {
			for v := 0; v <= 4 && v <= rem; v++ {
				c[pos] = v
				r, _ := t.rank(c)
				lastStep(&dp[pos], &t.entries[r], v)
			}
			c[pos] = 0
			return
		}
		for v := 0; v <= 4 && v <= rem; v++ {
			c[pos] = v
			t.step(&dp[pos], &dp[pos+1], pos, v)
			fill(pos+1, rem-v)
		}
		c[pos] = 0
	}
	fill(0, maxHandTiles)
}

// lastStep finishes the state cur over the suit's last kind, holding v
// tiles, into a table row: no sequence starts there, and those started two
// kinds before end there.
func lastStep(cur *suitDP, row *[10]uint8, v int) {
	var best [5][2]int8
	for j := range best {
		best[j] = [2]int8{-1, -1}
	}
	for j := 0; j <= 4; j++ {
		for s2 := 0; s2 <= j; s2++ {
			for h := 0; h < 2; h++ {
				val := cur[0][s2][j][h]
				if val < 0 {
					continue
				}
				for tr := 0; tr <= 1 && j+tr <= 4 && s2+3*tr <= 4; tr++ {
					for p := 0; p+h <= 1 && s2+3*tr+2*p <= 4; p++ {
						nv := val + int8(min(v, s2+3*tr+2*p))
						best[j+tr][h+p] = max(best[j+tr][h+p], nv)
					}
				}
			}
		}
	}
	for j := 0; j <= 4; j++ {
		for h := 0; h < 2; h++ {
			row[2*j+h] = uint8(max(best[j][h], 0))
		}
	}
}

// step advances the state cur over kind pos holding v tiles into next.
// Only states with s1+s2 <= j can be reached (every open sequence is one
// of the j sets).
func (t *groupTable) step(cur, next *suitDP, pos, v int) {
	for s1 := 0; s1 <= 4; s1++ {
		for s2 := 0; s1+s2 <= 4; s2++ {
			for j := s1 + s2; j <= 4; j++ {
				next[s1][s2][j] = [2]int8{-1, -1}
			}
		}
	}
	maxSeq := 0
	if t.seq && pos+2 < t.n {
		maxSeq = 4
	}
	for j := 0; j <= 4; j++ {
		for s1 := 0; s1 <= j; s1++ {
			for s2 := 0; s1+s2 <= j; s2++ {
				carry := s1 + s2
				for h := 0; h < 2; h++ {
					val := cur[s1][s2][j][h]
					if val < 0 {
						continue
					}
					for tr := 0; tr <= 1 && j+tr <= 4 && carry+3*tr <= 4; tr++ {
						for p := 0; p+h <= 1 && carry+3*tr+2*p <= 4; p++ {
							base := carry + 3*tr + 2*p
							for s := 0; s <= maxSeq && j+tr+s <= 4 && base+s <= 4; s++ {
								nv := val + int8(min(v, base+s))
								d := &next[s][s1][j+tr+s][h+p]
								if nv > *d {
									*d = nv
								}
							}
						}
					}
				}
			}
		}
	}
}
