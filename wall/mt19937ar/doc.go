// Package mt19937ar is the Mersenne Twister MT19937 pseudorandom number
// generator exactly as published by Makoto Matsumoto and Takuji Nishimura in
// mt19937ar.c ("MT19937, with initialization improved 2002/1/26").
//
// It is part of Tenhou's wall specification (docs/wall-layout.md §1): Tenhou seeds
// one generator per game with init_by_array over the 624-word key carried in
// the log's <SHUFFLE seed=...> tag and draws 288 genrand_int32 outputs per
// kyoku. Only the integer generator is provided (init_genrand,
// init_by_array, genrand_int32); the real-valued variants of the C file are
// not needed.
//
// The state is 624 32-bit words (2496 bytes) plus an index; an MT value is
// self-contained and not safe for concurrent use. Outputs are checked against
// the published mt19937ar.out vector in testdata/.
//
// MT19937 is not a cryptographic generator: its state is recovered from 624
// consecutive outputs. Tenhou's design relies on the SHA-512 step that
// follows it (package wall/tenhou), not on the twister.
package mt19937ar
