// Package memnet is an in-memory network for tests of the mental mahjong
// protocol, as net/http/httptest is for HTTP: players in one process reach
// each other through Network.Transport, with no sockets, optionally with
// the delay and jitter of a real link (package internal/latency), and a
// test can cut a player's connections and restore them (Cut, Restore) or
// crash its node (Disconnect).
//
// The model: each ordered pair of players has an unbounded FIFO queue;
// Send appends to it and never waits, Recv takes from it in order, as the
// node's libp2p streams do (transport.Transport's contract).
//
// memnet does not import package protocol: it implements the interfaces of
// package protocol/transport, which protocol re-exports (protocol.Transport
// is transport.Transport). So protocol's own tests, inside package
// protocol, can use it without an import cycle, and so can the tests of
// every package built on protocol (the browser and terminal tables, the
// verdicts, the mjai bot). It is for tests, simulations and benchmarks
// only: nothing in a node uses it.
package memnet
