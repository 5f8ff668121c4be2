package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
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

// A lost connection to a player whose last path went through a relay this
// node lost is put down to that relay; once the relay is held again, or
// the player was last reached directly, it is not.
func TestLostConnectionThroughALostRelay(t *testing.T) {
	relay := peer.ID("relay-peer-id-0123456789")
	bob, carol := peer.ID("bob-peer-id-0123456789"), peer.ID("carol-peer-id-0123456789")
	var out bytes.Buffer
	r := &Reporter{W: &out}
	r.Path(node.Path{Peer: bob, Transport: "TCP", Relay: relay})
	r.Path(node.Path{Peer: carol, Transport: "TCP", Relay: relay})
	r.Path(node.Path{Peer: carol, Direct: true, Transport: "QUIC", How: "hole punched"})
	r.Relay(relay, false, errors.New("connection reset"))
	r.Path(node.Path{Peer: bob}) // not connected
	out.Reset()
	r.Fault(protocol.Fault{Hand: 1, Peer: bob, Kind: protocol.FaultConnection, Reason: "connection lost, and it did not come back within 2m0s"}, verdict.Names{})
	want := "went through relay " + node.ShortID(relay) + ", which went away (connection reset)"
	if got := out.String(); !strings.Contains(got, want) || !strings.Contains(got, "not the player") {
		t.Errorf("bob's lost connection: %q, want %q and the player cleared", got, want)
	}
	out.Reset()
	r.Fault(protocol.Fault{Hand: 1, Peer: carol, Kind: protocol.FaultConnection, Reason: "connection lost"}, verdict.Names{})
	r.Fault(protocol.Fault{Hand: 1, Peer: bob, Kind: protocol.FaultQuit, Reason: "quit the game"}, verdict.Names{})
	if got := out.String(); strings.Contains(got, "relay") {
		t.Errorf("carol (direct) and bob's quit: %q, want no relay note", got)
	}
	r.Relay(relay, true, nil)
	out.Reset()
	r.Fault(protocol.Fault{Hand: 2, Peer: bob, Kind: protocol.FaultConnection, Reason: "connection lost"}, verdict.Names{})
	if got := out.String(); strings.Contains(got, "went away") {
		t.Errorf("bob after the relay was held again: %q, want no lost-relay note", got)
	}
}
