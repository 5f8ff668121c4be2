// Package joinproc starts the "mentalmj join" processes of one table on
// 127.0.0.1: the process launcher that "mentalmj local" (package
// internal/localgame) and the cheating lab (package internal/lab) share.
//
// The model: a table of n players (4, or 3 in sanma) lives in one
// directory. New gives each player, before any starts, a fresh identity in
// its own data directory, a loopback port picked in advance and the
// transcript path, so that every player's --peer flags can name the others'
// multiaddrs (/ip4/127.0.0.1/tcp/PORT/p2p/ID). With a non-zero latency.Link
// every connection between two players runs through a delaying relay of
// package internal/latency (a Mesh in this process), and the --peer
// addresses name the relays instead.
//
// Table.Args wires player i into the table (its name, listen address, data
// directory, transcript, JSON progress on stdout, the other players as
// --peer); the caller appends what its game needs (hands, timeouts, bots,
// rules, cheats). Player.Start starts the binary with them, its stdout a
// pipe for the progress stream; Process.Wait returns join's exit status.
//
// The package never reads the progress stream nor judges the game: that
// is the caller's (localgame compares the nodes' reports, lab counts the
// honest nodes' verdicts).
package joinproc
