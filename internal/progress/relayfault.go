package progress

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
)

// RelayFault prints what a relay did wrong (node.RelayFault), naming the
// relay and, by nickname once known, the player the circuit was for:
// "relay 12D3Ko…abcd dropped the circuit to bob: reconnecting over another
// path (another relay, or directly)". It is never a player's fault, and
// says so in JSON ("event":"relay-fault", with "player_fault": false).
func (r *Reporter) RelayFault(f node.RelayFault) {
	text := f.Message(r.Who(f.Peer))
	ev := RelayFault{Kind: string(f.Kind), Relay: f.Relay.String(),
		Peer: f.Peer.String(), Status: f.Status, PlayerFault: false, Text: text}
	if f.Addr != nil {
		ev.Addr = f.Addr.String()
	}
	if f.Actual != "" {
		ev.Actual = f.Actual.String()
	}
	r.Event(ev, "%s", text)
	if f.Kind == node.RelayDroppedCircuit || f.Kind == node.RelayRefusedCircuit {
		r.mu.Lock()
		if r.relayFaults == nil {
			r.relayFaults = map[peer.ID]relayTrouble{}
		}
		t := r.relayFaults[f.Peer]
		t.relay, t.count = f.Relay, t.count+1
		r.relayFaults[f.Peer] = t
		r.mu.Unlock()
	}
}

// relayTrouble is what relays did to the path to one player: the last
// relay at fault and how many circuits to the player relays dropped or
// refused during the game.
type relayTrouble struct {
	relay peer.ID
	count int
}

// relayNote returns, for a silence or a lost connection of player p, the
// relay trouble on the path to p ("" if none): such a fault may be the
// relay's, not the player's, and the screen says so next to it. A lost
// connection to a player last reached through a relay this node has lost
// (Relay) and not held again is put down to that relay, naming it.
func (r *Reporter) relayNote(kind protocol.FaultKind, p peer.ID) (string, peer.ID) {
	if kind != protocol.FaultSilence && kind != protocol.FaultConnection {
		return "", ""
	}
	r.mu.Lock()
	t, ok := r.relayFaults[p]
	via := r.viaRelay[p]
	why, lost := r.lostRelays[via]
	r.mu.Unlock()
	if kind == protocol.FaultConnection && via != "" && lost {
		return fmt.Sprintf("the only path to this player went through relay %s, which went away (%s) and left no other path: the relay is the cause as far as this node knows, not the player", node.ShortID(via), why), via
	}
	if !ok {
		return "", ""
	}
	return fmt.Sprintf("the path to this player went through relay %s, which dropped or refused %d circuit(s) to them: the relay may be the cause", node.ShortID(t.relay), t.count), t.relay
}
