// Package natlab builds a small Internet of home routers inside one Linux
// machine, out of network namespaces, veth pairs and iptables, and runs
// real mentalmj processes in it, so that tests can show what players at
// home see: whether two homes get a direct connection (hole punching), what
// a relay carries, and what happens when it goes away.
//
// # The model
//
// One namespace, "inet", stands for the Internet: a bridge joining every
// router's WAN side and every public host, and a router (198.51.100.1,
// 2001:db8:ff::1) through which every packet between two of them passes,
// one hop that decrements the TTL. Public addresses are taken from
// TEST-NET-2 (198.51.100.0/24, RFC 5737), which no real network routes;
// the binary under test is built with the natlab build tag (see package
// node), which makes libp2p treat TEST-NET-2 and TEST-NET-3 as public, as
// the real Internet would be. A public host (Lab.AddPublic) sits directly
// on the bridge, e.g. a `mentalmj relay`.
//
// A home (Lab.AddHome) is a router namespace with a WAN address on the
// bridge and a LAN 10.0.N.0/24 behind it, holding one namespace per player
// (two players share one LAN). The router does what a Linux home router
// does:
//
//   - source NAT: iptables MASQUERADE of the LAN's packets on the WAN
//     side (the router's own leave untranslated), which keeps a
//     socket's source port where it can (one external port per internal
//     socket: "endpoint-independent mapping", which hole punching needs);
//     for the hard case (Home.Random), MASQUERADE --random, which gives
//     every new destination a new external port (a "symmetric" NAT);
//   - stateful filtering: from the WAN it forwards only packets of
//     connections the LAN opened (conntrack ESTABLISHED,RELATED) and
//     drops everything else.
//
// Homes differ as the routers people have do (Home): what the router does
// with an unsolicited packet to its WAN address (Answer: drop, reject as
// OpenWrt does, or none, so that its own kernel answers), dual-stack IPv6
// (a routed 2001:db8:N::/64 behind a stateful ip6tables firewall that
// forwards only replies), random loss on the home link (iptables'
// statistic match: this kernel has no netem), UPnP IGD and NAT-PMP
// (Debian's miniupnpd on the router, mapping a WAN port to the player
// that asks; the Internet namespace answers STUN on PublicNet .1:3478,
// from which miniupnpd learns that its WAN address, in a documentation
// range it would otherwise refuse, can be mapped: stun.go), and a
// carrier-grade NAT
// (AddCGN, 100.64.0.0/10) in front of several homes. Renumber gives a
// home a new WAN address mid-game, its NAT state lost. Router returns a
// home router's namespace for tcpdump and conntrack.
//
// Nothing leaves the machine: the namespaces have no link to the host's
// own network, and every address lies in a private or documentation
// range.
//
// # Requirements
//
// Building a lab needs root (CAP_NET_ADMIN), `ip` (iproute2) and
// `iptables` (and ip6tables); Home.UPnP needs miniupnpd and nft, and
// Renumber flushes conntrack state with `conntrack` when it is installed; Available says why a lab cannot be built, and tests skip
// with that reason. Every namespace a Lab creates carries its prefix and
// is deleted by Close, which a test runs even after a failure; every
// process it starts is bound to a context and killed on Close.
package natlab
