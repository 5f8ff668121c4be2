// Package bot is a rule-based riichi mahjong player for the engine in
// package riichi/game: Bot.Choose picks one of Kyoku.LegalActions for a
// seat. It exists so that self-play and the mental protocol's test tables
// play hands that show the whole rule set (riichi, tsumo, ron, chi, pon,
// kans with rinshan and kan-dora, exhaustive and abortive draws), not to
// play well.
//
// # What the bot sees
//
// The bot reads the kyoku as its seat sees it: its own concealed tiles
// (Kyoku.Hand, which must be revealed to the engine: a player's private
// view, or an engine that knows every tile), its own melds, and the public
// table (every river, every meld, the turned dora indicators, round wind
// and dealer). It never reads another seat's concealed tiles, even when
// the engine knows them. "Unseen" tiles of a kind are 4 minus the copies
// the seat can see (own hand, all melds, rivers with called tiles counted
// once, dora indicators).
//
// # Shanten toward a yaku (plans)
//
// Hand progress is measured with package riichi's shanten. A closed hand
// (no melds but ankan) uses riichi.Shanten (standard, chiitoitsu, kokushi
// musou): riichi and menzen tsumo give it a yaku. An open hand needs a yaku
// from its shape, so its shanten is the least over the plans its melds
// allow: a declared yakuhai pon/kan (dragons, seat wind, round wind: no
// restriction), a yakuhai pair or concealed triplet to be completed
// (counted as a forced triplet), tanyao (every meld all simples;
// terminals and honours in hand count as useless) and honitsu (every meld
// in one suit or honours; the other suits count as useless). An open hand
// that fits no plan scores the standard shanten plus a large penalty.
//
// # Policy, in order of priority
//
//   - Win whenever legal: TsumoAgari, Ron (double ron and sanchahou
//     follow from every bot ronning).
//   - At an exhaustive draw that the engine could not settle alone
//     (PhaseDeclare: the seat's hand was revealed to it only after the
//     draw): Tenpai when legal, else Noten.
//   - Kyuushu kyuuhai when legal and the hand holds at least KyuushuKinds
//     (default 10) distinct terminal and honour kinds; otherwise play on
//     (toward kokushi musou when that is the least shanten).
//   - Kans (when Kans is set): in riichi every ankan the engine lists (it
//     lists only ankan that keep the waits); otherwise an ankan or kakan
//     whose hand after the kan has a plan shanten no higher than the best
//     discard now; on a discard, a daiminkan under the same rule.
//   - Riichi when a riichi discard is legal (closed tenpai, 1000 points,
//     4 live tiles): the riichi discard whose waits have the most unseen
//     tiles, then the most wait kinds, then the lowest tile value.
//   - Discard: the tile whose discard leaves the lowest plan shanten, then
//     the most ukeire (unseen tiles whose draw lowers that shanten), then
//     the lowest tile value: guest-wind honours, other honours, terminals,
//     twos and eights, other simples, each dora and red five worth +10.
//   - Calls (when Calls is set): chi or pon only when the plan shanten
//     after the call and the best discard the kuikae rule allows is lower
//     than now. A yakuhai pon keeps its yaku by itself; a chi or a pon of
//     other tiles only lowers the shanten of a tanyao or honitsu plan
//     (or completes a pending yakuhai plan), so the bot never calls into a
//     yakuless open hand. The lowest resulting shanten wins, pon before
//     chi, keeping red fives in hand on a tie.
//   - Otherwise pass.
//
// # Determinism
//
// Ties left after the keys above are broken by a math/rand/v2 PCG seeded
// with the bot's seed and an FNV-1a digest of the position (phase, draws,
// river and meld counts, tile on offer, own hand). Choose never changes
// the Bot or the Kyoku, so the action is a pure function of the seed, the
// knobs and the state.
//
// The bot assumes Tenhou's ari-ari rules (open tanyao): Kyoku does not
// expose its rules, so with kuitan off an open tanyao plan may leave the
// bot tenpai without a yaku (legal, it then plays on and may declare
// keishiki tenpai).
package bot
