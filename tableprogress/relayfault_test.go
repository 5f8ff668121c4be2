package tableprogress

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/verdict"
)

// TestRelayFaultNamesRelayAndNick checks the relay-fault line: the relay's
// short ID and the player's nickname (not its peer ID) in text, and in
// JSON the full IDs with player_fault false.
func TestRelayFaultNamesRelayAndNick(t *testing.T) {
	relay := peer.ID("relay-peer-id-0123456789")
	bob := peer.ID("bob-peer-id-0123456789")
	f := node.RelayFault{Kind: node.RelayDroppedCircuit, Relay: relay, Peer: bob}
	var out bytes.Buffer
	r := &Reporter{W: &out}
	r.Name(bob, "bob")
	r.RelayFault(f)
	if got, want := out.String(), "relay "+node.ShortID(relay)+" dropped the circuit to bob: "; !strings.HasPrefix(got, want) {
		t.Errorf("text line %q, want it to begin %q", got, want)
	}
	out.Reset()
	r.JSON = true
	r.RelayFault(f)
	var ev struct {
		Event, Kind, Relay, Peer, Text string
		PlayerFault                    *bool `json:"player_fault"`
	}
	if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Event != "relay-fault" || ev.Kind != string(node.RelayDroppedCircuit) || ev.Relay != relay.String() || ev.Peer != bob.String() ||
		ev.PlayerFault == nil || *ev.PlayerFault || !strings.Contains(ev.Text, "to bob") {
		t.Errorf("JSON event %+v from %s", ev, out.String())
	}
}

// A silence fault of a player whose circuits a relay dropped carries a
// note naming the relay; a silence fault of another player, and a fault
// of another kind, do not.
func TestSilenceNextToRelayTrouble(t *testing.T) {
	relay := peer.ID("relay-peer-id-0123456789")
	bob, carol := peer.ID("bob-peer-id-0123456789"), peer.ID("carol-peer-id-0123456789")
	var out bytes.Buffer
	r := &Reporter{W: &out}
	r.RelayFault(node.RelayFault{Kind: node.RelayDroppedCircuit, Relay: relay, Peer: bob})
	r.RelayFault(node.RelayFault{Kind: node.RelayDroppedCircuit, Relay: relay, Peer: bob})
	out.Reset()
	r.Fault(protocol.Fault{Hand: 1, Peer: bob, Kind: protocol.FaultSilence, Reason: "silent for 20s"}, verdict.Names{})
	if got := out.String(); !strings.Contains(got, "relay "+node.ShortID(relay)+", which dropped or refused 2 circuit(s)") {
		t.Errorf("bob's silence: %q, want the relay named", got)
	}
	out.Reset()
	r.Fault(protocol.Fault{Hand: 1, Peer: carol, Kind: protocol.FaultSilence, Reason: "silent for 20s"}, verdict.Names{})
	r.Fault(protocol.Fault{Hand: 2, Peer: bob, Kind: protocol.FaultQuit, Reason: "quit the game"}, verdict.Names{})
	if got := out.String(); strings.Contains(got, "relay") {
		t.Errorf("carol's silence and bob's quit: %q, want no relay note", got)
	}
}
