package tableprogress

import (
	"github.com/mentalmj/mentalmj/node"
)

// RelayFault prints what a relay did wrong (node.RelayFault), naming the
// relay and, by nickname once known, the player the circuit was for:
// "relay 12D3Ko…abcd dropped the circuit to bob: reconnecting over another
// path (another relay, or directly)". It is never a player's fault, and
// says so in JSON ("event":"relay-fault", with "player_fault": false).
func (r *Reporter) RelayFault(f node.RelayFault) {
	text := f.Message(r.Who(f.Peer))
	obj := map[string]any{"event": "relay-fault", "kind": string(f.Kind), "relay": f.Relay.String(),
		"peer": f.Peer.String(), "status": f.Status, "player_fault": false, "text": text}
	if f.Addr != nil {
		obj["addr"] = f.Addr.String()
	}
	if f.Actual != "" {
		obj["actual"] = f.Actual.String()
	}
	r.Event(obj, "%s", text)
}
