// Package cheat holds cheating strategies for protocol research: each is a
// protocol.Misbehavior that a node runs only when asked explicitly
// (`mentalmj join --research-cheat NAME`, or `mentalmj lab`, which pits
// them against honest nodes). None is reachable from an honest node's
// configuration.
//
// Every strategy names the verdict the protocol must reach on it (Expect):
// a Blame, resting on entries the cheater signed, or — for what leaves no
// signed evidence, such as silence, a replayed copy or a forged signature —
// a Fault naming it. The lab's tests hold the protocol to those
// expectations and check that no honest player is ever blamed.
//
// A strategy cheats at its first opportunity in the game and plays
// honestly otherwise, so that what catches it is the check aimed at that
// cheat, not a later one.
package cheat
