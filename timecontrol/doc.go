// Package timecontrol is a table's time control: how long a player may
// think over each decision, and the clock that keeps it.
//
// # The model
//
// A time control BASE+BANK (Control) gives every decision — a dahai, a
// call or a pass on a tile on offer, a declaration at an exhaustive draw —
// BASE seconds, free. Whatever a decision takes beyond BASE comes out of
// a bank of BANK seconds that lasts the whole match and is never
// refilled; when a decision has used its BASE and the bank is empty, the
// time is up and the node acts for the player (protocol.Config.Clock).
// This is Tenhou's "5+10" (5 seconds a decision plus 10 seconds of
// thinking time, 考慮時間, in its ranked lobbies; see README "Choosing the
// game" for the source and what could not be checked). "off" sets no
// limit, for teaching games.
//
// A Clock runs one player's control. It starts when the decision's inputs
// have arrived at the player's own node (protocol calls Start just before
// it asks the Player), so the time the network takes is never charged to
// the player; the other players' waits for that decision allow the whole
// BASE+BANK plus a grace for the network (Control.Wait).
package timecontrol
