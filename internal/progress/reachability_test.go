package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/node"
)

// The three answers AutoNAT v2 can give are told apart in JSON
// ("reachable" true, false, null) and in the text line.
func TestReachabilityEvent(t *testing.T) {
	addr := multiaddr.StringCast("/ip4/203.0.113.7/tcp/4001")
	for _, c := range []struct {
		r         node.Reachability
		reachable any
		text      string
	}{
		{node.Reachability{Addr: addr, Reachability: network.ReachabilityPublic}, true, "you are reachable at /ip4/203.0.113.7/tcp/4001"},
		{node.Reachability{Addr: addr, Reachability: network.ReachabilityPrivate}, false, "you are not reachable at /ip4/203.0.113.7/tcp/4001"},
		{node.Reachability{Err: errors.New("no peers for autonat v2")}, nil, "AutoNAT: reachability unknown: no peers for autonat v2"},
	} {
		var text, js bytes.Buffer
		(&Reporter{W: &text}).Reachability(c.r)
		(&Reporter{W: &js, JSON: true}).Reachability(c.r)
		if !strings.HasPrefix(text.String(), c.text) {
			t.Errorf("text %q, want it to start %q", text.String(), c.text)
		}
		var e map[string]any
		if err := json.Unmarshal(js.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e["event"] != "reachability" || e["reachable"] != c.reachable {
			t.Errorf("JSON %s: want event reachability, reachable %v", js.String(), c.reachable)
		}
	}
}
