package protocol

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

// A player that waits long for a peer's entry tells the table so with a
// signed Waiting notice, and repeats it while it waits: it is kept
// waiting, not silent. A player whose own wait runs out follows the chain
// of notices from the peer it waited for and names the player at its end
// (SPEC.md §9): the one nobody has heard from. A notice is a claim of its
// signer, so it only ever moves a silence fault along a chain; it is
// never a blame, and a chain that loops, or comes back to this player,
// names the peer waited for, as if there were no notice.

// Limits on the fields of a Waiting notice from the network.
const (
	maxWaitingKind  = 40
	maxWaitingValid = 10 * time.Minute
)

// noticeAfter is how long a player waits for a peer, within a wait of
// total, before it sends its first Waiting notice, and then how often it
// repeats it: a quarter of the wait, from 100 ms to 5 s. The notice
// reaches the players waiting for this one well before their own waits
// (of about the same length, begun about when this one began) run out.
func noticeAfter(total time.Duration) time.Duration {
	return min(max(total/4, 100*time.Millisecond), 5*time.Second)
}

// noticeValid is how long a notice sent within a wait of total holds
// unless repeated: three repeat periods, so that one lost or late repeat
// does not drop it.
func noticeValid(total time.Duration) time.Duration { return 3 * noticeAfter(total) }

// waitClaim is the last Waiting notice of a peer: whom it waits for (""
// once it no longer waits), in which hand, until when it holds.
type waitClaim struct {
	peer  peer.ID
	kind  string
	hand  uint32
	until time.Time
	env   []byte // the signed notice
}

// isWaiting reports whether b is a Waiting notice, without verifying it.
func isWaiting(b []byte) bool {
	var env pb.Envelope
	var e pb.Entry
	return proto.Unmarshal(b, &env) == nil && proto.Unmarshal(env.Entry, &e) == nil && e.GetWaiting() != nil
}

// sendWaiting signs a Waiting notice for hand, saying that this player has
// waited waited for peer p's entry of kind ("" p: it no longer waits),
// valid for valid, and sends it to every other player (through the
// Misbehavior's Envelope, if any). It is not kept for sending again.
// Errors are logged: a notice that does not arrive leaves the others
// where they would be without it.
func (g *Game) sendWaiting(ctx context.Context, hand uint32, p peer.ID, kind string, waited, valid time.Duration) {
	l := g.links
	l.mu.Lock()
	id := l.gameID
	l.mu.Unlock()
	if len(id) == 0 || g.replay != nil {
		return // the opening, or replaying: nobody is kept waiting by a third player
	}
	w := &pb.Waiting{Kind: truncate(kind, maxWaitingKind), WaitedMs: uint32(min(waited.Milliseconds(), 1<<31)), ValidMs: uint32(min(valid, maxWaitingValid).Milliseconds())}
	if p != "" {
		w.Peer = []byte(p)
	}
	o, err := l.key(&pb.Entry{GameId: id, Hand: hand, Sender: []byte(l.self), Body: &pb.Entry_Waiting{Waiting: w}})
	if err != nil {
		l.log.Warn("cannot sign a waiting notice", "err", err)
		return
	}
	for _, q := range g.others {
		env := o.Envelope
		if m := g.cfg.Misbehavior; m != nil {
			if env = m.Envelope(hand, q, env); env == nil {
				continue
			}
		}
		if err := l.t.Send(ctx, q, env); err != nil {
			l.log.Info("waiting notice not sent", "peer", q, "err", err)
		}
	}
}

// takeWaiting checks a Waiting notice that peer p delivered and keeps it
// as p's claim. Every field is checked: signed by p, for the whole
// table, for this game, no chain fields, a table peer other than p (or
// none), a kind of at most 40 bytes, a validity of at most 10 minutes. A
// notice that fails a check is logged and dropped: it changes nothing.
func (l *links) takeWaiting(p peer.ID, b []byte) {
	o, err := Open(b)
	l.mu.Lock()
	defer l.mu.Unlock()
	var w *pb.Waiting
	if err == nil {
		w = o.Entry.GetWaiting()
	}
	var named peer.ID
	switch {
	case err != nil:
		err = fmt.Errorf("does not verify: %w", err)
	case w == nil:
		err = fmt.Errorf("not a waiting notice but a %s", o.Kind())
	case o.Sender != p:
		err = fmt.Errorf("signed by %s, not by the peer that delivered it", o.Sender)
	case o.Recipient != "":
		err = fmt.Errorf("addressed to one player")
	case len(l.gameID) == 0 || string(o.Entry.GameId) != string(l.gameID):
		err = fmt.Errorf("for another game")
	case o.Entry.Seq != 0 || len(o.Entry.PrevHash) != 0:
		err = fmt.Errorf("has chain fields")
	case len(w.Kind) > maxWaitingKind:
		err = fmt.Errorf("kind of %d bytes", len(w.Kind))
	case time.Duration(w.ValidMs)*time.Millisecond > maxWaitingValid:
		err = fmt.Errorf("valid for %d ms", w.ValidMs)
	case len(w.Peer) > 0:
		named, err = peer.IDFromBytes(w.Peer)
		_, atTable := l.boxes[named]
		switch {
		case err != nil:
			err = fmt.Errorf("names no peer: %w", err)
		case named == p:
			err = fmt.Errorf("says it waits for itself")
		case !atTable && named != l.self:
			err = fmt.Errorf("names %s, who is not at the table", named)
		}
	}
	if err != nil {
		l.log.Warn("ignored a waiting notice", "peer", p, "err", err)
		return
	}
	if l.claims == nil {
		l.claims = map[peer.ID]waitClaim{}
	}
	l.claims[p] = waitClaim{peer: named, kind: w.Kind, hand: o.Entry.Hand, until: time.Now().Add(time.Duration(w.ValidMs) * time.Millisecond), env: b}
	l.log.Debug("waiting notice", "peer", p, "waits_for", named, "kind", w.Kind, "hand", o.Entry.Hand, "waited_ms", w.WaitedMs)
}

