// Package riichi evaluates riichi mahjong hands under Tenhou's four-player
// rules (ari-ari: open tanyao and red fives): notation, shanten, waits,
// decompositions, yaku, fu, points and payments.
//
// The model:
//
//   - A hand is a slice of wall.Tile (Tenhou ids 0..135, kind = id/4; red
//     fives are ids 16, 52, 88). The notation "123m0p55s11z" is read by
//     ParseHand and written by FormatHand.
//   - Counts is the per-kind histogram of a concealed hand; shanten, waits
//     and decompositions work on Counts only (red fives matter only for aka
//     dora).
//   - Shanten is the minimum of the standard form (4 sets + pair, minus the
//     declared melds), chiitoitsu and kokushi musou, the last two closed only.
//   - Decompositions lists every way a complete concealed part splits into
//     sets and a pair (or the chiitoitsu / kokushi forms). Score evaluates
//     each decomposition, with each possible role of the winning tile,
//     against the yaku, fu and point rules and keeps the one Tenhou keeps:
//     the highest points, then the highest han, then the highest fu.
//   - Yaku ids, their han, the ordering of the yaku list, fu rounding and
//     the limit hands follow Tenhou's mjlog <AGARI> conventions (yaka=,
//     yakuman=, ten="fu,points,limit"); the package tests check every
//     <AGARI> of the shared four-player logs against Score.
//
// Tenhou specifics followed here: no kiriage mangan (4 han 30 fu = 7700 non
// dealer), a double-wind pair is worth 4 fu, open hands without other fu are
// rounded to 30 fu on ron, kazoe yakuman at 13 han, multiple yakuman add up
// (e.g. daisangen + tsuuiisou = double yakuman), while the single-pattern
// "double" yakuman (suuankou tanki, kokushi 13-wait, junsei chuuren,
// daisuushii) count as one yakuman — see Score for the checked details.
//
// The package depends only on package wall and holds no mutable package
// state; the shanten lookup table is built once, read-only, on first use.
package riichi
