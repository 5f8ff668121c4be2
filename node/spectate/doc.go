// Package spectate lets people watch a mental mahjong table live and
// verify it as they watch, over gossipsub (go-libp2p-pubsub; SPEC.md
// §25).
//
// # The model
//
// A table whose settings allow spectators (settings.Settings.Spectators,
// host --spectators N) has a topic, Topic(table, host):
// "/mentalmj/watch/3/<host peer ID>/<16 hex digits of SHA-256(table)>".
// Only the host publishes on it (Publisher): every public entry it
// records, its own and the other players', each exactly as its author
// signed it — seats and dice, passes with their proofs, dora indicators,
// discards, calls, riichi, wins, draws and, at the end of each hand, the
// key reveals — in the order of its transcript (protocol.Config.Publish),
// never a private key release to a drawer. So a spectator learns a hand's
// concealed tiles only when the hand's keys are revealed, as Tenhou's
// round delay but made by the protocol; with private hands, only what the
// rules reveal to the players. Each message (pb.Published) carries the
// entry and its index in the host's stream, so a spectator takes the
// entries in the host's order and sees one missing. The other players
// stay off the topic, and the host's small mesh (no flood publishing)
// sends each entry to about two spectators, who forward it to the rest:
// the players' bytes do not grow with the number of spectators.
//
// A spectator (Watch, `mentalmj watch LINK`) dials the host from the
// watch link (Link, "mmjw1…"), subscribes, and checks every message in
// the topic validator before gossipsub delivers or forwards it: the
// message's gossipsub author must be the host, its entry must carry a
// valid signature by one of the table's players (the host, and the peers
// the host's Hello lists), and no entry may have a recipient. Whatever fails is rejected
// and counts against the peer that sent it in gossipsub's peer score
// (gossipscore.Params); the watcher reports it, naming the peer. After each
// hand's key reveal the watcher audits the game so far
// (protocol.AuditTranscript: signatures, hash chains, every proof, the
// whole hand) and prints the hand's verdict; at the end it prints the
// game's, as `mentalmj audit` does.
//
// Spectators forward to each other (that is gossipsub): the host admits
// at most Spectators spectator connections (node.Node.AdmitSpectators),
// which can use gossipsub but no game stream, and the game never knows
// they are there.
//
// The topic keeps no history, so the host also answers a catch-up stream
// (CatchUpProtocol; Watch.CatchUp): a spectator that comes late gets
// every public entry published so far (the Hellos, the hands already
// over with their key reveals, the hand in play), checked as the
// validator checks a message, and audits every hand as one that came in
// time would. The host answers a peer once per CatchUpEvery, two at a
// time, at most CatchUpBytes each, from its own copies: the game never
// sees it; a longer game comes in several answers.
package spectate
