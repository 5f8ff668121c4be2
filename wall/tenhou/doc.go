// Package tenhou reproduces Tenhou's (tenhou.net) walls from the seed in a
// game log and verifies whole logs against them.
//
// The model follows docs/wall-layout.md, verified on
// real logs:
//
//   - Seed (§1). <SHUFFLE seed="mt19937ar-sha512-n288-base64,B64"> decodes
//     to 2496 bytes = 624 little-endian words, the key of mt19937ar's
//     init_by_array (package wall/mt19937ar). 2009 logs carry
//     "mt19937ar-sha512-n288,HEX,…" with 32 hex words instead. ParseSeed
//     reads both, and a bare base64 seed.
//   - Per kyoku (§2–4). A Generator is seeded once per game and never
//     re-seeded; every <INIT> consumes one wall in log order. Each wall
//     takes 288 genrand_int32 outputs, hashes the 1152 little-endian bytes
//     as nine 128-byte SHA-512 inputs, reads the 576 digest bytes as rnd[0..143]
//     (little-endian) and shuffles the ids 0..135 (four players) or
//     0..3, 32..135 (three players) with swap(yama[i], yama[i + rnd[i] %
//     (N-i)]). The dice are rnd[135]%6 and rnd[136]%6, 0-based.
//   - Positions (§5–6). The meaning of each yama index (haipai, live draws,
//     rinshan, dora and ura indicators) is package wall's Layout; hex seeds
//     use the reversed 2009 dead wall (wall.Layout.Legacy2009).
//
// Verify checks a parsed log (package record/mjlog) round by round against the
// regenerated walls: the INIT dice and dora indicator, the four haipai in
// deal order, every draw including rinshan draws, every DORA tag, the AGARI
// dora and ura indicators and the tile count at each exhaustive draw.
//
// SeatHash computes the SHA-512 that Tenhou publishes before a game on
// tenhou.net/stat/rand (§9): a four-digit seat string followed by the seed
// as lowercase hex. That construction is a hypothesis: no published (seed,
// seat order, hash) triple has confirmed it yet, so a mismatch with a
// published hash does not show that Tenhou cheated.
package tenhou
