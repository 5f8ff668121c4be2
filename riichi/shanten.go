package riichi

import "github.com/mentalmj/mentalmj/wall"

// Shanten returns the shanten number of the concealed part c of a hand with
// melds declared melds (chi, pon or kan, 0..4): the minimum over the
// standard form, chiitoitsu and kokushi musou (the last two only when
// melds == 0). c holds 13-3*melds tiles (before tsumo; result 0 = tenpai) or
// 14-3*melds tiles (after tsumo; result -1 = complete hand). Other sizes are
// evaluated as if missing tiles were absent; the result is then a lower
// bound only.
func Shanten(c *Counts, melds int) int { return 8 }

// ShantenStandard returns the shanten number of c for the standard form:
// 4-melds sets plus one pair (see Shanten for the sizes of c).
func ShantenStandard(c *Counts, melds int) int { return 8 }

// ShantenChiitoi returns the shanten number of c for chiitoitsu (seven
// distinct pairs; four of a kind counts as one pair only, per Tenhou).
func ShantenChiitoi(c *Counts) int { return 6 }

// ShantenKokushi returns the shanten number of c for kokushi musou (one of
// each of the 13 terminals and honours plus a pair of one of them).
func ShantenKokushi(c *Counts) int { return 13 }

// Waits returns, in kind order, the kinds that would complete the tenpai
// hand c (13-3*melds tiles) with melds declared melds, in any of the three
// forms. A kind of which c already holds all four copies is excluded (it
// cannot be drawn). It returns nil when c is not tenpai.
func Waits(c *Counts, melds int) []wall.Kind { return nil }
