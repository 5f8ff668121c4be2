// Package riichi evaluates riichi mahjong hands under Tenhou's four-player
// rules (ari-ari: open tanyao and red fives): notation, shanten, waits,
// decompositions, yaku, fu, points and payments. It depends only on package
// wall and holds no mutable package state.
//
// # Model
//
//   - Tiles are wall.Tile Tenhou ids (0..135, kind = id/4; red fives are
//     ids 16, 52, 88). ParseHand reads the standard notation
//     "123m0p55s11z" and FormatHand writes it.
//   - Counts is the per-kind histogram of a concealed hand. Shanten, Waits
//     and Decompositions work on Counts alone (red fives only matter for aka
//     dora). A hand with n declared melds has 13-3n concealed tiles before
//     tsumo and 14-3n after.
//   - Shanten is the exact exchange distance to a complete hand minus one,
//     the minimum of the standard form (4-n sets and a pair), chiitoitsu and
//     kokushi (closed hands only). The standard form uses a read-only
//     per-suit table built once on first use (sync.OnceValue): for every
//     count vector of one suit it stores the most tiles that j sets and h
//     pairs, needing at most four tiles of a kind, can use (a left-to-right
//     dynamic programme over the kinds, about 0.3 s once); the four suits are
//     combined by a small max-plus convolution. The four-copy limit applies
//     to the concealed part only. Waits adds each kind and tests completeness; a kind the
//     hand already holds four of is never a wait (Tenhou counts a hand
//     waiting only on it as noten).
//   - Decompositions lists every reading of a complete concealed part: the
//     standard sets-and-pair splits, chiitoitsu (seven distinct pairs; four
//     of a kind is not two pairs) and kokushi. Score combines each reading
//     with the declared melds and each role the winning tile can play
//     (tanki, shanpon, kanchan, penchan, ryanmen), evaluates yaku and fu,
//     and keeps the reading Tenhou keeps: most yakuman, then most points,
//     then most han, then most fu.
//
// # Tenhou conventions followed
//
// Yaku ids and the order of the yaku= list (situational yaku, menzen
// tsumo, pinfu, sequence yaku, triplet yaku, tanyao, yakuhai in set order,
// outside-hand yaku, flushes, then dora, aka dora, ura dora; ura dora is
// listed even at 0 han with riichi, dora and aka only when present); fu
// (pinfu tsumo 20, an open hand without fu 30, chiitoitsu 25, kokushi 0, a
// double-wind pair 4); no kiriage mangan (4 han 30 fu is 7700); kazoe
// yakuman from 13 han; different yakuman add up (daisangen + tsuuiisou is a
// double yakuman) while suuankou tanki, kokushi 13-wait, junsei chuuren and
// daisuushii count as one yakuman each under their own ids (Tenhou's
// published rule; the corpus has no such hand); no renhou; honba 300 per
// win, paid to the first winner only in a double ron (the caller passes
// Honba 0 for the second).
//
// The tests rebuild the WinContext of every <AGARI> in the real Tenhou
// four-player mjlogs (testdata/tenhou at the repository root) and require Score to
// reproduce Tenhou's yaku list (ids, han and order), yakuman, fu, points,
// limit and score changes exactly, and Waits to agree with Tenhou's
// tenpai/noten at every exhaustive draw.
package riichi
