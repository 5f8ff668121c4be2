package protocol

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// The pipelined setup (the default; Config.NoPipeline turns it off;
// SPEC.md §22). While hand h is
// played, the players run the shuffle and rekey passes of hand h+1; when
// hand h ends, hand h+1 needs only its nonce commitments (which bind the
// match state hand h produced), then the nonce reveals, the haipai keys
// and the dora indicator, sent together.
//
// The passes of the next hand are driven by the same goroutine as the
// hand in play, never ahead of it:
//
//   - a peer's prepared pass is taken when the game reads that peer's
//     mailbox for a message of the hand in play (recvWithin) and finds it
//     there first: its header, input and deck are checked at once, and its
//     proof is verified in a goroutine of its own;
//   - this player's own pass is made (keys drawn, wall locked, proof made)
//     in a goroutine as soon as the pass it builds on is in, and is sent
//     only at an idle point, when the game waits for a message: play
//     always goes first, and the CPU work overlaps the other players'
//     moves and this player's own thinking time (a person's decision
//     takes seconds; the proofs take tens of milliseconds);
//   - a proof that fails is found at the next idle point and ends the hand
//     in play with the blame on the pass's sender.
//
// No key of hand h+1 leaves before hand h ends: the passes publish only
// locked decks, key commitments and proofs, which show nothing about any
// tile (SPEC.md §22).

// maxPasses bounds the passes of one hand: n shuffle and n rekey passes.
const maxPasses = 2 * maxSeats

// madePass is this player's own pass, made in the background.
type madePass struct {
	entry *pb.Entry
	err   error
}

// passAt returns the kind ("shuffle pass" or "rekey pass") and the seat of
// pass idx of a hand of n players, in the order shuffle 0..n−1, rekey
// 0..n−1 (SPEC.md §9.2).
func passAt(idx, n int) (kind string, seat int) {
	if idx < n {
		return "shuffle pass", idx
	}
	return "rekey pass", idx - n
}

// newHand returns hand num's state, before its match state is known.
func (g *Game) newHand(num uint32) *hand {
	h := &hand{
		g:      g,
		num:    num,
		n:      g.n,
		layout: g.layout,
		keys:   make([][maxSeats]commcrypto.Scalar, g.layout.Size),
		mine:   map[int]wall.Tile{},
	}
	if g.seats != nil {
		h.seat = slices.Index(g.seats, g.self)
	}
	return h
}

// prepareNext starts preparing the hand after cur as cur's kyoku begins:
// from then on the next hand's passes go with cur's play. It does nothing
// with Config.NoPipeline or when cur is the last hand wanted
// (Config.Hands).
func (g *Game) prepareNext(cur *hand) {
	if g.cfg.NoPipeline || g.cfg.Hands > 0 && int(cur.num) >= g.cfg.Hands || g.next != nil {
		return
	}
	h := g.newHand(cur.num + 1)
	h.prepared = true
	h.deck[0] = g.points
	g.next = h
	g.log.Debug("preparing the next hand's passes", "hand", h.num)
	h.advance()
}

// advance starts making this player's own pass when it is the next one
// due and it is not under way already.
func (h *hand) advance() {
	if h.passes >= 2*h.n || h.making != nil || h.frozen {
		return
	}
	kind, j := passAt(h.passes, h.n)
	if j != h.seat {
		return
	}
	ch := make(chan madePass, 1)
	h.making = ch
	// The own pass leaves only once every pass before it verified: it
	// depends on all of them. Those still queued are verified now, as
	// one batch, while the pass is made.
	h.flushProofs()
	checks := slices.Clone(h.checks)
	go func() {
		var m madePass
		if kind == "shuffle pass" {
			body, err := h.makeShuffle(j)
			m = madePass{&pb.Entry{Body: &pb.Entry_Shuffle{Shuffle: body}}, err}
		} else {
			body, err := h.makeRekey(j)
			m = madePass{&pb.Entry{Body: &pb.Entry_Rekey{Rekey: body}}, err}
		}
		for _, c := range checks {
			if err := c.await(); err != nil && m.err == nil {
				m.err = err
			}
		}
		ch <- m
	}()
}

// sendPass broadcasts this player's own pass m, made by advance, and
// takes in what that lets go on: passes that came early and the next own
// pass. Its errors are m's (a failed draw or proof, the blame on a pass
// it builds on) and broadcast's.
func (h *hand) sendPass(ctx context.Context, m madePass) error {
	h.making = nil
	if m.err != nil {
		return m.err
	}
	o, err := h.g.broadcast(ctx, h.num, m.entry)
	if err != nil {
		return err
	}
	h.setLastPass(o)
	h.passDone()
	return h.takeEarly()
}

