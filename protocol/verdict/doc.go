// Package verdict turns the protocol's audits into the report people and
// scripts read: who is proven to have cheated (blame, with the signed
// entries that prove it, located in the transcript files), what else went
// wrong (faults, which prove nothing about intent), each hand's result,
// and the exit status of `mentalmj audit`.
//
// Players are named the same way everywhere: nickname, seat wind in the
// hand concerned and seat number, then the peer ID
// ("alice (East, seat 0) 12D3KooW…").
//
// The exit status orders the verdicts by what a script most needs to
// know: 1 a player is proven to have cheated; 2 a file cannot be audited
// (not a transcript, cut short, damaged, or transcripts of different
// games); 3 no cheat is proven but the game did not complete as played
// (faults: a player left, fell silent, aborted, or disagreed on the
// table); 0 every hand verified.
package verdict
