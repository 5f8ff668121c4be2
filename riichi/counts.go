package riichi

import "github.com/mentalmj/mentalmj/wall"

// Counts is the per-kind histogram of a set of tiles: Counts[k] is the
// number of tiles of wall.Kind k (0..33), 0..4 in a legal hand.
type Counts [wall.NumKinds]int

// CountsOf returns the histogram of tiles. Invalid ids (outside 0..135) are
// ignored.
func CountsOf(tiles []wall.Tile) Counts {
	var c Counts
	for _, t := range tiles {
		if t.Valid() {
			c[t.Kind()]++
		}
	}
	return c
}

// Total returns the number of tiles counted in c.
func (c *Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}
