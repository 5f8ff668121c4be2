package node

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/routing"
	"github.com/multiformats/go-multiaddr"
)

// The public libp2p network (Config.Public): the node joins the Kademlia
// DHT (go-libp2p-kad-dht, client mode) from its bootstrap peers, finds
// relays among the DHT's peers with libp2p's AutoRelay and reserves slots
// on them, so that its invite carries relayed addresses, and looks a
// table peer up on the DHT when the addresses it was given are stale.
// Public relays give limited circuits (2 minutes, 128 KiB): enough to
// meet and punch holes, and the connection manager moves the table onto
// direct connections long before they run out.

// DefaultBootstrapPeers returns the public DHT's well-known bootstrap
// peers (go-libp2p-kad-dht's defaults, /dnsaddr/bootstrap.libp2p.io/…),
// used when Config.Bootstrap is empty.
func DefaultBootstrapPeers() []peer.AddrInfo {
	return dht.GetDefaultBootstrapPeerAddrInfos()
}

// bootstrapTimeout bounds the connection to each bootstrap peer in
// JoinPublic.
const bootstrapTimeout = 10 * time.Second

// startDHT starts the DHT client on the node's host (Config.Public).
func (n *Node) startDHT(bootstrap []peer.AddrInfo) error {
	d, err := dht.New(n.host, dht.Mode(dht.ModeClient), dht.BootstrapPeers(bootstrap...))
	if err != nil {
		return fmt.Errorf("starting the DHT client: %w", err)
	}
	n.dhtMu.Lock()
	n.dht = d
	n.dhtMu.Unlock()
	return nil
}

// getDHT returns the DHT client, nil when the node is not public (or not
// started yet).
func (n *Node) getDHT() *dht.IpfsDHT {
	n.dhtMu.Lock()
	defer n.dhtMu.Unlock()
	return n.dht
}

// Routing returns the node's DHT client as content routing (for the
// lobby's rendezvous, package node/lobby), nil when the node is not
// public.
func (n *Node) Routing() routing.ContentRouting {
	if d := n.getDHT(); d != nil {
		return d
	}
	return nil
}

// JoinPublic connects to the bootstrap peers (in parallel, each bounded by
// 10 s and by ctx) and fills the DHT's routing table from them. It returns
// how many bootstrap peers answered and, when none did, an error naming
// each with its failure. A node that is not public (Config.Public) returns
// 0 and an error wrapping ErrNotPublic at once. Whatever it returns, the node keeps working with
// invites and --peer addresses.
func (n *Node) JoinPublic(ctx context.Context) (int, error) {
	d := n.getDHT()
	if d == nil {
		return 0, fmt.Errorf("joining the public network: %w", ErrNotPublic)
	}
	var mu sync.Mutex
	var errs []error
	reached := 0
	var wg sync.WaitGroup
	for _, b := range n.bootstrap {
		wg.Go(func() {
			bctx, cancel := context.WithTimeout(ctx, bootstrapTimeout)
			defer cancel()
			err := n.host.Connect(bctx, b)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("bootstrap peer %s: %w", b.ID, err))
				return
			}
			reached++
		})
	}
	wg.Wait()
	if reached == 0 {
		if len(n.bootstrap) == 0 {
			return 0, errors.New("no bootstrap peer given")
		}
		return 0, fmt.Errorf("none of %d bootstrap peers answered within %s: %w", len(n.bootstrap), bootstrapTimeout, errors.Join(errs...))
	}
	if err := d.Bootstrap(ctx); err != nil {
		return reached, fmt.Errorf("filling the DHT's routing table: %w", err)
	}
	return reached, nil
}

