// Package tablerun plays one player's game at a mental mahjong table: the
// table runner behind "mentalmj join" and "mentalmj host".
//
// The model: the command line starts a node (package node) whose peers
// are known, and hands it to Play with the Table it checked. Play owns the
// rest of the player's game, in order:
//
//   - the records: a transcript on disk (protocol.Transcript) with, for a
//     new game, the game's secret seed saved for a crash resume (package
//     resume), or a transcript reopened to resume one;
//   - the connection to every peer, and who plays the seat: a person at
//     the terminal (package ui/terminal) or in the browser (package ui/web), the
//     built-in bot (package player/bot), or an external mjai bot (package player/mjaibot);
//   - the game itself (protocol.Game), its progress reported as each hand
//     is audited (package internal/progress), its verdicts (package protocol/verdict);
//   - at the end, the game records (Tenhou mjlog and tenhou.net/6 JSON),
//     the standings, and the node's peak RSS and CPU time.
//
// Before Play, a guest answers the host's game with Confirm: on the
// terminal and, with Table.UI, on the browser table, which Confirm starts
// early and Play then keeps (one page, one URL, for the whole game).
//
// Play returns join's exit code, so that the command line only parses
// flags and wires them: 0 all hands audited ok, 1 a cheat proven, 2 bad
// input, 3 the game stopped on a fault. A fault (silence, a lost peer, a
// damaged file) is never reported as a cheat.
package tablerun