// passDone counts a pass in; after the last shuffle pass the rekey passes
// start from its deck.
func (h *hand) passDone() {
	h.passes++
	if h.passes == h.n {
		h.wall[0] = h.deck[h.n]
	}
}

// takePass takes a peer's pass o of this hand, prepared while the hand
// before it is played. A pass may come before the one it builds on has
// been read (the previous player's mailbox was not read yet): it is held
// until its turn, at most one per seat and kind, so a peer cannot make
// this player hold more than one hand of passes. A second pass of one
// kind from one seat, or another kind than a pass, is out of turn: Blame
// with the entry. The pass in turn is checked at once (takeShuffle,
// takeRekey) and its proof verified in the background.
func (h *hand) takePass(o *Opened) error {
	j := slices.Index(h.g.seats, o.Sender)
	idx := -1
	switch o.Kind() {
	case "shuffle pass":
		idx = j
	case "rekey pass":
		idx = h.n + j
	}
	switch {
	case idx < 0 || j == h.seat:
		return blamef(o, h.num, BlameOutOfTurn, nil, "sent a %s for hand %d while hand %d is played (only the next hand's shuffle and rekey passes may come early)", o.Kind(), h.num, h.num-1)
	case idx < h.passes || h.early[idx] != nil:
		return blamef(o, h.num, BlameOutOfTurn, nil, "sent a second %s in hand %d (out of turn)", o.Kind(), h.num)
	}
	h.early[idx] = o
	return h.takeEarly()
}

// takeEarly takes the held passes that are now in turn, in order.
func (h *hand) takeEarly() error {
	for h.passes < 2*h.n && h.early[h.passes] != nil {
		o := h.early[h.passes]
		h.early[h.passes] = nil
		if err := h.takeInTurn(o); err != nil {
			return err
		}
	}
	h.advance()
	return nil
}

// takeInTurn checks pass o, the next in order, and queues its proof
// (passproofs.go); once the hand's last pass is in, the queue is verified
// in the background.
func (h *hand) takeInTurn(o *Opened) error {
	kind, j := passAt(h.passes, h.n)
	var pp *passProof
	var err error
	if kind == "shuffle pass" {
		pp, err = h.takeShuffle(j, o)
	} else {
		pp, err = h.takeRekey(j, o, h.keyCommit(j))
	}
	if err != nil {
		return err
	}
	h.passDone()
	if pp != nil {
		h.queueProof(pp)
	}
	if h.passes == 2*h.n {
		h.flushProofs()
	}
	return nil
}

// failed returns the blame of a background verification that has
// failed, nil while none has.
func (h *hand) failed() error {
	for _, c := range h.checks {
		select {
		case <-c.done:
			if c.err != nil {
				return c.err
			}
		default:
		}
	}
	return nil
}

// settle verifies the proofs still queued and waits for every background
// verification, taking in their results (each shuffle pass's K_j, each
// rekey pass's decoded commitments); the first failure, in pass order, is
// returned.
func (h *hand) settle() error {
	h.flushProofs()
	for _, c := range h.checks {
		if err := c.await(); err != nil {
			return err
		}
		h.take(c)
	}
	h.checks = nil
	return nil
}

