// Package progress writes what a node is doing while it plays, for a
// person at a terminal or for a program that launched it.
//
// The model: a node's progress is a stream of events, one a line, each
// either a text line for people or (join --progress json) one JSON object
// whose "event" key names it: "address", "transcript", "connecting",
// "connected", "seats", "hand", "blame", "fault", "paused", "resumed",
// "mjlog", "json", "standings", "done" and the meeting's events of an
// invite ("invite", "joining", "arrival", "seated", …). Times are in ms
// (Milliseconds), tiles are Tenhou ids 0..135 and named by the table's red
// fives, scores are by seat, and players are named as package protocol/verdict
// names them (nickname, wind, seat). The JSON is a contract: "mentalmj
// local" (package internal/localgame) reads it back, and so may any launcher.
//
// A blame or a fault is written once per Reporter however often the game
// reports it (at once and again at the end of the hand).
package progress
