// Package progress writes what a node is doing while it plays, for a
// person at a terminal or for a program that launched it, and reads it
// back.
//
// The model: a node's progress is a stream of events, one a line, each
// either a text line for people or (join --progress json) one JSON object
// whose "event" key names it: "address", "transcript", "connecting",
// "connected", "seats", "hand", "blame", "fault", "paused", "resumed",
// "mjlog", "json", "standings", "done" and the meeting's events of an
// invite ("invite", "joining", "arrival", "seated", …). Each event is a Go
// type of this package (events.go: Hand, Done, …) with its keys as json
// tags; docs/progress.md lists them all. Writers pass one to
// Reporter.Event, and readers ("mentalmj local", package
// internal/localgame; the lab) get it back from Decode, so that writer and
// readers share one definition. Times are in ms (Milliseconds), tiles are
// Tenhou ids 0..135 and named by the table's red fives, scores are by
// seat, and players are named as package protocol/verdict names them
// (nickname, wind, seat).
//
// The JSON is a contract: keys are never renamed or dropped, and each
// object's keys are in sorted order, byte for byte as the stream was
// written before it had types (a map through encoding/json; Encode).
//
// A blame or a fault is written once per Reporter however often the game
// reports it (at once and again at the end of the hand).
package progress
