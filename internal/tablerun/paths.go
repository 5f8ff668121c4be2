package tablerun

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// directWait bounds how long a player waits, before the first hand, for
// its relayed pairs to become direct (hole punching) when they can.
const directWait = 15 * time.Second

// leaveWait is the least time the move of pairs off a public relay's
// limited circuits gets after the wait for direct paths
// (node.LeaveLimitedRelays; the attempts run in parallel).
const leaveWait = 5 * time.Second

// awaitDirect waits up to directWait for the table's relayed pairs to
// become direct, saying what it waits for, and then names every pair that
// stays relayed, with why and what to do about it: before the first hand,
// so that players on public relays (limited circuits) know at once. A pair
// left on a public relay's limited circuits alone (no direct path, no
// pool relay or player to relay it) cannot carry a game: the game does
// not start, and the error (exit code 3, a fault: no player is blamed)
// names every such pair and the remedies.
func awaitDirect(ctx context.Context, n *node.Node, out *progress.Reporter) error {
	relayed := 0
	for _, p := range n.Paths() {
		if !p.Direct {
			relayed++
		}
	}
	if relayed == 0 {
		// Pairs that land on a public relay later are moved off it all
		// the same.
		lctx, cancel := context.WithTimeout(ctx, leaveWait)
		n.LeaveLimitedRelays(lctx)
		cancel()
		return nil
	}
	out.Event(progress.DirectWait{Relayed: relayed, TimeoutMs: directWait.Milliseconds()},
		"waiting up to %s for %d relayed pair(s) to become direct (hole punching)…", directWait, relayed)
	started := time.Now()
	wctx, cancel := context.WithTimeout(ctx, directWait)
	n.WaitDirect(wctx)
	cancel()
	// Hole punching ran over the relayed connections; now the pairs left
	// on a public relay's limited circuits move onto a player or a relay
	// that carries a game, where one leads to the peer: until the end of
	// the direct wait (the peer may still be waiting, and not yet reach
	// the player who can relay the pair), and at least leaveWait.
	until := started.Add(directWait)
	if least := time.Now().Add(leaveWait); until.Before(least) {
		until = least
	}
	lctx, cancel := context.WithDeadline(ctx, until)
	paths := n.LeaveLimitedRelays(lctx)
	cancel()
	var uncarried []string
	for _, p := range paths {
		if p.Direct {
			continue
		}
		if p.Limited && hardNAT(p) {
			uncarried = append(uncarried, out.Who(p.Peer))
		}
		advice := "The relay has no limits on this circuit: the game goes through it (every message signed and checked as on a direct path; it adds the relay's round trip)."
		switch {
		case p.RelayPlayer:
			advice = "A player relays the pair (its table relay: 12 h and 256 MiB a circuit, end-to-end encrypted): the game goes through it, every message signed and checked as on a direct path; it adds the player's round trip."
		case p.Limited:
			advice = "A public relay (limited circuits: 2 minutes, 128 KiB) cannot carry a game. Run \"mentalmj relay\" with real limits where both of you can reach it and pass it with --relay, or forward a port on one of your routers."
		}
		out.Event(progress.StaysRelayed{Peer: p.Peer.String(), Relay: p.Relay.String(), Why: p.Why,
			NATPeer: p.NATPeer.String(), NATSelf: p.NATSelf.String(), Limited: p.Limited},
			"%s stays relayed: %s.\n  %s", out.Who(p.Peer), p, advice)
	}
	if len(uncarried) > 0 {
		return uncarriedError(uncarried)
	}
	return nil
}

// uncarriedError is the refusal to start a game the network cannot carry
// (exit 3): between this node and the players named by who (nicknames,
// at least one) there is only a public relay's limited circuits. It names
// the remedies, "mentalmj relay --pool" first (docs/networking.md, "A hard
// NAT").
func uncarriedError(who []string) error {
	return exitError{code: 3, err: fmt.Errorf("not starting a game the network cannot carry: between you and %s there is no direct path, no pool relay and no player to relay, only a public relay's limited circuits (2 minutes, 128 KiB), which exist to punch holes, not to carry play. Remedies: run \"mentalmj relay --pool\" on a machine with a public address (or find one in the pool), pass a relay with real limits with --relay, or forward a port on one of your routers",
		strings.Join(who, ", "))}
}

// hardNAT reports whether pair p is known never to go direct by hole
// punching: either side's NAT changes ports. Only such a pair left on
// limited circuits stops the game before hand 1; for another (its NATs
// not observed yet, or a punch still to come, as on a loaded machine)
// the game starts with the warning, and hole punching goes on.
func hardNAT(p node.Path) bool {
	return p.NATPeer >= node.NATChangesPort || p.NATSelf >= node.NATChangesPort
}

// showPaths shows at the table model's seats how the node reaches each
// player: every path out has reported and reports until stop is called
// (the same events as the progress line and the terminal).
func showPaths(out *progress.Reporter, model *screen.Model) (stop func()) {
	return out.WatchPaths(func(p node.Path) { model.SetLink(p.Peer, linkOf(p)) })
}

// linkOf is path p as the table model shows it; its Text is the
// progress line's own (node.Path.String).
func linkOf(p node.Path) screen.Link {
	l := screen.Link{State: screen.LinkNone, Transport: p.Transport, Family: p.Family, How: p.How, Why: p.Why, Text: p.String()}
	switch {
	case p.Direct:
		l.State = screen.LinkDirect
	case p.Relay != "":
		l.State, l.Relay, l.RelayPlayer = screen.LinkRelayed, p.Relay.String(), p.RelayPlayer
	}
	return l
}
