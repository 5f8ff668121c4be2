// Package mjlog reads and writes Tenhou's mjlog XML game records.
//
// An mjlog is one XML document, <mjloggm ver="2.3">, whose children are
// empty elements in play order (docs/wall-layout.md §1, §5, §7 describe the
// fields that matter for the wall):
//
//	<SHUFFLE seed= ref=>        the game's generator seed (absent in some logs)
//	<GO type= lobby=>           rule bits, see GoRule
//	<UN n0..n3 dan rate sx>     the four seats (names %-encoded UTF-8)
//	<TAIKYOKU oya=>             the first dealer
//	<INIT seed= ten= oya= hai0..hai3>  start of each kyoku (one per wall)
//	<T12/> <U..> <V..> <W..>    tsumo (draw) of seat 0..3, tile id 12
//	<D12/> <E..> <F..> <G..>    dahai (discard) of seat 0..3
//	<N who= m=>                 call (chi, pon, kans, kita), m = packed meld
//	<REACH who= step= [ten=]>   riichi declaration (step 1) and deposit (2)
//	<DORA hai=>                 a new kan-dora indicator
//	<AGARI ...> <RYUUKYOKU ...> end of a kyoku (owari= on the last one)
//	<BYE who=> <UN nX=>         disconnection and reconnection
//
// Parse turns a document into a Game: header fields, then one Round per
// <INIT> holding the typed Events that follow it. Tags the package does not
// know are kept as Unknown values (in Game.Unknown before the first <INIT>,
// as events afterwards; a <BYE> or reconnection before play goes to
// Game.Prelude); attributes it does not know on <GO>, <UN>, <INIT>,
// <AGARI> and <RYUUKYOKU> are kept in the Extra fields. Write emits the
// same format, so Parse(Write(g)) reproduces g.
//
// A Mental Mahjong private-hands record is one player's view of a game:
// a tile that player never saw is Hidden (-1), written as a tsumo tag
// without tile id (<U/>, as Tenhou's client protocol sends the other
// players' draws) and as "?" in an <INIT> hai list; every other tag
// (dahai, calls, wins, tenpai hands, dora indicators) shows only tiles the
// player saw. Parse refuses hidden tiles with an error naming private
// hands, so that every tool that replays, converts or verifies a game
// refuses such a record clearly; ParseView reads them, Game.HasHidden
// reports them, and Parse(Write(g)) is ParseView(Write(g)) for a view.
//
// Tiles are Tenhou ids 0..135 (wall.Tile, docs/wall-layout.md §7); seats are
// absolute 0..3 as in the log; scores are in units of 100 points as Tenhou
// writes them. Input is untrusted: every malformed tag, number or tile id
// yields an error naming the file and the tag, never a panic.
package mjlog
