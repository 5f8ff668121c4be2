// Package majsoul verifies Mahjong Soul (雀魂) per-round wall commitments
// (docs/wall-layout.md §10).
//
// At the start of each kyoku the client shows SHA-256(wall code ∥ salt)
// and SHA-256(salt); after the game the paipu reveals the wall code and
// the salt, so anyone can recompute both digests. The wall code names the
// yama in order, two characters per tile: "1m".."9m", "1p".."9p",
// "1s".."9s", "1z".."7z" (East, South, West, North, haku, hatsu, chun) and
// "0m", "0p", "0s" for the red fives; 136 tiles (272 characters) in
// four-player games, 108 (216 characters) in three-player games where
// 2m..8m are removed. The concatenation is plain string concatenation
// with no separator, hashed as its UTF-8 bytes. Which end of the wall code
// is dealt first is not documented and is not needed for verification.
package majsoul