// finishPasses runs what is left of a prepared hand's passes once the
// hand before it has ended: the passes not yet in are received in order,
// this player's own pass is sent if it has not been, and every proof
// must have verified before the hand goes on.
func (h *hand) finishPasses(ctx context.Context) error {
	g := h.g
	for h.passes < 2*h.n {
		kind, j := passAt(h.passes, h.n)
		if j == h.seat {
			h.advance()
			select {
			case m := <-h.making:
				if err := h.sendPass(ctx, m); err != nil {
					return err
				}
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		o, err := g.recv(ctx, h.peerAt(j), h.num, kind, g.cfg.Timeout)
		if err != nil {
			return err
		}
		if err := h.takeInTurn(o); err != nil {
			return err
		}
		if err := h.takeEarly(); err != nil {
			return err
		}
	}
	return h.settle()
}

// startPrepared opens a prepared hand once the hand before it has ended:
// the nonce commitments, which bind the match state the previous hand
// produced (§10.1), then, sent together without waiting, the nonce
// reveal, the haipai keys and the dora indicator's key; then the others'
// reveals, haipai keys and dora keys, each checked as in the hand without
// the pipeline. Two message times in all.
func (h *hand) startPrepared(ctx context.Context) error {
	g := h.g
	nonce, commits, err := h.commitNonces(ctx)
	if err != nil {
		return err
	}
	if _, err := g.broadcast(ctx, h.num, &pb.Entry{Body: &pb.Entry_NonceReveal{NonceReveal: &pb.NonceReveal{Nonce: nonce}}}); err != nil {
		return err
	}
	for s := 0; s < h.n; s++ {
		if s != h.seat {
			if err := g.sendTo(ctx, h.num, h.peerAt(s), h.release(dealPositions(h.layout, h.oya, s))); err != nil {
				return err
			}
		}
	}
	pos := h.layout.DoraIndicatorIndex(0)
	if _, err := g.broadcast(ctx, h.num, h.release([]int{pos})); err != nil {
		return err
	}
	if err := h.openNonces(ctx, nonce, commits); err != nil {
		return err
	}
	tiles, err := h.receiveKeys(ctx, dealPositions(h.layout, h.oya, h.seat), true)
	if err != nil {
		return err
	}
	maps.Copy(h.mine, tiles)
	h.res.Setup = time.Since(h.start)
	dora, err := h.receiveKeys(ctx, []int{pos}, false)
	if err != nil {
		return err
	}
	h.dora = dora[pos]
	h.res.DoraIndicator = int(h.dora)
	return nil
}

// idle is called by a wait for a message of hand in play: it sends this
// player's prepared pass if it is made, and returns the blame of a
// prepared pass whose proof failed. ready is the channel that delivers
// the own pass (nil when none is under way).
func (g *Game) idle(ctx context.Context) (ready <-chan madePass, err error) {
	nh := g.next
	if nh == nil || nh.frozen {
		// frozen: the hand in play ended early; its caller settles the
		// prepared passes' proofs.
		return nil, nil
	}
	if err := nh.failed(); err != nil {
		return nil, err
	}
	if g.replay != nil {
		// A resumed game replays its own prepared passes where the
		// transcript has them (replayPrepared), not when they are made.
		return nil, nil
	}
	select {
	case m := <-nh.making:
		if err := nh.sendPass(ctx, m); err != nil {
			return nil, err
		}
	default:
	}
	return nh.making, nil
}

// replayPrepared, while a resumed game replays its transcript, sends
// (that is, takes from the transcript) this player's prepared passes
// where the transcript recorded them: when the next record to match is
// one. It waits for the pass to be made again from the same seed.
func (g *Game) replayPrepared(ctx context.Context) error {
	for {
		r, nh := g.replay, g.next
		if r == nil || nh == nil || r.finished() {
			return nil
		}
		o := r.records[r.pos]
		if o.Sender != g.self || o.Entry.Hand != nh.num {
			return nil
		}
		nh.advance()
		if nh.making == nil {
			return fmt.Errorf("protocol: resume: %w: the transcript holds this node's %s of hand %d where it has none to make", ErrResumeMismatch, o.Kind(), nh.num)
		}
		select {
		case m := <-nh.making:
			if err := nh.sendPass(ctx, m); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// arrived takes an entry received from peer from while hand is played:
// an entry of the next hand, prepared in the pipeline, goes to it (skip
// is then set: the wait goes on); anything else is returned, an entry of
// another hand that checkEntry let through included (a peer's Abort from
// the opening reaching hand 1, while no hand is prepared yet).
func (g *Game) arrived(from peer.ID, hand uint32, env []byte) (o *Opened, skip bool, err error) {
	o, err = g.checkEntry(from, hand, env)
	if err != nil || o.Entry.Hand == hand || g.next == nil || o.Entry.Hand != g.next.num {
		return o, false, err
	}
	return nil, true, g.next.takePass(o)
}

// act asks the Player for this player's action on v (dctx bounds the
// decision). While the Player thinks — a person takes seconds — this
// player's prepared pass of the next hand, once made, is sent: the table
// waits for this player anyway, so the pass costs nobody any time, and
// the decision, once made, is returned at once (item 4 of issue 18). A
// pass that cannot be sent ends the hand like any failed send (ctx bounds
// it).
func (g *Game) act(ctx, dctx context.Context, v *game.Kyoku, me game.Seat) (game.Action, error) {
	nh := g.next
	if nh == nil || nh.frozen || g.replay != nil || nh.making == nil {
		return g.cfg.Player.Act(dctx, v, me)
	}
	type decision struct {
		a   game.Action
		err error
	}
	done := make(chan decision, 1)
	go func() {
		a, err := g.cfg.Player.Act(dctx, v, me)
		done <- decision{a, err}
	}()
	for {
		select {
		case d := <-done:
			return d.a, d.err
		case m := <-nh.making:
			if err := nh.sendPass(ctx, m); err != nil {
				return game.Action{}, err
			}
		}
	}
}
