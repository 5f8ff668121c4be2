// Package spectate lets people watch a mental mahjong table live and
// verify it as they watch, over gossipsub (go-libp2p-pubsub; SPEC.md
// §25).
//
// # The model
//
// A table whose settings allow spectators (settings.Settings.Spectators,
// host --spectators N) has a topic, Topic(table, host):
// "/mentalmj/watch/1/<host peer ID>/<16 hex digits of SHA-256(table)>".
// Every player publishes on it each public entry it signs — the entries
// it broadcasts to the other players, exactly as signed: seats and dice,
// passes with their proofs, dora indicators, discards, calls, riichi,
// wins, draws and, at the end of each hand, its key reveal — as it
// records them (protocol.Config.Publish), never a private key release to
// a drawer. So a spectator learns a hand's concealed tiles only when the
// hand's keys are revealed, as Tenhou's round delay but made by the
// protocol; with private hands, only what the rules reveal to the
// players. Each message (pb.Published) carries the entry, the author's
// running count of its public entries (index) and how many of every
// other player's public entries it had received (a vector clock), so a
// spectator takes the entries in an order one of the players saw them in.
//
// A spectator (Watch, `mentalmj watch LINK`) dials the host from the
// watch link (Link, "mmjw1…"), subscribes, and checks every message in
// the topic validator before gossipsub delivers or forwards it: the
// author must be one of the table's players (the host, and the peers the
// host's Hello lists), the entry must carry a valid signature by that
// author, and no entry may have a recipient. Whatever fails is rejected
// and counts against the peer that sent it in gossipsub's peer score
// (gossipscore.Params); the watcher reports it, naming the peer. After each
// hand's key reveal the watcher audits the game so far
// (protocol.AuditTranscript: signatures, hash chains, every proof, the
// whole hand) and prints the hand's verdict; at the end it prints the
// game's, as `mentalmj audit` does.
//
// Spectators forward to each other (that is gossipsub): a player admits
// at most Spectators spectator connections (node.Node.AdmitSpectators),
// which can use gossipsub but no game stream, and the game never knows
// they are there. A spectator must subscribe before the game starts: the
// topic keeps no history, and one that missed the Hellos cannot audit.
package spectate
