// Package screen is one player's view of a mahjong table, as a user
// interface draws it: four seats with nickname, seat wind, dealer mark,
// score and riichi stick; rivers, melds, the dora indicators and the
// player's own hand; the legal actions as stable options; a feed of what
// happened; the end-of-hand summary with the audit verdict; and the final
// standings.
//
// The model is fed, on the game's goroutine, by protocol.Observer
// observations (the kyoku after every step the node applied), by
// Config.OnHand results and by Player.Act decisions; and, from the
// node's goroutine, by how the node reaches each player (SetLink: direct,
// relayed or not connected, in the words of the node's path events) and
// by the pauses that wait for a dropped player (PauseFor), which each
// opponent's seat shows. Each feeds a Snapshot
// — plain data, ready for JSON — and appends Events to the feed by
// comparing the new view with the last one. The browser table (package
// ui/web) and the terminal table (package ui/terminal) draw Snapshots; neither
// decides anything: the node still checks every action.
package screen
