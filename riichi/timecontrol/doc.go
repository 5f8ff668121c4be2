// Package timecontrol is a table's time control: how long a player may
// think over each decision, and the clock that keeps it.
//
// # The model
//
// A time control BASE+BANK (Control) gives every decision — a dahai, a
// call or a pass on a tile on offer, a declaration at an exhaustive draw —
// BASE seconds, free. Whatever a decision takes beyond BASE comes out of
// a bank of BANK seconds for the hand (kyoku), whole again when the next
// hand begins (Clock.NewHand); when a decision has used its BASE and the
// bank is empty, the time is up and the node acts for the player
// (protocol.Config.Clock). "off" sets no limit, for teaching games.
//
// This is Tenhou's "5+10" (5 seconds a decision plus 10 seconds of
// thinking time, 考慮時間, in its hanchan lobbies; "3+5" in its east-only
// ones: saikyo-jansi.com, 2017-09-27, "東風の3+5秒、東南の5+10秒").
// Tenhou's own manual could not be read here; the refill per hand follows
// the second implementation that reproduces Tenhou's clock,
// @kobalab/majiang-server (lib/game.js, v1.4.4: the bank, 持ち時間, is set
// back to its full value in qipai, the deal of every hand; its author's
// "天鳳同様に設定したければ、5+10+10", blog.kobalab.net 2024-02-17, the
// third number being the time to dismiss a hand's result screen, which
// mentalmj does not have).
//
// A Clock runs one player's control. It starts when the decision's inputs
// have arrived at the player's own node (protocol calls Start just before
// it asks the Player), so the time the network takes is never charged to
// the player; the other players' waits for that decision allow the whole
// BASE+BANK plus a grace for the network (Control.Wait).
package timecontrol
