// Package protocol is the Mental Mahjong protocol: the wire messages, the
// per-hand state machine, the transcript, and the end-of-hand audit with
// blame. It never touches the network; it talks to a Transport, which the
// node implements over libp2p and tests implement in memory.
package protocol
