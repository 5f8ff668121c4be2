// Package stats computes Tenhou-style statistics per player name over game
// records: Tenhou's mjlog XML (plain or gzip), the mjlog records that
// mentalmj writes (--mjlog, including one player's private-hands view),
// tenhou.net/6 JSON (read by record/tenhou6.Read) and mentalmj
// transcripts (audited offline, protocol.AuditTranscript), the last two
// turned into the same mjlog record first.
//
// # The model
//
// A record is read once by a lean scanner (scan.go) that looks only at the
// tags the figures need — <GO> (three or four players), the first <UN>
// (names), <INIT> (a kyoku dealt; the first one's dealer), <N> (the meld
// type of a call), <REACH step=1>, <AGARI> and <RYUUKYOKU> (results,
// tenpai hands, the final owari) — and skips every tsumo and dahai tag
// without reading it. It turns the record into a Game: per seat a Tally of
// counts, the final scores and the placements. A Set adds Games up per
// player name, four- and three-player games apart, and gives each player's
// Figures, the same for the whole set.
//
// # Definitions
//
// Each figure is over the kyoku the player played (Figures documents each
// one; the command's help and docs/tools.md say the same):
//
//   - games; kyoku: hands dealt (<INIT> tags);
//   - placements 1st–4th from the final scores (owari), ties to the seat
//     nearer the first dealer (Tenhou's order); average placement;
//   - bust rate: games ended below 0;
//   - win rate: kyoku won (each winner of a double ron counts); tsumo
//     share: the share of wins that were tsumo;
//   - deal-in rate: kyoku in which the player paid a ron (once for a
//     double ron);
//   - riichi rate: kyoku with a riichi declaration (<REACH step="1">);
//   - call rate: kyoku with a chi, pon, daiminkan or kakan (not ankan,
//     not kita);
//   - average points of a win: the second number of <AGARI ten=>; average
//     points lost in a deal-in: the same, over every ron paid;
//   - tenpai rate at exhaustive draws: over kyoku ended by an exhaustive
//     draw (nagashi mangan included), those with the player tenpai (its
//     hand shown in <RYUUKYOKU haiN=>).
//
// A record without a final result (no owari: a game cut short) counts for
// the kyoku figures but not for games, placements and bust rate. The same
// game read twice (the identical records of a local game's players, or
// their private views) counts once: records are told apart by a hash of
// their public content.
//
// Input is untrusted: a truncated file, another format or an XML document
// that is not an mjlog gives an error saying what the file looks like,
// never a panic.
package stats
