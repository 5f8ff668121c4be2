package node

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// A seated node that admits one spectator lets one peer from outside the
// table connect (and keeps it), refuses a second, and never lets the
// spectator open a game stream (ProtocolID): what a spectator sends
// reaches no game.
func TestSpectatorsAdmittedButNoGameStream(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	table := startNodes(t, 2, tcpLoopback, Config{})
	seat(t, ctx, table)
	table[0].AdmitSpectators(1)
	dial := func() (bool, func(context.Context) error) {
		h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		err = h.Connect(ctx, peer.AddrInfo{ID: table[0].ID(), Addrs: table[0].Host().Addrs()})
		time.Sleep(300 * time.Millisecond) // a refused connection is closed after the handshake
		ok := err == nil && h.Network().Connectedness(table[0].ID()) == network.Connected
		return ok, func(ctx context.Context) error {
			s, err := h.NewStream(ctx, table[0].ID(), ProtocolID)
			if err != nil {
				return err
			}
			defer s.Close()
			_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := s.Write([]byte{1, 2, 3}); err != nil {
				return err
			}
			_, err = s.Read(make([]byte, 1))
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil // open and silent: the node took the stream
			}
			return err
		}
	}
	ok, game := dial()
	if !ok {
		t.Fatal("the node refused its one spectator")
	}
	if err := game(ctx); err == nil {
		t.Fatal("a spectator's game stream was accepted")
	}
	if ok, _ := dial(); ok {
		t.Error("the node admitted a second spectator with one slot")
	}
	// The table's own game goes on: the seated peers still talk.
	if err := table[1].Send(ctx, table[0].ID(), []byte("still playing")); err != nil {
		t.Fatal(err)
	}
	msg, err := table[0].Recv(ctx, table[1].ID())
	if err != nil || string(msg) != "still playing" {
		t.Fatalf("table message after the spectators: %q %v", msg, err)
	}
}
