package tenhou

import (
	"crypto/sha512"
	"encoding/binary"

	"github.com/mentalmj/mentalmj/wall"
	"github.com/mentalmj/mentalmj/wall/mt19937ar"
)

const (
	// SourceWords is the number of genrand_int32 outputs consumed per kyoku
	// (the "n288" of the seed prefix, docs/wall-layout.md §2).
	SourceWords = 288
	// RndWords is the number of shuffle words per kyoku: nine SHA-512
	// digests of 64 bytes read as little-endian uint32.
	RndWords = 144
	// digestInput is the number of source bytes hashed per digest.
	digestInput = 128
	// Dice slots in rnd (docs/wall-layout.md §4).
	diceSlot0 = 135
	diceSlot1 = 136
)

// Wall is one kyoku's wall as produced by Tenhou's generator. A Wall holds
// no references, so it may be copied by value.
type Wall struct {
	// Kyoku is the 0-based index of this wall in the game (one per <INIT>,
	// in log order, including honba repeats).
	Kyoku int
	// Layout is the yama layout the wall was shuffled for.
	Layout wall.Layout
	// Rnd is rnd[0..143]: the nine SHA-512 digests of the kyoku's 288
	// genrand outputs read as little-endian uint32 (docs/wall-layout.md §2).
	// Only the digests the shuffle and dice read are computed: for three
	// players (rnd[0..106], rnd[135], rnd[136]) the eighth digest,
	// rnd[112..127], is skipped and left 0.
	Rnd [RndWords]uint32
	// Dice are the two dice, 0-based (faces are Dice[i]+1): rnd[135]%6 and
	// rnd[136]%6 (docs/wall-layout.md §4). They do not influence the deal.
	Dice [2]int
	// Tiles holds the yama in its first Layout.Size entries: Tiles[i] is
	// the Tenhou tile id at yama index i. Use Yama for the slice.
	Tiles [wall.NumTiles]wall.Tile
}

// Yama returns the wall's Layout.Size tile ids (136 or 108) indexed by yama
// position (docs/wall-layout.md §5 gives each position's meaning). The slice
// aliases w.
func (w *Wall) Yama() []wall.Tile { return w.Tiles[:w.Layout.Size] }

// Generator reproduces the walls of one Tenhou game from its seed: one
// mt19937ar generator seeded once with init_by_array(key), then per kyoku
// 288 outputs → 9 SHA-512 digests → 144 rnd words → swap shuffle
// (docs/wall-layout.md §1–4). A Generator is not safe for concurrent use.
type Generator struct {
	mt     mt19937ar.MT
	layout wall.Layout
	kyoku  int
	// used[c] tells whether digest c holds a rnd word the shuffle or the
	// dice read.
	used [SourceWords * 4 / digestInput]bool
	set  [wall.NumTiles]wall.Tile
	src  [SourceWords]uint32
	buf  [SourceWords * 4]byte
}

// NewGenerator returns a generator for a game with the given seed and number
// of players (3 or 4). It returns an error for another player count.
func NewGenerator(seed Seed, players int) (*Generator, error) {
	l, err := seed.Layout(players)
	if err != nil {
		return nil, err
	}
	g := &Generator{layout: l}
	copy(g.set[:], l.Set())
	const perDigest = sha512.Size / 4
	for i := 0; i < l.Size-1; i++ {
		g.used[i/perDigest] = true
	}
	g.used[diceSlot0/perDigest] = true
	g.used[diceSlot1/perDigest] = true
	g.mt.InitByArray(seed.Key)
	return g, nil
}

// Layout returns the yama layout of the generator's walls.
func (g *Generator) Layout() wall.Layout { return g.layout }

// Next generates the next kyoku's wall into w, overwriting it. It does not
// allocate.
func (g *Generator) Next(w *Wall) {
	g.mt.Fill(g.src[:])
	for i, v := range g.src {
		binary.LittleEndian.PutUint32(g.buf[4*i:], v)
	}
	for c := range SourceWords * 4 / digestInput {
		if !g.used[c] {
			clear(w.Rnd[c*sha512.Size/4 : (c+1)*sha512.Size/4])
			continue
		}
		d := sha512.Sum512(g.buf[digestInput*c : digestInput*(c+1)])
		for k := range sha512.Size / 4 {
			w.Rnd[c*sha512.Size/4+k] = binary.LittleEndian.Uint32(d[4*k:])
		}
	}
	n := g.layout.Size
	w.Kyoku = g.kyoku
	w.Layout = g.layout
	yama := w.Tiles[:n]
	copy(yama, g.set[:n])
	for i := 0; i < n-1; i++ {
		j := i + int(w.Rnd[i]%uint32(n-i))
		yama[i], yama[j] = yama[j], yama[i]
	}
	clear(w.Tiles[n:])
	w.Dice = [2]int{int(w.Rnd[diceSlot0] % 6), int(w.Rnd[diceSlot1] % 6)}
	g.kyoku++
}
