package tablerun

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/headless"
	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// The table of the path tests: alice (this node, seat 0), bob, carol and
// dave, and a relay.
var (
	pathSeats = []peer.ID{
		mustPeer("12D3KooWDJpPgLHqy49yjgs8ASDoVsPbGyngDdHZCXD6hYTY3z1P"),
		mustPeer("12D3KooWCgXP2BBMGBaeGLnmQnD9AS5cGcGF3eEf1e5AkC9YNNhp"),
		mustPeer("12D3KooWFKLgxXwLBPNSKJSAjUYy3JXLV39W3fMesSQX7FUgxQYZ"),
		mustPeer("12D3KooWLp7pq25Nk1ys8JcMF2SfMyopCML2nFzS7LrHSxc5Adfb"),
	}
	pathNicks = []string{"alice", "bob", "carol", "dave"}
	pathRelay = mustPeer("12D3KooWCt5Tn3q1xYowTeZ8znWW4CKRZhBMk5ohtJA7UfJGmc3P")
)

func mustPeer(s string) peer.ID {
	id, err := peer.Decode(s)
	if err != nil {
		panic(err)
	}
	return id
}

// TestLinkOf converts path events built by hand, one of each kind, into
// what the table shows; the texts are the examples in the
// progress line's form (docs/networking.md, "Playing from home").
func TestLinkOf(t *testing.T) {
	carol := pathSeats[2]
	for _, c := range []struct {
		path node.Path
		want screen.Link
	}{
		{node.Path{Peer: carol, Direct: true, Transport: "QUIC", How: "hole punched"},
			screen.Link{State: "direct", Transport: "QUIC", How: "hole punched", Text: "direct (QUIC, hole punched)"}},
		{node.Path{Peer: carol, Direct: true, Transport: "TCP", How: "LAN"},
			screen.Link{State: "direct", Transport: "TCP", How: "LAN", Text: "direct (TCP, LAN)"}},
		{node.Path{Peer: carol, Transport: "TCP", Relay: pathRelay, Why: "their NAT gives a new port for every destination, so hole punching cannot work", NATPeer: node.NATPortPerDestination},
			screen.Link{State: "relayed", Transport: "TCP", Relay: "12D3KooWCt5Tn3q1xYowTeZ8znWW4CKRZhBMk5ohtJA7UfJGmc3P",
				Why:  "their NAT gives a new port for every destination, so hole punching cannot work",
				Text: "relayed via 12D3Ko…mc3P: their NAT gives a new port for every destination, so hole punching cannot work"}},
		{node.Path{Peer: carol},
			screen.Link{State: "not connected", Text: "not connected"}},
	} {
		if got := linkOf(c.path); got != c.want {
			t.Errorf("linkOf(%+v)\n got %+v\nwant %+v", c.path, got, c.want)
		}
	}
}

// seatLink is what the page shows of one seat's link.
type seatLink struct {
	State string `json:"state"` // data-state; "" without a link
	Text  string `json:"text"`
	Title string `json:"title"`
}

const readLinks = `[0, 1, 2, 3].map((i) => {
  const l = document.querySelector("#seat-" + i + " .link");
  return l ? { state: l.dataset.state, text: l.textContent, title: l.title } : { state: "", text: "", title: "" };
})`

// TestPathsInBrowser drives the browser table of a player (alice, seat 0)
// through the path events of her node, as the node reports them to the
// progress output (progress.Reporter.Path, the events the terminal
// prints) and the pauses of the game, and reads each seat's line from the
// page in headless Chromium: carol relayed (reported before the table was
// shown), then direct, then paused with the grace left while not
// connected, then not connected after the pause; bob and dave, of whom
// nothing was reported, and alice's own seat show no line.
// MENTALMJ_SCREENSHOT=FILE saves the page with carol relayed.
func TestPathsInBrowser(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bctx := headless.New(t, ctx)
	front, err := newFrontend(true, true, "", nil, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	front.serve(ctx, true, io.Discard)
	out := &progress.Reporter{W: io.Discard}
	carol := pathSeats[2]
	out.Path(node.Path{Peer: carol, Transport: "TCP", Relay: pathRelay, Why: "hole punching"})
	defer showPaths(out, front.model)()
	front.Observe(protocol.Observation{Hand: 1, Stage: "shuffle", Seat: 0, Seats: pathSeats, Nicks: pathNicks})
	if err := chromedp.Do(bctx, chromedp.Navigate(front.srv.URL())); err != nil {
		t.Fatal(err)
	}

	// The page's seats by relative place: 0 alice (bottom), 1 bob
	// (right), 2 carol (top), 3 dave (left).
	await := func(step string, carolWant seatLink) {
		t.Helper()
		want := [4]seatLink{2: carolWant}
		var got [4]seatLink
		stepDone := time.After(15 * time.Second)
		for {
			got, err = chromedp.Run(bctx, chromedp.Evaluate[[4]seatLink](readLinks))
			if err != nil {
				t.Fatalf("%s: reading the page: %v", step, err)
			}
			if got == want {
				return
			}
			select {
			case <-stepDone:
				t.Fatalf("%s: the page shows\n %+v\nwant\n %+v", step, got, want)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	await("relayed", seatLink{State: "relayed", Text: "⇢ relayed via 12D3Ko…mc3P: hole punching",
		Title: "relayed via 12D3Ko…mc3P: hole punching\nrelay 12D3KooWCt5Tn3q1xYowTeZ8znWW4CKRZhBMk5ohtJA7UfJGmc3P"})
	if f := os.Getenv("MENTALMJ_SCREENSHOT"); f != "" {
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, png, 0o644); err != nil {
			t.Fatal(fmt.Errorf("MENTALMJ_SCREENSHOT: %w", err))
		}
	}

	out.Path(node.Path{Peer: carol, Direct: true, Transport: "QUIC", How: "hole punched"})
	await("direct", seatLink{State: "direct", Text: "⇄ direct (QUIC, hole punched)", Title: "direct (QUIC, hole punched)"})

	out.Path(node.Path{Peer: carol})
	front.Paused(protocol.Pause{Peer: carol, Nick: "carol", Left: 90 * time.Second})
	await("paused", seatLink{State: "paused", Text: "‖ waiting for carol to reconnect (1:30 left)",
		Title: "waiting for carol to reconnect (1:30 left)\nnot connected"})

	front.Paused(protocol.Pause{})
	await("not connected", seatLink{State: "not connected", Text: "✕ not connected", Title: "not connected"})
}
