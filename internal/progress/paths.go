package progress

import (
	"fmt"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
)

// Name records a player's nickname for the path lines.
func (r *Reporter) Name(id peer.ID, nick string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if nick == "" {
		return
	}
	if r.nicks == nil {
		r.nicks = map[peer.ID]string{}
	}
	r.nicks[id] = nick
}

// Who names a player: its nickname once known, else its short peer ID.
func (r *Reporter) Who(id peer.ID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := r.nicks[id]; n != "" {
		return n
	}
	return node.ShortID(id)
}

// Path prints a change of how the node reaches a table peer:
// "bob: direct (QUIC, IPv6, hole punched)".
func (r *Reporter) Path(p node.Path) {
	r.mu.Lock()
	if r.paths == nil {
		r.paths = map[peer.ID]node.Path{}
	}
	r.paths[p.Peer] = p
	if p.Relay != "" {
		if r.viaRelay == nil {
			r.viaRelay = map[peer.ID]peer.ID{}
		}
		r.viaRelay[p.Peer] = p.Relay
	} else if p.Direct {
		delete(r.viaRelay, p.Peer)
	}
	for f := range r.watchers {
		(*f)(p)
	}
	gone := r.over && !p.Direct && p.Relay == ""
	r.mu.Unlock()
	if gone {
		return // the game is over: the others leaving is no fault
	}
	// A player relaying the pair is named by its nickname:
	// "bob: relayed via carol (a player)".
	text := p.Describe(r.Who)
	r.Event(Path{Peer: p.Peer.String(), Direct: p.Direct, Transport: p.Transport,
		Family: p.Family, How: p.How, Relay: p.Relay.String(), RelayPlayer: p.RelayPlayer, Why: p.Why, NATPeer: p.NATPeer.String(), NATSelf: p.NATSelf.String(), Text: text},
		"%s: %s", r.Who(p.Peer), text)
}

// GameOver tells the Reporter that the game has ended normally: from now
// on a player no longer reached is not printed (the players leave after
// the last hand; "bob: not connected" would read as an error).
func (r *Reporter) GameOver() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.over = true
}

// Relay prints that the node lost or regained its slot on a relay. A lost
// relay is named, never a player: the pairs it carried go on directly or
// through another relay, and the game pauses only if one has no path left.
func (r *Reporter) Relay(id peer.ID, held bool, err error) {
	r.mu.Lock()
	if held {
		delete(r.lostRelays, id)
	} else {
		if r.lostRelays == nil {
			r.lostRelays = map[peer.ID]string{}
		}
		r.lostRelays[id] = fmt.Sprint(err)
	}
	r.mu.Unlock()
	if held {
		r.Event(Relay{Relay: id.String(), Held: true},
			"relay %s: slot reserved again", node.ShortID(id))
		return
	}
	r.Event(Relay{Relay: id.String(), Held: false, Err: err.Error()},
		"relay %s lost (%v): direct pairs are unaffected, relayed ones go through another relay; reserving again", node.ShortID(id), err)
}

// WatchPaths calls f with the latest path of every peer reported so far
// and then with each path Path reports, in order, until the returned stop
// is called: the browser table shows the paths the progress line prints.
// f runs with the Reporter locked, on the node's goroutine: it must not
// block or call the Reporter.
func (r *Reporter) WatchPaths(f func(node.Path)) (stop func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.paths {
		f(p)
	}
	if r.watchers == nil {
		r.watchers = map[*func(node.Path)]bool{}
	}
	r.watchers[&f] = true
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.watchers, &f)
	}
}