// chainEnd follows the Waiting notices that hold at now for hand from
// peer from: from waits for a, a for b, and so on. It returns the player
// at the end (from itself when from sent no notice that holds), the
// players before it, from first, and their notices in the same order. A
// chain that comes back to a player already in it, or to this player,
// proves nothing either way: it returns from and no chain.
func (l *links) chainEnd(from peer.ID, hand uint32, now time.Time) (end peer.ID, via []peer.ID, notices [][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[peer.ID]bool{l.self: true, from: true}
	cur := from
	for {
		c, ok := l.claims[cur]
		if !ok || c.peer == "" || c.hand != hand || now.After(c.until) {
			return cur, via, notices
		}
		if seen[c.peer] {
			return from, nil, nil
		}
		seen[c.peer] = true
		via, notices = append(via, cur), append(notices, c.env)
		cur = c.peer
	}
}

// silenceAt is the fault for a wait for peer from's entry want, of total,
// that ran out: silence of the player at the end of the chain of Waiting
// notices from from (from itself if there is none).
func (g *Game) silenceAt(from peer.ID, hand uint32, want string, total time.Duration) error {
	end, via, notices := g.links.chainEnd(from, hand, time.Now())
	if end == from {
		fe := faultf(from, hand, FaultSilence, nil, "silent for %s while we waited for its %s", total, want)
		fe.Want, fe.Wait = want, total
		return fe
	}
	var chain []string
	for _, p := range via {
		chain = append(chain, g.nickOr(p))
	}
	fe := faultf(end, hand, FaultSilence, nil, "silent: we waited %s for %s's %s, and %s said (signed waiting notices) it was kept waiting by %s",
		total, g.nickOr(from), want, strings.Join(chain, ", then "), g.nickOr(end))
	fe.Waiting, fe.Wait = notices, total
	return fe
}

// checkChain checks the Waiting notices an Abort carries (Abort.waiting)
// against the Abort o: at most one per table peer, each a notice that
// verifies, signed by a table peer, for o's game and hand, with no chain
// fields, naming the signer of the next, the last naming the Abort's
// fault_peer. It returns the signers and the peer named last, or an
// error saying which notice fails. A chain that checks proves only that
// those players said they waited: it is still a fault, never a blame.
func checkChain(o *Opened, table []peer.ID) (signers []peer.ID, end peer.ID, err error) {
	a := o.Entry.GetAbort()
	if len(a.Waiting) > len(table) {
		return nil, "", fmt.Errorf("%d waiting notices at a table of %d", len(a.Waiting), len(table))
	}
	for i, b := range a.Waiting {
		n, err := Open(b)
		if err != nil {
			return nil, "", fmt.Errorf("waiting notice %d does not verify: %w", i+1, err)
		}
		w := n.Entry.GetWaiting()
		var named peer.ID
		if w != nil {
			named, err = peer.IDFromBytes(w.Peer)
		}
		switch {
		case w == nil:
			return nil, "", fmt.Errorf("waiting notice %d is a %s", i+1, n.Kind())
		case err != nil || !slices.Contains(table, named) || !slices.Contains(table, n.Sender):
			return nil, "", fmt.Errorf("waiting notice %d names a player outside the table", i+1)
		case string(n.Entry.GameId) != string(o.Entry.GameId) || n.Entry.Hand != o.Entry.Hand:
			return nil, "", fmt.Errorf("waiting notice %d is for another game or hand", i+1)
		case n.Entry.Seq != 0 || len(n.Entry.PrevHash) != 0 || n.Recipient != "":
			return nil, "", fmt.Errorf("waiting notice %d has chain fields or a recipient", i+1)
		case i > 0 && n.Sender != end:
			return nil, "", fmt.Errorf("waiting notice %d is signed by %s, not by the player the one before names", i+1, n.Sender)
		}
		signers, end = append(signers, n.Sender), named
	}
	return signers, end, nil
}

// nickOr returns p's announced nickname, or its short peer ID.
func (g *Game) nickOr(p peer.ID) string {
	if n := g.nicks[p]; n != "" {
		return n
	}
	return p.ShortString()
}
