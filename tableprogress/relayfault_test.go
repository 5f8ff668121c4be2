package tableprogress

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
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
