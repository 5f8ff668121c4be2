package node

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	basichost "github.com/libp2p/go-libp2p/p2p/host/basic"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/protocol"
)

// payload is the message seq from sender from to receiver to: its length
// (0..4999 bytes) and bytes derive from SHA-256 of the triple, so the
// receiver recomputes it independently of the transport.
func payload(from, to, seq int) []byte {
	seed := sha256.Sum256(fmt.Appendf(nil, "%d>%d#%d", from, to, seq))
	size := int(binary.BigEndian.Uint16(seed[:2])) % 5000
	out := make([]byte, 0, size)
	for len(out) < size {
		seed = sha256.Sum256(seed[:])
		out = append(out, seed[:]...)
	}
	return out[:size]
}

func TestFourNodesExchangeInOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, listen string }{{"tcp", tcpLoopback}, {"quic", quicLoopback}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t, 30*time.Second)
			nodes := startNodes(t, 4, tc.listen, Config{})
			seat(t, ctx, nodes)
			exchangeInOrder(t, ctx, nodes, 200)
		})
	}
}

// exchangeInOrder has every node of a seated table send perPair messages
// (payload) to every other, all pairs at once, and checks that each
// receiver gets exactly the messages its sender sent, in order.
func exchangeInOrder(t *testing.T, ctx context.Context, nodes []*Node, perPair int) {
	t.Helper()
	for _, n := range nodes {
		if len(n.Peers()) != len(nodes)-1 {
			t.Fatalf("node %s has %d peers, want %d", n.ID(), len(n.Peers()), len(nodes)-1)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(nodes)*len(nodes)*2)
	for i, a := range nodes {
		for j, b := range nodes {
			if i == j {
				continue
			}
			wg.Go(func() {
				for seq := range perPair {
					if err := a.Send(ctx, b.ID(), payload(i, j, seq)); err != nil {
						errs <- fmt.Errorf("%d→%d #%d: %w", i, j, seq, err)
						return
					}
				}
			})
			wg.Go(func() {
				for seq := range perPair {
					got, err := b.Recv(ctx, a.ID())
					if err != nil {
						errs <- fmt.Errorf("%d←%d #%d: %w", j, i, seq, err)
						return
					}
					if want := payload(i, j, seq); !bytes.Equal(got, want) {
						errs <- fmt.Errorf("%d←%d #%d: got %d bytes, not message #%d (%d bytes)", j, i, seq, len(got), seq, len(want))
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestOutsiderCannotDeliver(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 20*time.Second)
	table := startNodes(t, 2, tcpLoopback, Config{})
	a, b := table[0], table[1]
	seat(t, ctx, table)
	outsider := startNodes(t, 1, tcpLoopback, Config{})[0]
	if err := outsider.SetPeers(tableOf(t, table, nil)); err != nil {
		t.Fatal(err)
	}

	short, cancel := context.WithTimeout(ctx, 800*time.Millisecond)
	err := outsider.Connect(short)
	cancel()
	if err == nil {
		t.Fatal("outsider connected to a table that does not list it")
	}
	for _, n := range table {
		if !strings.Contains(err.Error(), n.ID().String()) {
			t.Errorf("Connect error does not name unreachable peer %s: %v", n.ID(), err)
		}
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Connect error %v does not wrap the deadline", err)
	}
	short, cancel = context.WithTimeout(ctx, time.Second)
	err = outsider.Send(short, a.ID(), []byte("let me in"))
	cancel()
	if err == nil {
		t.Fatal("outsider's Send succeeded")
	}
	// A raw stream fails too: the gater closes the connection.
	short, cancel = context.WithTimeout(ctx, time.Second)
	if s, err := outsider.host.NewStream(short, a.ID(), ProtocolID); err == nil {
		_, werr := s.Write([]byte{5, 'h', 'e', 'l', 'l', 'o'})
		_ = s.Close()
		t.Logf("raw stream opened (write err %v)", werr)
	}
	cancel()
	if conns := a.host.Network().ConnsToPeer(outsider.ID()); len(conns) != 0 {
		t.Errorf("table node keeps %d connections from the outsider", len(conns))
	}
	if _, err := a.Recv(ctx, outsider.ID()); !errors.Is(err, ErrNotInTable) {
		t.Errorf("Recv from outsider: %v, want ErrNotInTable", err)
	}
	// The table still works, and the first message a sees is b's.
	if err := b.Send(ctx, a.ID(), []byte("from b")); err != nil {
		t.Fatal(err)
	}
	got, err := a.Recv(ctx, b.ID())
	if err != nil || string(got) != "from b" {
		t.Fatalf("Recv from b = %q, %v", got, err)
	}
}

func TestOversizedFrameNamesPeer(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	a, b := nodes[0], nodes[1]
	for _, n := range nodes {
		if err := n.SetPeers(tableOf(t, nodes, n)); err != nil {
			t.Fatal(err)
		}
	}
	// b writes raw frames, framed with the standard library's uvarint,
	// not through Send: one good frame, then one a byte over the limit.
	s, err := b.host.NewStream(ctx, a.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	raw := binary.AppendUvarint(nil, 2)
	raw = append(raw, "ok"...)
	raw = binary.AppendUvarint(raw, protocol.MaxMessageSize+1)
	raw = append(raw, make([]byte, 1000)...)
	if _, err := s.Write(raw); err != nil {
		t.Fatal(err)
	}
	got, err := a.Recv(ctx, b.ID())
	if err != nil || string(got) != "ok" {
		t.Fatalf("first frame: %q, %v", got, err)
	}
	_, err = a.Recv(ctx, b.ID())
	if err == nil {
		t.Fatal("oversized frame accepted")
	}
	for _, want := range []string{b.ID().String(), fmt.Sprint(protocol.MaxMessageSize + 1)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if !errors.Is(err, ErrFrameTooLarge) || !errors.Is(err, protocol.ErrPeerGone) {
		t.Errorf("error %v does not wrap ErrFrameTooLarge and ErrPeerGone", err)
	}
	// a reset the stream: b's read fails with a reset, not a clean EOF.
	_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, s); err == nil {
		t.Error("stream with an oversized frame was closed cleanly, want reset")
	}
	// The error is sticky.
	if _, err := a.Recv(ctx, b.ID()); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("second Recv: %v", err)
	}
}

func TestMaxSizeMessage(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	big := bytes.Repeat([]byte{0xa5}, protocol.MaxMessageSize)
	if err := a.Send(ctx, b.ID(), big); err != nil {
		t.Fatal(err)
	}
	got, err := b.Recv(ctx, a.ID())
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("Recv of a MaxMessageSize message: %d bytes, %v", len(got), err)
	}
	err = a.Send(ctx, b.ID(), append(big, 0))
	if !errors.Is(err, ErrFrameTooLarge) || !strings.Contains(err.Error(), b.ID().String()) {
		t.Fatalf("Send of MaxMessageSize+1 bytes: %v", err)
	}
	// An empty frame is the goodbye of a closing node, never a message.
	if err := a.Send(ctx, b.ID(), nil); !errors.Is(err, ErrEmptyMessage) {
		t.Fatalf("Send of an empty message: %v, want ErrEmptyMessage", err)
	}
}

func TestPeerGone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, listen string }{{"tcp", tcpLoopback}, {"quic", quicLoopback}} {
		t.Run(tc.name+"/close", func(t *testing.T) {
			ctx := testContext(t, 10*time.Second)
			nodes := startNodes(t, 2, tc.listen, Config{})
			seat(t, ctx, nodes)
			a, b := nodes[0], nodes[1]
			for i := range 3 {
				if err := b.Send(ctx, a.ID(), []byte{byte(i)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			// Everything b sent before closing arrives, then ErrPeerGone.
			for i := range 3 {
				got, err := a.Recv(ctx, b.ID())
				if err != nil || !bytes.Equal(got, []byte{byte(i)}) {
					t.Fatalf("message %d: %v, %v", i, got, err)
				}
			}
			_, err := a.Recv(ctx, b.ID())
			if !errors.Is(err, protocol.ErrPeerGone) || !strings.Contains(err.Error(), b.ID().String()) {
				t.Fatalf("Recv after peer closed: %v, want ErrPeerGone naming %s", err, b.ID())
			}
			if ctx.Err() != nil {
				t.Fatal("Recv waited for the test deadline")
			}
		})
		t.Run(tc.name+"/crash", func(t *testing.T) {
			ctx := testContext(t, 10*time.Second)
			nodes := startNodes(t, 2, tc.listen, Config{})
			seat(t, ctx, nodes)
			a, b := nodes[0], nodes[1]
			// The host goes away without closing its streams.
			if err := b.host.Close(); err != nil {
				t.Fatal(err)
			}
			_, err := a.Recv(ctx, b.ID())
			if !errors.Is(err, protocol.ErrPeerGone) || !strings.Contains(err.Error(), b.ID().String()) {
				t.Fatalf("Recv after peer crashed: %v, want ErrPeerGone naming %s", err, b.ID())
			}
		})
	}
}

func TestRecvDeadlineNamesPeer(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err := a.Recv(short, b.ID())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Recv: %v, want DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), b.ID().String()) || !strings.Contains(err.Error(), "no message within the deadline") {
		t.Errorf("error %q does not name the silent peer", err)
	}
	// A message that arrived is returned even if ctx is already done.
	if err := b.Send(ctx, a.ID(), []byte("late")); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Recv(ctx, b.ID()); err != nil || string(got) != "late" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
}

func TestSendAndRecvOutsideTable(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	stranger := testPeerID(t)
	err := nodes[0].Send(ctx, stranger, []byte("x"))
	if !errors.Is(err, ErrNotInTable) || !strings.Contains(err.Error(), stranger.String()) {
		t.Errorf("Send to stranger: %v", err)
	}
	_, err = nodes[0].Recv(ctx, stranger)
	if !errors.Is(err, ErrNotInTable) || !strings.Contains(err.Error(), stranger.String()) {
		t.Errorf("Recv from stranger: %v", err)
	}
}

func TestConcurrentSendKeepsFramesWhole(t *testing.T) {
	t.Parallel()
	const senders, each = 8, 50
	ctx := testContext(t, 20*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				if err := a.Send(ctx, b.ID(), payload(g, 99, i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	next := make([]int, senders)
	for range senders * each {
		got, err := b.Recv(ctx, a.ID())
		if err != nil {
			t.Fatal(err)
		}
		// Which sender's next message is it? Exactly one must match.
		matched := -1
		for g := range senders {
			if next[g] < each && bytes.Equal(got, payload(g, 99, next[g])) {
				matched = g
				break
			}
		}
		if matched < 0 {
			t.Fatalf("received %d bytes that are no sender's next message", len(got))
		}
		next[matched]++
	}
	wg.Wait()
}

func TestSendToStalledPeerTimesOut(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 20*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{WriteTimeout: 300 * time.Millisecond})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	// b never calls Recv: its queue fills, then the stream's flow-control
	// window, then a's write blocks until the write deadline.
	big := make([]byte, protocol.MaxMessageSize)
	var err error
	sent := 0
	for ; sent < 5000 && err == nil; sent++ {
		err = a.Send(ctx, b.ID(), big)
	}
	if err == nil {
		t.Fatalf("%d MiB sent to a peer that reads nothing", sent/16)
	}
	if !errors.Is(err, protocol.ErrPeerGone) || !strings.Contains(err.Error(), b.ID().String()) {
		t.Fatalf("stalled Send: %v", err)
	}
	t.Logf("Send blocked after %d messages of 64 KiB: %v", sent, err)
	if err := a.Send(ctx, b.ID(), []byte("x")); !errors.Is(err, protocol.ErrPeerGone) {
		t.Fatalf("Send after a failed Send: %v, want ErrPeerGone", err)
	}
	// b still receives what was written whole before the reset.
	if got, err := b.Recv(ctx, a.ID()); err != nil || len(got) != len(big) {
		t.Fatalf("b's first message: %d bytes, %v", len(got), err)
	}
}

func TestConnectWaitsForLatePeer(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 20*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	a, b := nodes[0], nodes[1]
	if err := a.SetPeers(tableOf(t, nodes, a)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Connect(ctx) }()
	// b admits nobody until its table is set, 300 ms later.
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Connect returned %v before the peer admitted us", err)
	default:
	}
	if err := b.SetPeers(tableOf(t, nodes, b)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := a.Send(ctx, b.ID(), []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Recv(ctx, a.ID()); err != nil || string(got) != "hi" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
}

// A second stream from a peer is the peer reconnecting (after a drop, or
// a restart): it replaces the first, the loss is reported once, WaitUp
// redials, and messages flow both ways again.
func TestNewStreamIsAReconnection(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	if err := b.Send(ctx, a.ID(), []byte("one")); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Recv(ctx, b.ID()); err != nil || string(got) != "one" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
	s, err := b.host.NewStream(ctx, a.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte{3, 't', 'w', 'o'}); err != nil {
		t.Fatal(err)
	}
	if readUntil(t, ctx, a, b.ID(), "two") == 0 {
		// "two" was queued before Recv looked: the loss comes next.
		readLoss(t, ctx, a, b.ID())
		if err := a.WaitUp(ctx, b.ID()); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Send(ctx, b.ID(), []byte("back")); err != nil {
		t.Fatal(err)
	}
	readUntil(t, ctx, b, a.ID(), "back")
}

// readUntil reads from peer p on n until it receives want, following the
// connection through losses with WaitUp, and returns the losses reported.
func readUntil(t *testing.T, ctx context.Context, n *Node, p peer.ID, want string) int {
	t.Helper()
	losses := 0
	for {
		got, err := n.Recv(ctx, p)
		if errors.Is(err, protocol.ErrPeerGone) {
			losses++
			if err := n.WaitUp(ctx, p); err != nil {
				t.Fatalf("WaitUp: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		if string(got) == want {
			return losses
		}
	}
}

// A connection closed under the nodes (a network failure) comes back: both
// sides report the loss, WaitUp redials, and messages flow again.
func TestClosedConnectionReconnects(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 15*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	if err := a.host.Network().ClosePeer(b.ID()); err != nil {
		t.Fatal(err)
	}
	go func() {
		// b must be redialling too, or a's stream finds nobody reading.
		readUntil(t, ctx, b, a.ID(), "after")
		sendThrough(t, ctx, b, a.ID(), "reply")
	}()
	readLoss(t, ctx, a, b.ID())
	sendThrough(t, ctx, a, b.ID(), "after")
	readUntil(t, ctx, a, b.ID(), "reply")
}

// sendThrough sends msg from n to p once the link is up (WaitUp), again
// if the send finds the connection gone: the stream WaitUp opened may
// still have gone out over a connection that was closing (the protocol
// asks again with a Sync in that case).
func sendThrough(t *testing.T, ctx context.Context, n *Node, p peer.ID, msg string) {
	t.Helper()
	for {
		if err := n.WaitUp(ctx, p); err != nil {
			t.Errorf("WaitUp: %v", err)
			return
		}
		err := n.Send(ctx, p, []byte(msg))
		if err == nil {
			return
		}
		if !errors.Is(err, protocol.ErrPeerGone) || ctx.Err() != nil {
			t.Errorf("Send: %v", err)
			return
		}
	}
}

// readLoss fails the test unless the next Recv reports a loss.
func readLoss(t *testing.T, ctx context.Context, n *Node, p peer.ID) {
	t.Helper()
	if got, err := n.Recv(ctx, p); !errors.Is(err, protocol.ErrPeerGone) {
		t.Fatalf("Recv after the connection closed: %q, %v; want ErrPeerGone", got, err)
	}
}

// A peer whose node closed left for good: WaitUp says so at once instead
// of redialling.
func TestWaitUpForAPeerThatLeft(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	if err := b.Send(ctx, a.ID(), []byte("bye")); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if got, err := a.Recv(ctx, b.ID()); err != nil || string(got) != "bye" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
	readLoss(t, ctx, a, b.ID())
	if err := a.WaitUp(ctx, b.ID()); !errors.Is(err, protocol.ErrPeerGone) {
		t.Fatalf("WaitUp for a peer that closed: %v, want ErrPeerGone", err)
	}
}

func TestNewAndSetPeersReject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	key, _ := NewIdentity()
	if _, err := New(ctx, Config{Identity: key}); err == nil {
		t.Error("New without a listen address succeeded")
	}
	secp, err := crypto.UnmarshalPrivateKey(specVectors(t)["secp256k1-private"])
	if err != nil {
		t.Fatal(err)
	}
	listen, _ := ParseListen(tcpLoopback)
	if _, err := New(ctx, Config{Identity: secp, Listen: []multiaddr.Multiaddr{listen}}); err == nil || !strings.Contains(err.Error(), "Ed25519") {
		t.Errorf("New with a secp256k1 identity: %v, want an error asking for Ed25519", err)
	}
	nodes := startNodes(t, 1, tcpLoopback, Config{})
	n := nodes[0]
	other := peer.AddrInfo{ID: testPeerID(t), Addrs: n.host.Addrs()}
	self := peer.AddrInfo{ID: n.ID(), Addrs: n.host.Addrs()}
	for name, peers := range map[string][]peer.AddrInfo{
		"empty":     nil,
		"self":      {self},
		"duplicate": {other, other},
		"no addrs":  {{ID: other.ID}},
	} {
		if err := n.SetPeers(peers); err == nil {
			t.Errorf("SetPeers(%s) accepted", name)
		}
	}
	if err := n.Connect(ctx); err == nil {
		t.Error("Connect without a table succeeded")
	}
	if err := n.SetPeers([]peer.AddrInfo{other}); err != nil {
		t.Fatal(err)
	}
	if err := n.SetPeers([]peer.AddrInfo{other}); err == nil {
		t.Error("second SetPeers accepted")
	}
	if got := n.Peers(); len(got) != 1 || got[0] != other.ID {
		t.Errorf("Peers() = %v", got)
	}
	for _, a := range n.Addrs() {
		if _, id := peer.SplitAddr(a); id != n.ID() {
			t.Errorf("Addrs() entry %s does not end in /p2p/%s", a, n.ID())
		}
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if err := n.Send(ctx, other.ID, []byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Send after Close: %v", err)
	}
	if _, err := n.Recv(ctx, other.ID); !errors.Is(err, ErrClosed) {
		t.Errorf("Recv after Close: %v", err)
	}
}

// A peer admitted by Config.Meet (an invite's host) may open the game's
// stream and send before this node has set its table (it is still reading
// the seating list): the stream waits for SetPeers instead of being reset,
// and the message arrives.
func TestStreamBeforeSetPeersWaitsForTheTable(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 20*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{Meet: func(peer.ID) bool { return true }})
	a, b := nodes[0], nodes[1]
	if err := a.SetPeers(tableOf(t, nodes, a)); err != nil {
		t.Fatal(err)
	}
	if err := a.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Send(ctx, b.ID(), []byte("early")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := b.SetPeers(tableOf(t, nodes, b)); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Recv(ctx, a.ID()); err != nil || string(got) != "early" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
	if err := a.Send(ctx, b.ID(), []byte("later")); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Recv(ctx, a.ID()); err != nil || string(got) != "later" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
}

// A peer's node listens (libp2p.New) a moment before it sets its game
// handler (New's handleStreams), and a loaded machine stretches that
// moment: a stream opened then is refused ("protocols not supported"),
// Connect retries, and the next stream may be negotiated in full by
// NewStream (the peer's protocols still unknown to the peerstore). Connect
// must then succeed at once: a382eee's eager negotiation read from such a
// stream, which blocks until the peer writes (it never does on our
// outbound stream), so the attempt hung for the dial timeout while the
// others' game started without us (internal/lab, CI: "never reached the
// table"). With a dial timeout far above the test's bound, a hung attempt
// fails the test.
func TestConnectPeerHandlerLate(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{DialTimeout: time.Minute})
	a, b := nodes[0], nodes[1]
	b.host.RemoveStreamHandler(ProtocolID)
	for _, n := range nodes {
		if err := n.SetPeers(tableOf(t, nodes, n)); err != nil {
			t.Fatal(err)
		}
	}
	// a's first attempt: b is connected, but refuses the protocol.
	if err := a.openOutbound(ctx, a.table.Load().links[b.ID()]); err == nil || !strings.Contains(err.Error(), "protocols not supported") {
		t.Fatalf("first attempt with b's handler unset: %v, want protocols not supported", err)
	}
	b.host.SetStreamHandler(ProtocolID, b.handleStream)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := a.Connect(cctx); err != nil {
		t.Fatalf("Connect once b's handler is set: %v", err)
	}
	if err := a.Send(ctx, b.ID(), []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Recv(ctx, a.ID()); err != nil || string(got) != "hello" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
}

// A table stream opened by Connect may wait long before its first frame
// (the host waits up to 15 s for direct paths before its Hello). The
// peer's libp2p gives an inbound stream basichost.DefaultNegotiationTimeout
// (10 s) to name its protocol; with multistream-select's lazy
// negotiation the protocol was only named with the first frame, so the
// peer reset every stream idle that long, and a first frame written just
// as the reset crossed it was lost without an error (natlab's
// TestPoolRelay, CI: a Hello lost, the table stopped on a silence).
// Over TCP (yamux announces a stream when it opens) the first frame must
// still arrive after the timeout. Without nameProtocol the Send fails
// with the peer's reset ("stream reset (remote): code: 0x1001").
func TestStreamIdleBeforeFirstFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("waits past libp2p's 10 s negotiation timeout")
	}
	t.Parallel()
	ctx := testContext(t, basichost.DefaultNegotiationTimeout+15*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, nodes)
	a, b := nodes[0], nodes[1]
	time.Sleep(basichost.DefaultNegotiationTimeout + time.Second)
	if err := a.Send(ctx, b.ID(), []byte("hello")); err != nil {
		t.Fatalf("first Send %s after Connect: %v", basichost.DefaultNegotiationTimeout+time.Second, err)
	}
	if got, err := b.Recv(ctx, a.ID()); err != nil || string(got) != "hello" {
		t.Fatalf("Recv: %q, %v", got, err)
	}
}

// Connect names the table stream's protocol when it opens it, so the
// peer's handler holds the stream before any frame is sent (the quick
// form of TestStreamIdleBeforeFirstFrame: no stream sits unnamed, idle
// towards the peer's negotiation timeout). Over QUIC as well as TCP.
func TestConnectNamesProtocol(t *testing.T) {
	for _, listen := range []string{tcpLoopback, quicLoopback} {
		t.Run(listen, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t, 20*time.Second)
			nodes := startNodes(t, 2, listen, Config{})
			seat(t, ctx, nodes)
			for i, n := range nodes {
				other := nodes[1-i]
				l := n.table.Load().links[other.ID()]
				for !l.hasInbound() {
					if !sleepCtx(ctx, 10*time.Millisecond) {
						t.Fatalf("node %d: no inbound stream from its peer before the first frame: %v", i, ctx.Err())
					}
				}
			}
		})
	}
}

// hasInbound reports whether an inbound stream from the peer was
// accepted.
func (l *link) hasInbound() bool {
	l.inMu.Lock()
	defer l.inMu.Unlock()
	return l.inbound != nil
}
