// Package league turns result certificates (.cert files, SPEC.md §23)
// into standings: a group of players who play each other over weeks gets
// games and placements, total points with uma, Tenhou's rating R and
// Tenhou's dan points, computed from the certificates alone.
//
// # The model
//
// A certificate is a game's Result signed by every player of the table
// (protocol.CheckCertificate verifies it). Load reads the certificates of
// directories and files, refuses any that is forged (a signature that
// does not verify), partial (a signature missing) or malformed, and any
// two that conflict (one game id, two different results), naming the
// files; copies of one result (every player keeps its own) count once.
// Compute then replays the games in the order they ended (the median of
// the signers' clocks) and keeps, for four-player and three-player
// games apart as Tenhou does, each player's figures, keyed by peer ID
// (a nickname can change; a key cannot).
//
// # What the figures mean
//
// The signatures prove that the holders of these keys played these games
// and agreed on their results. They do not prove that four keys are four
// people: one person may hold several keys. A league means what its group
// of players means.
//
// # Sources
//
// Tenhou's rating R and dan points follow Tenhou's manual
// (tenhou.net/man, "段位戦" and "レーティング"), as docs/league.md gives
// them with their tables.
package league
