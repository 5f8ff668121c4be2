// Package record writes kyoku played through the rules engine
// (riichi/game) as Tenhou mjlog events (package record/mjlog), so that a finished
// Mental Mahjong game, whose whole yama is known after each hand's audit,
// can be saved in the format existing Tenhou tools and riichi/replay read.
//
// # Model
//
// A Kyoku recorder watches one game.Kyoku. The driver calls NewKyoku on the
// freshly dealt kyoku and then mirrors every engine call that succeeded:
// Draw after Kyoku.Draw, Apply after Kyoku.Apply (passes and tenpai/noten
// declarations included; they write nothing themselves). The recorder
// writes the tag of the call itself (tsumo, dahai, riichi declaration) and
// compares the engine's state with what it has written so far to emit what
// the engine decided on its own: a call that won the answers to a discard
// (the chi, pon or daiminkan is applied when the last awaited seat has
// answered, not when the caller asked), an accepted riichi deposit, a
// kan-dora indicator turned, the end of the kyoku. Every tile must be known
// to the engine: the haipai, the draws, the turned dora indicators and, for
// a riichi win, the ura-dora indicators (the wall is public once the hand
// has been audited). A tile the engine does not know is a misuse reported
// by Err; the events recorded up to it are kept. A Mental Mahjong node,
// whose live engine sees only the public tiles, records a hand after its
// audit by playing the hand's transcript again on an engine to which the
// whole yama has been revealed. In private-hands mode the yama is never
// wholly revealed: NewKyokuView records one player's view, a haipai tile
// or tsumo unknown to the engine becoming mjlog.Hidden.
//
// Game wraps the rounds into a whole mjlog game with the header, the
// players and the final standings.
//
// # Tenhou conventions
//
// Learned from real Tenhou logs (testdata/tenhou at the repository root) and
// checked against them by the round-trip test:
//
//   - INIT seed="round,honba,kyotaku,die0,die1,dora indicator" with 0-based
//     dice, ten= in 100s, hai0..hai3 in deal order (wall.Layout.Haipai,
//     docs/wall-layout.md §4–5).
//   - A riichi declaration is <REACH step=1> just before its dahai; the
//     deposit <REACH step=2 ten=> (scores after the deposit, in 100s)
//     follows once nobody rons that dahai: right after it, or after the
//     answers, and before a call on it. A ronned declaration has no step 2.
//   - <DORA> follows an ankan's <N> at once (before the rinshan tsumo). The
//     indicator of a daiminkan or kakan comes just before the kan player's
//     next dahai, or just after his next kan's <N>; it never comes when he
//     wins on the rinshan tile (game.Kyoku.DoraPending).
//   - <N m=> is mjlog.EncodeMeld of the meld with its From relative to the
//     caller (chi always 3); a kakan keeps the From and called tile of its
//     pon. For an ankan Tenhou stores one of the four tile ids, by no
//     rule the game's state shows (not the drawn tile, not avoiding the
//     red five); the lowest id is written, as Tenhou does in all but 4 of
//     the 121 ankan of the shared four-player logs.
//   - <AGARI>: hai= the concealed hand with the winning tile, ascending;
//     m= the melds newest first (a kakan in its pon's place); machi= the
//     winning tile; ten="fu,points,limit" in points; yaku= pairs in the
//     order of riichi.WinResult, or yakuman= for yakuman hands; doraHai=
//     every turned indicator; doraHaiUra= only for a riichi winner;
//     paoWho= only when someone is liable; ba="honba,riichi sticks"
//     and sc="score,delta"×4 in 100s. A double ron is two AGARI, the
//     winner nearest the discarder first; the second has ba="honba,0" and
//     sc= starting from the scores after the first win.
//   - <RYUUKYOKU>: type= absent for the exhaustive draw, "nm" when nagashi
//     mangan is paid, else game.Abort.TenhouCode; ba="honba,riichi sticks
//     left"; sc= in 100s; hai0..hai3 ascending for the tenpai hands of an
//     exhaustive draw, the declarer's 14 tiles at yao9, the three ronning
//     hands (without the ron tile) at ron3, every hand at reach4.
//   - The last AGARI or RYUUKYOKU of the game carries
//     owari="score,points,…" (scores in 100s, points with one decimal).
//
// Tenhou's own reconnection tags (<BYE>, <UN n1=>) and the chip= and
// ratio= attributes of special lobbies describe things a mental game does
// not have and are never written.
package record
