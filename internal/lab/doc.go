// Package lab pits cheating nodes against honest ones, for protocol
// research: it runs tables of four real `mentalmj join` processes on
// 127.0.0.1 (started by package internal/joinproc), where chosen players
// run a strategy of package player/cheat, and reads off, for each strategy,
// the step at which it was caught (at once, at the end of the hand, by
// comparing transcripts, or not at all), whom the honest nodes and the
// offline audit of all four transcripts blamed, and the faults raised. A
// control table of four honest nodes runs beside them.
//
// Only honest nodes' verdicts and the offline audit count: a cheater's own
// node says what it likes. A blame or a fault naming an honest player is
// counted as false; the protocol's promise is that there are none.
package lab
