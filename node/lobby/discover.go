package lobby

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/routing"
	drouting "github.com/libp2p/go-libp2p/p2p/discovery/routing"
	dutil "github.com/libp2p/go-libp2p/p2p/discovery/util"
)

// Rendezvous is the name lobby nodes advertise and look up on the public
// DHT to find each other (the topic's version is in it).
const Rendezvous = "mentalmj-lobby/1"

// maxLobbyPeers bounds the lobby peers a node dials from the rendezvous.
const maxLobbyPeers = 16

// Discover advertises this node under Rendezvous on r (the public DHT)
// and dials up to 16 of the other lobby nodes it finds, again every
// minute, until ctx ends. Errors are logged: the lobby works with
// whatever peers it has.
func (l *Lobby) Discover(ctx context.Context, r routing.ContentRouting) {
	d := drouting.NewRoutingDiscovery(r)
	dutil.Advertise(ctx, d, Rendezvous)
	go func() {
		for {
			l.findPeers(ctx, d)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Minute):
			}
		}
	}()
}

func (l *Lobby) findPeers(ctx context.Context, d *drouting.RoutingDiscovery) {
	fctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ch, err := d.FindPeers(fctx, Rendezvous)
	if err != nil {
		l.opt.Logger.Info("lobby: rendezvous", "err", err)
		return
	}
	n := 0
	for p := range ch {
		if p.ID == l.h.ID() || len(p.Addrs) == 0 || n >= maxLobbyPeers {
			continue
		}
		n++
		go l.dial(fctx, p)
	}
}

// Connect dials the lobby peers given (their addresses known: a LAN, a
// test, a friend's node), in the background, each again every 2 s until
// it answers or ctx ends; errors are logged.
func (l *Lobby) Connect(ctx context.Context, peers []peer.AddrInfo) {
	for _, p := range peers {
		go func() {
			for !l.dial(ctx, p) {
				select {
				case <-ctx.Done():
					return
				case <-time.After(2 * time.Second):
				}
			}
		}()
	}
}

// dial connects to p within 10 s and reports whether it did.
func (l *Lobby) dial(ctx context.Context, p peer.AddrInfo) bool {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := l.h.Connect(cctx, p); err != nil {
		l.opt.Logger.Debug("lobby: peer not reached", "peer", p.ID, "err", err)
		return false
	}
	return true
}
