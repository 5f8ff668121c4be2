// Package game is riichi mahjong under Tenhou's rules, four-player and
// three-player (sanma) (ari-ari: open tanyao, red fives; hanchan or
// tonpuusen) as a deterministic state machine: Kyoku plays one hand from the deal to its result, Match
// strings kyoku together into a game with its end rules and final
// standings. Hand evaluation (shanten, waits, yaku, fu, points) is package
// riichi's; this package decides what may happen when.
//
// # Kyoku
//
// A Kyoku is driven by three calls:
//
//   - Draw(t) makes the pending tsumo draw (PhaseDraw). The engine picks the
//     yama position from wall.Layout (live wall from yama[83] down, rinshan
//     1, 0, 3, 2 after a kan) and tracks the live wall: each rinshan draw
//     shortens it, and the kyoku ends in an exhaustive draw when the
//     discard after the last live tile passes.
//   - Apply(a) performs a player's Action: on the own turn (PhaseTurn)
//     Discard (optionally declaring riichi), Ankan, Kakan, TsumoAgari or
//     KyuushuKyuuhai; on a tile on offer (PhaseResponse) Pass, Ron, Chi, Pon
//     or Daiminkan; at an exhaustive draw with hidden hands (PhaseDeclare)
//     Tenpai or Noten. An illegal action returns an *IllegalError naming
//     the seat, its wind, the action and the reason, and leaves the state
//     unchanged.
//   - LegalActions(s) lists what seat s may do now.
//
// Answers to a tile on offer are collected until every awaited seat
// (Awaiting) has answered, then resolved with Tenhou's priority: ron
// (double ron paid, triple ron an abortive draw), then pon or daiminkan,
// then chi. Seats whose hands the engine sees completely and that have no
// option pass implicitly. The rules enforced follow Tenhou (tenhou.net/man):
//
//   - kuikae: after a chi or pon the called kind, and for a chi the kind at
//     the other end of the sequence, may not be discarded; a call after
//     which no tile could be discarded is refused;
//   - riichi: closed hand, tenpai after the discard, at least 4 tiles left
//     in the live wall, at least 1000 points; the 1000-point deposit is
//     taken when nobody rons the declaration discard; double riichi and
//     ippatsu (broken by any call, including ankan, and by the next own
//     discard; a chankan on the kakan still counts); after riichi only the
//     drawn tile may be discarded, and an ankan must use the drawn tile and
//     keep the waits;
//   - kans: at most four, none on the last tile; an ankan turns its
//     kan-dora indicator at once, a daiminkan or kakan when the kan player
//     discards or declares the next kan (never if he wins on the
//     replacement tile); chankan on a kakan, and on an ankan for kokushi
//     musou only;
//   - furiten: a ron is refused when a wait is in the own river (called
//     tiles included), was passed since the own last discard (temporary
//     furiten), or was passed since the riichi declaration; a kakan tile
//     not robbed counts as passed, another player's ankan does not (it is
//     no tile passed: the other waits may still be ronned);
//   - abortive draws (dealer keeps the deal, honba +1): kyuushu kyuuhai,
//     suufon renda, suucha riichi (after the fourth deposit), suukan sanra
//     (after the discard following a fourth kan by two or more players) and
//     sanchahou;
//   - exhaustive draw: nagashi mangan (paid as a mangan tsumo, replacing
//     the tenpai payments) or 3000 points from noten to tenpai players; a
//     hand whose only waits are kinds it holds all four of is not tenpai;
//   - wins: honba (300 per stick) and riichi sticks go to the winner
//     nearest the discarder; pao (sekinin barai) for daisangen and
//     daisuushii: the liable player pays a tsumo alone and half of a ron
//     by a third player.
//
// # Hidden information
//
// The engine also runs inside a Mental Mahjong node, where nobody sees the
// others' tiles until the protocol shows them. Every tile therefore lives
// at a yama position (0..135, wall.Layout) and a position's tile is either
// known or Unknown; a hand is a list of positions. Draw accepts Unknown;
// Reveal(pos, t) records a tile when the protocol discloses it (a discard,
// a call, a win, a dora indicator, the end-of-hand key disclosure).
// Actions that show tiles require them revealed first; a seat with hidden
// tiles is always awaited on a tile on offer (the engine cannot know it has
// no option). Checks that need tiles the engine cannot see are deferred:
// riichi on a tenpai hand, a riichi ankan that keeps the waits, a noten
// claim at the exhaustive draw. Recheck evaluates those whose tiles have
// since been revealed and returns the violations; PendingChecks counts the
// rest. After the end-of-hand disclosure every check is decidable. (A call
// by a hidden hand after which every tile would be kuikae-forbidden is not
// deferred: the caller then has no legal discard and stalls, in the open.)
// A win is paid from revealed tiles only: Ron and TsumoAgari need the
// winner's hand, the dora indicators and, for riichi, the ura-dora
// indicators (DoraPositions) revealed first.
//
// Determinism: the state is a pure function of the sequence of calls
// (NewKyoku, Draw, Reveal, Apply); nothing depends on time, maps or
// randomness. Nodes that apply the same public calls hold the same public
// state; a player's private view is a Clone with its own tiles revealed.
//
// # Sanma
//
// Rules.Players 3 (TenhouSanmaRules) plays Tenhou's three-player rules, as
// the 100 shared three-player logs show them: seats 0..2 in turn (seat 3
// stays empty: no haipai, score 0), the 108-tile wall without 2m-8m
// (wall.ThreePlayer: dora indicator yama[9], rinshan 1, 0, 3, 2, 5, 4, …),
// 1m and 9m indicating each other; no chi; Kita sets a north aside as
// nukidora (one dora, and one more per indicator pointing at north), puts
// it on offer for ron (a pass is furiten; a ron on it keeps the ronner's
// ippatsu), turns a pending minkan indicator, ends the first go-around and,
// once passed, every ippatsu, and is replaced by a rinshan draw; a tsumo is paid by the two others only (tsumo loss),
// 100 per honba from each payer (200 on a ron); the noten players pay 2000
// in all; riichi needs 3 tiles left; no suufon renda or suucha riichi;
// rounds East 1-3 and South 1-3 (indices 0-2, 4-6), 35000 start, 40000
// return, uma 20/0/-20. Seat relations in meld codes (riichi.Meld.From)
// stay modulo 4, as in Tenhou's logs. A Mental Mahjong node drives a
// three-seat Kyoku exactly as a four-seat one: NewKyoku (or Match.Start)
// with Deal.Haipai[3] empty, Draw / Reveal / Apply with seats 0..2, the
// new action Kita on the own turn, Players, Layout, HaipaiPositions and
// Nukidora to read the state.
//
// # House rules
//
// Rules also carries house-rule switches (package riichi/rules builds them from a
// preset and switches; rules.Set.Game): Kuikae, NoTobi/TobiBelow, Ron
// (head bump, double or triple ron), each abortive draw (NoKyuushu,
// NoSuufon, NoSuucha, NoSuukaikan, NoSanchahou), NoNagashi, RenchanAgari,
// NoAgariYame/NoTenpaiYame, NoPao, NoWest/WestTarget and RiichiNoDraw; the
// hand options in Rules.Hand (riichi.Rules: red-five count, kiriage, kazoe
// cap, double and single yakuman, honba value, ura, kan dora and kan ura,
// which DoraIndicators and DoraPositions follow). Every zero value is
// Tenhou's rule, so everything above describes the zero Rules.
//
// # Match
//
// Match follows Tenhou's game flow: dealer rotation and renchan, honba,
// riichi sticks carried over, bust below 0 points, the end at South 4 (East
// 4) with automatic agari-yame/tenpai-yame of a dealer in first place with
// at least 30000, the west (south) extension when nobody has 30000
// (ending as soon as someone has it, at the latest after its 4th hand),
// riichi sticks left at the end to the first place, and the final points
// (uma 20/10/-10/-20, oka 20, ties broken by seat order from the first
// dealer).
//
// Scores are in points (25000), not Tenhou's hundreds. Seats are absolute
// (0..3, seat 0 the first dealer), as in mjlog who=.
package game
