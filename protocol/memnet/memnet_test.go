package memnet

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/protocol/transport"
)

// newIDs returns n fresh peer IDs.
func newIDs(t *testing.T, n int) []peer.ID {
	t.Helper()
	var ids []peer.ID
	for range n {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// TestLatencyKeepsOrder sends numbered messages over a link
// whose jitter is larger than the gap between them: they arrive complete
// and in the order sent, none before its one-way delay less the jitter.
func TestLatencyKeepsOrder(t *testing.T) {
	net, ids := New(), newIDs(t, 2)
	a, b := ids[0], ids[1]
	link := latency.Link{OneWay: 5 * time.Millisecond, Jitter: 5 * time.Millisecond}
	net.SetLink(a, b, link)
	ta, tr := net.Transport(a), net.Transport(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const n = 200
	sent := make([]time.Time, n)
	for i := range n {
		sent[i] = time.Now()
		if err := ta.Send(ctx, b, []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		if i%20 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	for i := range n {
		m, err := tr.Recv(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if string(m) != fmt.Sprint(i) {
			t.Fatalf("message %d arrived as %q", i, m)
		}
		if d := time.Since(sent[i]); d < link.OneWay-link.Jitter {
			t.Fatalf("message %d arrived after %s, before the link's least delay", i, d)
		}
	}
	// The other direction was given no delay of its own.
	if err := carry(ctx, tr, ta, b, a, "back"); err != nil {
		t.Fatalf("undelayed direction: %v", err)
	}
}

// carry sends msg from peer from (over tx) to peer to (over rx) and
// returns an error unless it is the next message to arrive.
func carry(ctx context.Context, tx, rx transport.Transport, from, to peer.ID, msg string) error {
	if err := tx.Send(ctx, to, []byte(msg)); err != nil {
		return err
	}
	m, err := rx.Recv(ctx, from)
	if err != nil {
		return err
	}
	if string(m) != msg {
		return fmt.Errorf("got %q, want %q", m, msg)
	}
	return nil
}

// TestLatencyDisconnect: messages sent before a peer's node
// crashed are still delivered after their delay, then ErrPeerGone.
func TestLatencyDisconnect(t *testing.T) {
	net, ids := New(), newIDs(t, 2)
	a, b := ids[0], ids[1]
	net.SetLatency(latency.Link{OneWay: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := net.Transport(a).Send(ctx, b, []byte("last words")); err != nil {
		t.Fatal(err)
	}
	net.Disconnect(a)
	tr := net.Transport(b)
	if m, err := tr.Recv(ctx, a); err != nil || string(m) != "last words" {
		t.Fatalf("in-flight message: %q, %v", m, err)
	}
	if _, err := tr.Recv(ctx, a); err == nil {
		t.Fatal("Recv after the last message of a crashed peer succeeded")
	}
}

// TestCutAndRestore checks the reconnection a Cut stands for: the
// message in flight is lost, Recv on both sides and Send report
// ErrPeerGone, WaitUp waits until Restore, and then messages flow again.
func TestCutAndRestore(t *testing.T) {
	net, ids := New(), newIDs(t, 2)
	a, b := ids[0], ids[1]
	ta, tr := net.Transport(a), net.Transport(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ta.Send(ctx, b, []byte("lost")); err != nil {
		t.Fatal(err)
	}
	net.Cut(a)
	if _, err := tr.Recv(ctx, a); !errors.Is(err, transport.ErrPeerGone) {
		t.Fatalf("Recv across a cut: %v, want ErrPeerGone", err)
	}
	if err := ta.Send(ctx, b, []byte("x")); !errors.Is(err, transport.ErrPeerGone) {
		t.Fatalf("Send across a cut: %v, want ErrPeerGone", err)
	}
	up := make(chan error, 1)
	go func() { up <- tr.(transport.Reconnecting).WaitUp(ctx, a) }()
	select {
	case err := <-up:
		t.Fatalf("WaitUp returned %v before Restore", err)
	case <-time.After(50 * time.Millisecond):
	}
	net.Restore(a)
	if err := <-up; err != nil {
		t.Fatalf("WaitUp after Restore: %v", err)
	}
	if err := carry(ctx, ta, tr, a, b, "back"); err != nil {
		t.Fatalf("after Restore: %v (the message sent before the cut must be lost)", err)
	}
}

// TestSendTooLarge checks that a message over MaxMessageSize is refused,
// and one of exactly MaxMessageSize bytes is carried.
func TestSendTooLarge(t *testing.T) {
	net, ids := New(), newIDs(t, 2)
	ctx := context.Background()
	if err := net.Transport(ids[0]).Send(ctx, ids[1], make([]byte, transport.MaxMessageSize+1)); err == nil {
		t.Error("a message of MaxMessageSize+1 bytes was sent")
	}
	if err := net.Transport(ids[0]).Send(ctx, ids[1], make([]byte, transport.MaxMessageSize)); err != nil {
		t.Errorf("a message of MaxMessageSize bytes: %v", err)
	}
}
