// Package node is the libp2p host of one mentalmj player: identity,
// listening, dialling the table by multiaddr, admitting only the table's
// peers, one stream per direction per peer, message framing and timeouts.
// It implements protocol.Transport and carries opaque byte messages; it
// knows nothing of their content.
//
// # Identity
//
// A player is its Ed25519 libp2p key, kept in dataDir/identity.key (the
// libp2p protobuf key encoding, mode 0600) and reused on restart
// (LoadOrCreateIdentity), so its peer ID, and with it its seat in other
// players' tables and the signatures in transcripts, stays the same.
//
// # Lifecycle
//
//	key, _ := node.LoadOrCreateIdentity(dir)
//	n, _ := node.New(ctx, node.Config{Identity: key, Listen: addrs, Peers: table})
//	fmt.Println(n.Addrs())      // tell the others: /ip4/…/tcp/4001/p2p/12D3Koo…
//	err := n.Connect(ctx)        // every peer dialled, one outbound stream each
//	… n.Send / n.Recv (protocol.Transport) …
//	n.Close()
//
// New listens on exactly the addresses given (TCP and QUIC v1; never
// libp2p's listen-on-every-interface default), with libp2p's default
// security (TLS 1.3 or Noise, which authenticate the peer ID) and yamux
// over TCP, and UPnP/NAT-PMP port mapping for routers that offer it.
// There is no mDNS: peers meet by multiaddr, directly or through a relay
// (below); on the public network (Config.Public) the DHT finds relays,
// and a peer whose given addresses went stale (FindPeer). When the peers' addresses are only known after every node has
// started (port 0, as in the tests), leave Config.Peers empty and call
// SetPeers once before Connect. The table is fixed once set.
//
// # Relays and hole punching
//
// A player behind NAT cannot be dialled at its listen addresses. It names
// one or more circuit relay v2 relays in Config.Relays (libp2p's
// p2p/protocol/circuitv2; a Relay, as "mentalmj relay" runs, or any
// libp2p relay): the node reserves a slot on each (client.Reserve, renewed
// half-way to the expiry the relay grants, remade at once if the
// connection to the relay drops, retried with backoff while it is down),
// and while it holds one, Addrs and RelayedAddrs include
// RELAYADDR/p2p/RELAY/p2p-circuit/p2p/SELF. WaitReservations waits for
// them. Another player who lists such an address in its table dials
// through the relay: the connection is end-to-end encrypted and
// authenticated like a direct one, and the gater checks the peer at the
// other end just the same. The gater admits the relays (those of
// Config.Relays and those named in the table's relayed addresses) so that
// reservations and circuits can be made, but a relay is not a player:
// ProtocolID streams are still accepted only from the table's peers.
//
// A relayed connection is limited by the relay (a Relay allows
// RelayCircuitDuration and RelayCircuitData per direction by default;
// public libp2p relays allow 2 minutes and 128 KiB, which would not last a
// hand). The table's stream is opened over it anyway (Connect allows
// limited connections) until a direct connection exists.
//
// # From relayed to direct: the connection manager
//
// Once the table is set, a connection manager (direct.go) watches every
// table peer's connections (every 500 ms and on each new connection) and
// keeps a Path per peer: direct (QUIC or TCP; hole punched, LAN or
// dialled) or relayed (via which relay, and why). For a peer reached only
// through a relay it makes attempts at a direct connection, backing off
// from 0.5 s to 15 s: a direct dial of the peer's direct addresses (a LAN,
// a forwarded port) and, on the side that accepted the relayed connection
// (DCUtR's initiator), libp2p's hole punch (p2p/protocol/holepunch,
// DirectConnect: a synchronised dial from both sides over QUIC and TCP to
// the addresses each side was observed at; both sides first open their
// own NAT towards the other's addresses with a low-TTL packet from the
// hole punch's sockets, natopen.go, so that a router that answers
// unsolicited packets never sees the other's first packet, and a QUIC
// address is offered wherever a port-keeping TCP one was observed). The
// side that dialled the relayed connection leaves the punch to its peer
// and dials none of the peer's addresses itself while neither NAT is known
// to change ports (waitForPeerPunch): libp2p's dial worker would join the
// punch's synchronised dial to that dial, and nothing of ours would go out
// at the punch's moment. The node's own public
// addresses are those the relay and other peers observed (identify);
// comparing them with the local ports tells what its NAT does (NAT), and
// each side asks the other (NATProtocolID) so that both can say why a pair
// cannot be punched: a NAT that gives a new port for every destination.
// With Config.MoveToDirect, when a direct connection appears the table's
// stream to that peer moves onto it: the outbound stream is ended as a
// dropped connection, the node redials at once (libp2p prefers the
// direct connection), the protocol's Syncs resend what was in flight
// (SPEC §18), and then the relayed connection is closed, so the relay
// carries nothing more of the game. Two relayed connections between one
// pair (both dialled at once) are cut to one, the one the lower peer ID
// dialled, so that DCUtR runs over a connection its initiator accepted.
// Once the wait for direct paths before hand 1 is over
// (LeaveLimitedRelays, relaymove.go), a pair left on a public relay's
// limited circuits moves onto a player's table relay or a relay that
// carries a game: once a circuit through it, dialled on the circuit
// transport outside the swarm, has reached the peer (libp2p's swarm dials
// no second connection to a peer it is connected to), the limited
// connection is closed and the pair redialled while the gater refuses its
// circuits through relays that cannot carry a game; a pair with nowhere
// to go keeps its connection, and one no such path takes within the
// attempt falls back to the public relay (a fault of that path, never a
// blame).
// NAT port mapping (UPnP, NAT-PMP) is on for routers that offer it
// (portmap.go): the node reads the mappings off libp2p's NAT manager,
// offers them first to DCUtR and its AutoNAT v2 probes, announces them
// among the host's addresses (identify), and dials at once a table
// peer's announced public IPv4 address while the pair is relayed.
// Whether others can dial the node at all, AutoNAT v2 says (autonat.go):
// the node asks a server (a relay) to dial each public IP it is observed
// at back, once per transport, and reports the answer
// (Config.OnReachability). The observed addresses stay the node's own and
// never change the host's addresses, so that a table becoming direct costs
// no identify push to every peer.
//
// # Relays at fault
//
// A relay is never trusted (relayfault.go). Relayed addresses are built
// from the relay address given (Config.Relays, the table), never from the
// relay's reservation or identify; every dial ends in a security handshake
// that authenticates the peer expected. The swarm's dial tracer sees every
// failed dial of one address, also those hidden by another address that
// answered, and a relay that refuses a circuit, cannot be reached for one,
// is not a relay, or answers with another key (so does a table peer's
// address) is reported (RelayFault, Config.OnRelayFault);
// so is a circuit to a table peer that closes without either side closing
// it. A relay at fault is suspect for two minutes: the dial ranker
// (libp2p's default, then) dials a peer's addresses through it 2 s after
// the peer's other addresses, so pairs reconnect over another relay or
// directly. Reservation failures say the relay's ID, address and why
// (refused with its status, unreachable, another peer at that address, not
// a relay) through Config.OnRelay and WaitReservations.
//
// With Config.Public the node also joins the public libp2p network
// (public.go): a Kademlia DHT client, AutoRelay reservations on relays
// found among the DHT's peers, and peer routing for stale addresses.
//
// # Who dials whom
//
// Every player dials every other player (Connect), and every player opens
// its own outbound stream to every other: between two players there are
// two unidirectional streams of ProtocolID, each written by one side only,
// usually over one connection (two if both dialled at once; either works).
// Connect retries with backoff (100 ms doubling to 2 s, each attempt
// bounded by Config.DialTimeout) while the others are still starting, until
// its ctx is done; its error names the peers it could not reach. Streams
// may run over a relayed (limited) connection.
//
// # Streams and framing
//
// A stream is long-lived: opening one per message would cost 0.5–0.9 ms.
// Each message is one frame, an unsigned varint length then that many bytes
// (go-msgio's varint framing), at most protocol.MaxMessageSize (64 KiB).
// Send writes the frame and returns without waiting for the peer; the
// peer's stream reader, one goroutine per inbound stream, queues frames in
// that peer's FIFO (256 messages, then flow control pushes back on the
// sender) and Recv(ctx, peer) pops them in order. There is no ordering
// across peers. A peer opens one stream towards us per game: a second
// inbound stream from it is reset, and a broken stream is not replaced.
//
// # Admission
//
// A connection gater admits connections only with the table's peers,
// checked once the security handshake has authenticated the remote key;
// before the table is set, it admits only the peers Config.Meet admits to
// an invite meeting (package node/invite: any peer on its host, the host on a
// guest). Those reach the meeting protocol the caller registers on Host,
// never ProtocolID; when SetPeers fixes the table the node closes its
// connections with everyone outside it. A stream from a peer outside the
// table (which the gater should already have stopped) is reset and logged.
// One exception, bounded in time: while the node's own AutoNAT v2 probe
// waits for its dial-back (at most 20 s), an unknown peer dialling in
// directly is admitted, at most four, and the node's resource manager
// lets it open the dial-back protocol only; its connection is closed
// when the probe ends.
//
// # Timeouts and failures
//
// Recv blocks until a message, ctx done (the protocol layer sets a deadline
// per expected message; the error names the silent peer) or the peer gone.
// Once the peer's stream closes or resets, or its connection drops, Recv
// returns the messages already queued and then an error wrapping
// protocol.ErrPeerGone that names the peer. A frame announcing more than
// MaxMessageSize bytes resets that stream and makes Recv report the peer
// and the size (ErrFrameTooLarge); no peer input can make the node panic.
// Send is bounded by ctx and Config.WriteTimeout, so a stalled peer cannot
// block it forever; a failed write resets the stream, and later Sends to
// that peer report protocol.ErrPeerGone. Close half-closes the outbound
// streams and waits briefly for each peer to confirm it read everything.
package node
