// Package replay feeds a Tenhou mjlog game (record/mjlog) through the rules
// engine (riichi/game) and checks the engine against the log, event by
// event.
//
// The model: a log is the truth of what was played, and the engine must
// reproduce it. For each kyoku the engine is dealt the log's <INIT> (the
// round, honba, riichi sticks, dealer and scores checked against what the
// previous kyoku's end makes of them), then takes every draw, discard,
// call, riichi and DORA tag as an action of the seat that made it, and at
// the kyoku's end scores the AGARI or RYUUKYOKU itself and compares yaku,
// han, fu, points, sc= and, after the last kyoku, the owari. Each
// comparison is counted by kind in Result.Checks (CheckInit, CheckDraw,
// …); each difference is a Mismatch naming the file, the kyoku, the tag,
// what the log holds and what the engine expected. A kyoku whose log the
// engine refuses is abandoned after the mismatch and the next starts
// again from its <INIT>.
//
// Game replays one game; Files replays files and directories of logs
// (`mentalmj tenhou replay`), listing those that cannot be read in
// Result.Errors; Walk replays one game and hands each step (the engine's
// kyoku after the deal and after every event) to a visitor, which is how
// the replay viewer (ui/viewer) draws a record. Games under special rules
// (GO type bits above 0xFF, special.go) are replayed under the switches
// that express their bits (riichi/rules), or skipped with the reason
// naming each bit no switch plays. A player's view of a game (a
// private-hands record, mjlog.ParseView) replays too: a tile that a
// discard, call or shown hand reveals takes the place of one of its
// holder's hidden tiles.
package replay