// relayCandidates is AutoRelay's peer source: the bootstrap peers and the
// peers in the DHT's routing table, with the addresses the node knows for
// them. AutoRelay keeps those that offer the relay service.
func (n *Node) relayCandidates(ctx context.Context, num int) <-chan peer.AddrInfo {
	out := make(chan peer.AddrInfo, num)
	go func() {
		defer close(out)
		// AutoRelay may ask as soon as libp2p builds the host, before
		// New has it: wait for it (a CI run's node dereferenced the
		// host before it was set).
		var h host.Host
		for {
			if p := n.published.Load(); p != nil {
				h = *p
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		seen := map[peer.ID]bool{}
		var ids []peer.ID
		for _, b := range n.bootstrap {
			ids = append(ids, b.ID)
		}
		if d := n.getDHT(); d != nil {
			ids = append(ids, d.RoutingTable().ListPeers()...)
		}
		for _, id := range ids {
			if seen[id] || len(seen) >= num {
				continue
			}
			addrs := h.Peerstore().Addrs(id)
			if len(addrs) == 0 {
				continue
			}
			seen[id] = true
			select {
			case out <- peer.AddrInfo{ID: id, Addrs: addrs}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// WaitRelayed waits until the node has a relayed address from AutoRelay
// (Config.Public) or from Config.Relays, or ctx is done, and returns its
// addresses then (Addrs). The error wraps ctx's error and says that no
// relay was found.
func (n *Node) WaitRelayed(ctx context.Context) ([]multiaddr.Multiaddr, error) {
	for {
		addrs := n.Addrs()
		for _, a := range addrs {
			if isCircuit(a) {
				return addrs, nil
			}
		}
		select {
		case <-ctx.Done():
			return addrs, fmt.Errorf("no relay found on the public network (the DHT knows %d peers): %w", n.dhtPeers(), ctx.Err())
		case <-n.closed:
			return addrs, fmt.Errorf("waiting for a relayed address: %w", ErrClosed)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// dhtPeers counts the DHT's routing table.
func (n *Node) dhtPeers() int {
	if d := n.getDHT(); d != nil {
		return d.RoutingTable().Size()
	}
	return 0
}

// ErrNotPublic is returned (wrapped) by FindPeer and JoinPublic on a node
// off the public network (Config.Public off): it has no DHT to ask.
var ErrNotPublic = errors.New("not on the public network (Config.Public is off)")

// FindPeerTimeout bounds one look-up of FindPeer: a Kademlia lookup on
// the public DHT takes a few seconds, and a peer that nobody has heard
// of is not found any faster by waiting longer.
const FindPeerTimeout = 20 * time.Second

// Public reports whether the node is on the public network
// (Config.Public): it has a DHT to look peers up on (FindPeer).
func (n *Node) Public() bool {
	return n.getDHT() != nil
}

// FindPeer looks id up on the public DHT (peer routing), for when the
// addresses the node was given for it (an invite's, a --peer's) have gone
// stale: a peer that restarted on another port or reserved on another
// relay told the DHT servers it is connected to its current addresses.
// The look-up is bounded by FindPeerTimeout and ctx. It adds the
// addresses found to the peerstore and returns them. It returns an error
// wrapping ErrNotPublic when the node has no DHT, the DHT's error
// (wrapping routing.ErrNotFound when no DHT peer knows id, or ctx's
// error) when the look-up fails, or an error when it found id without
// any address. Dialling what it finds is still gated as always: the
// peer's key is checked by the handshake, and the gater decides who may
// connect.
func (n *Node) FindPeer(ctx context.Context, id peer.ID) (peer.AddrInfo, error) {
	d := n.getDHT()
	if d == nil {
		return peer.AddrInfo{}, fmt.Errorf("looking %s up: %w", id, ErrNotPublic)
	}
	fctx, cancel := context.WithTimeout(ctx, FindPeerTimeout)
	defer cancel()
	info, err := d.FindPeer(fctx, id)
	if err != nil {
		if ctxErr := fctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w (%w)", err, ctxErr)
		}
		return peer.AddrInfo{}, fmt.Errorf("looking %s up on the public DHT (%d peers in its routing table): %w", id, d.RoutingTable().Size(), err)
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("looking %s up on the public DHT: found it without any address", id)
	}
	n.host.Peerstore().AddAddrs(id, info.Addrs, peerstoreTTL)
	n.log.Info("peer routing found addresses", "peer", id.String(), "addrs", fmt.Sprint(info.Addrs))
	return info, nil
}

// findPeer looks a table peer up on the DHT (FindPeer, for at most 10 s:
// connectPeer's dials wait meanwhile) when its addresses failed; it
// reports whether it found any address.
func (n *Node) findPeer(ctx context.Context, id peer.ID) bool {
	if n.getDHT() == nil {
		return false
	}
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := n.FindPeer(fctx, id); err != nil {
		n.log.Debug("peer routing found nothing", "peer", id.String(), "err", err)
		return false
	}
	return true
}

// isOutboundOnly reports whether every connection to p was dialled by us.
func isOutboundOnly(conns []network.Conn) bool {
	for _, c := range conns {
		if c.Stat().Direction != network.DirOutbound {
			return false
		}
	}
	return true
}
