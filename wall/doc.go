// Package wall models the Tenhou mahjong wall (yama): tile identities and the
// positions at which tiles are dealt, drawn and revealed.
//
// A wall is a yama of N tile ids (N = 136 for four players, 108 for three).
// Tile ids are Tenhou's: id/4 is the tile kind (0..8 = 1m..9m, 9..17 =
// 1p..9p, 18..26 = 1s..9s, 27..33 = East, South, West, North, haku, hatsu,
// chun) and ids 16, 52 and 88 are the red fives when red fives are played.
//
// The meaning of each yama index follows docs/wall-layout.md §5
// (verified against 17,944 real Tenhou rounds): the deal takes yama[N-1]
// downwards in blocks of four, live draws continue from yama[N-1-13P]
// downwards, the rinshan (replacement) tiles are yama[1], yama[0], yama[3],
// yama[2], the dora indicators yama[5], yama[7], … and the ura indicators
// yama[4], yama[6], …. The mental protocol's encrypted wall uses the same
// positions, so an audited hand yields a yama that reads exactly like a
// Tenhou wall and is checked by the same code.
package wall
