package progress

import (
	"github.com/libp2p/go-libp2p/core/network"

	"github.com/mentalmj/mentalmj/node"
)

// Reachability prints what AutoNAT v2 told the node about a public address
// of its: "you are not reachable at /ip4/…/tcp/4001: connections you did
// not open are dropped, …". The JSON event "reachability" has "addr",
// "reachable" (true, false, or null when unknown), "server" (the AutoNAT
// server's peer ID, "" when the node cannot tell), "err" and "text".
func (r *Reporter) Reachability(re node.Reachability) {
	var reachable *bool // null: unknown
	line := "AutoNAT: %s"
	switch re.Reachability {
	case network.ReachabilityPublic, network.ReachabilityPrivate:
		is := re.Reachability == network.ReachabilityPublic
		reachable, line = &is, "you are %s"
	}
	addr, errText := "", ""
	if re.Addr != nil {
		addr = re.Addr.String()
	}
	if re.Err != nil {
		errText = re.Err.Error()
	}
	r.Event(Reachability{Addr: addr, Reachable: reachable, Server: re.Server.String(), Err: errText, Text: re.String()},
		line, re)
}
