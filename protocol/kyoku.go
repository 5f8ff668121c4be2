package protocol

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// handHeader returns the NonceCommit fields that state the match state a
// hand starts from.
func handHeader(d game.Deal) *pb.NonceCommit {
	c := &pb.NonceCommit{Oya: uint32(d.Oya), Round: uint32(d.Round), Honba: uint32(d.Honba), Kyotaku: uint32(d.Kyotaku)}
	for _, s := range d.Scores {
		c.Scores = append(c.Scores, int32(s))
	}
	return c
}

// checkHeader compares a player's announced match state with ours.
func checkHeader(c *pb.NonceCommit, d game.Deal) error {
	want := handHeader(d)
	if c.Oya != want.Oya || c.Round != want.Round || c.Honba != want.Honba || c.Kyotaku != want.Kyotaku || !slices.Equal(c.Scores, want.Scores) {
		return fmt.Errorf("announces dealer %d round %d honba %d kyotaku %d scores %v, we have dealer %d round %d honba %d kyotaku %d scores %v",
			c.Oya, c.Round, c.Honba, c.Kyotaku, c.Scores, want.Oya, want.Round, want.Honba, want.Kyotaku, want.Scores)
	}
	return nil
}

// hiddenHaipai is a deal of n players (3 or 4) in which nobody's tiles
// are known: the public engine's view. In sanma seat 3 gets no haipai.
func hiddenHaipai(n int) [maxSeats][]wall.Tile {
	var out [maxSeats][]wall.Tile
	for s := range n {
		out[s] = slices.Repeat([]wall.Tile{game.Unknown}, wall.HaipaiSize)
	}
	return out
}

// playKyoku plays the hand under the rules engine from the dealer's first
// tsumo to the end of the kyoku. Every step is lockstep: the public
// tracker says what the kyoku waits for and from whom, this player sends
// its part, and receives the others'.
func (h *hand) playKyoku(ctx context.Context) error {
	g := h.g
	d := h.state
	d.Haipai = hiddenHaipai(h.n)
	d.DoraIndicator = h.dora
	k, err := game.NewKyoku(g.rules, d)
	if err != nil {
		return fmt.Errorf("starting the kyoku: %w", err)
	}
	h.t = newTracker(k, h.num, g.seats, h.openShown, h.checkRevealKey)
	h.t.trusted = g.self
	// A human seat's bank is per hand, as on Tenhou.
	g.cfg.Clock.NewHand()
	// From the first turn on, the next hand's passes go with the play.
	g.prepareNext(h)
	for {
		st, seats := h.t.next()
		h.observeKyoku(st, seats)
		switch st {
		case stepDone:
			h.res.Result = k.Result()
			h.res.Events = h.t.events + 1
			for _, s := range h.t.timedOut {
				h.res.TimedOut = append(h.res.TimedOut, h.peerAt(int(s)))
			}
			return nil
		case stepReveal:
			if err := h.publicReveal(ctx); err != nil {
				return err
			}
		case stepDraw:
			_, pos, _, _ := k.NextDraw()
			if live, rinshan := k.Draws(); live > 0 || rinshan > 0 {
				// The dealer's first tsumo was released with the haipai.
				if err := h.tsumo(ctx, int(seats[0]), pos, time.Now()); err != nil {
					return err
				}
			}
			if err := h.t.draw(); err != nil {
				return fmt.Errorf("tsumo: %w", err)
			}
		case stepTurn:
			if err := h.exchange(ctx, seats, "turn", g.cfg.TurnTimeout, h.myTurn); err != nil {
				return err
			}
		case stepAnswer:
			if err := h.exchange(ctx, seats, "answer", g.cfg.TurnTimeout, h.myAnswer); err != nil {
				return err
			}
		case stepCall:
			if err := h.exchange(ctx, seats, "call", g.cfg.Timeout, h.myCall); err != nil {
				return err
			}
		case stepDeclare:
			if err := h.exchange(ctx, seats, "declare", g.cfg.TurnTimeout, h.myDeclare); err != nil {
				return err
			}
		}
	}
}

// exchange is one lockstep step in which seats act: this player (if among
// them) sends its message first, then the others' arrive, each fed to the
// tracker.
func (h *hand) exchange(ctx context.Context, seats []game.Seat, kind string, timeout time.Duration, mine func(context.Context) (*pb.Entry, error)) error {
	g := h.g
	if slices.Contains(seats, game.Seat(h.seat)) {
		// A resumed game first takes its own prepared passes recorded
		// before this decision (sent while its player thought).
		if err := g.replayPrepared(ctx); err != nil {
			return err
		}
		o, err := h.replayedDecision(kind)
		if err != nil {
			return err
		}
		if o == nil {
			e, err := mine(ctx)
			if err != nil {
				return err
			}
			if o, err = g.broadcast(ctx, h.num, e); err != nil {
				return err
			}
		}
		if err := h.t.feed(o); err != nil {
			return fmt.Errorf("own %s rejected: %w", kind, err)
		}
	}
	for _, s := range seats {
		if int(s) == h.seat {
			continue
		}
		o, err := g.recv(ctx, h.peerAt(int(s)), h.num, kind, timeout)
		if err != nil {
			return err
		}
		if err := h.t.feed(o); err != nil {
			return err
		}
	}
	return nil
}

// replayedDecision returns, while a resumed game replays its transcript,
// this player's recorded message of kind in place of asking its Player
// again (nil when there is none: the game is live). A recorded answer
// that calls a tile also restores the call it announced, for the call
// message that follows it.
func (h *hand) replayedDecision(kind string) (*Opened, error) {
	r := h.g.replay
	if r == nil {
		return nil, nil
	}
	o := r.takeOwn(kind)
	if o == nil {
		return nil, nil
	}
	h.g.seq++
	h.g.last = o.Hash
	if err := h.g.record(o); err != nil {
		return nil, err
	}
	if a := o.Entry.GetAnswer(); a != nil && a.Kind != pb.AnswerKind_ANSWER_PASS {
		// r, not h.g.replay: recording the transcript's last record ends
		// the replay (h.g.replay is nil from there).
		if err := h.restoreCall(a.Kind, r); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// restoreCall sets h.call, after a replayed answer of kind, to the call
// the player made: the call message says which tiles, when the transcript
// r holds it; otherwise (the node stopped between the two) the first legal
// call of that kind, and the log says so.
func (h *hand) restoreCall(kind pb.AnswerKind, r *transcriptReplay) error {
	v, err := h.view()
	if err != nil {
		return err
	}
	me := game.Seat(h.seat)
	for _, a := range v.LegalActions(me) {
		if k, ok := answerKinds[a.Type]; ok && k == kind {
			a.Seat = me
			h.call = a
			if r.peekOwn() == nil {
				h.g.log.Warn("resume: the call's tiles were not yet sent; calling with the first legal choice", "call", a)
			}
			return nil
		}
	}
	return fmt.Errorf("resume: the replayed %s is not legal here", kind)
}

// publicReveal decrypts the due dora or ura-dora indicators in public:
// every player publishes its keys for them.
func (h *hand) publicReveal(ctx context.Context) error {
	g := h.g
	o, err := g.broadcast(ctx, h.num, h.release(h.t.pendingReveal()))
	if err != nil {
		return err
	}
	if err := h.t.feed(o); err != nil {
		return fmt.Errorf("own key release rejected: %w", err)
	}
	for j := 0; j < h.n; j++ {
		if j == h.seat {
			continue
		}
		o, err := g.recv(ctx, h.peerAt(j), h.num, "key release", g.cfg.Timeout)
		if err != nil {
			return err
		}
		if o.Recipient != "" {
			return blamef(o, h.num, BlameKey, nil, "sent a private key release during a public decryption")
		}
		if err := h.t.feed(o); err != nil {
			return err
		}
	}
	return nil
}

// checkRevealKey checks one seat's key for a publicly decrypted position
// against its commitment.
func (h *hand) checkRevealKey(seat, pos int, key commcrypto.Scalar) error {
	c, err := h.commitment(seat, pos)
	if err != nil {
		return err
	}
	if err := commcrypto.CheckCommitment(key, c); err != nil {
		return err
	}
	h.keys[pos][seat] = key
	return nil
}

// tsumo is the private decryption of one draw (live or rinshan) by seat
// drawer: the others send it their keys for the position, privately and
// in parallel.
func (h *hand) tsumo(ctx context.Context, drawer, pos int, since time.Time) error {
	g := h.g
	if drawer != h.seat {
		return g.sendTo(ctx, h.num, h.peerAt(drawer), h.release([]int{pos}))
	}
	tiles, err := h.receiveKeys(ctx, []int{pos}, true)
	if err != nil {
		return err
	}
	t := tiles[pos]
	h.mine[pos] = t
	h.res.DrawLatency = append(h.res.DrawLatency, time.Since(since))
	return nil
}

// view returns a private copy of the kyoku in which this player's own
// tiles are revealed, for its Player to decide on.
func (h *hand) view() (*game.Kyoku, error) {
	v := h.t.k.Clone()
	_, positions := v.Hand(game.Seat(h.seat))
	for _, pos := range positions {
		if err := v.Reveal(pos, h.mine[pos]); err != nil {
			return nil, fmt.Errorf("own tile at position %d: %w", pos, err)
		}
	}
	return v, nil
}

// decide asks the Player for this player's action and checks it is legal
// before anything is sent. If the Player does not decide within the
// decision timeout or its clock (decisionContext: a clock that stands
// still while an Attended player's screen is away), the node decides for
// it as Tsumogiri would and reports timedOut.
func (h *hand) decide(ctx context.Context) (a game.Action, timedOut bool, err error) {
	v, err := h.view()
	if err != nil {
		return game.Action{}, false, err
	}
	me := game.Seat(h.seat)
	// The inputs of the decision are here: the clock starts now, so the
	// network's delay is never charged to the player.
	clockLimit := h.g.cfg.Clock.Start()
	dctx, cancel := h.g.decisionContext(ctx, clockLimit)
	a, err = h.g.act(ctx, dctx, v.Clone(), me)
	expired := dctx.Err() != nil && ctx.Err() == nil
	cancel()
	h.g.cfg.Clock.Stop()
	if expired {
		// Info, not Warn: a time-out is part of the game (the table says
		// so to the player), not a fault of the node.
		h.g.log.Info("player did not decide in time; acting for it", "hand", h.num, "decision_timeout", h.g.cfg.DecisionTimeout, "clock", clockLimit)
		a, err = Tsumogiri{}.Act(ctx, v.Clone(), me)
		timedOut = true
	}
	a.Seat = me
	if m := h.g.cfg.Misbehavior; m != nil {
		// A cheater acts even where its Player finds nothing legal (a
		// noten hand in riichi at the exhaustive draw).
		if c, replaced := m.Act(v.Clone(), me, a); replaced {
			c.Seat = me
			return c, timedOut, nil
		}
	}
	if err != nil {
		return a, timedOut, fmt.Errorf("choosing an action: %w", err)
	}
	if !isLegal(v.LegalActions(me), a) {
		return a, timedOut, fmt.Errorf("player chose %s, which is not among its legal actions", a)
	}
	return a, timedOut, nil
}

// isLegal reports whether a is one of legal (tiles compared as multisets).
// Membership, not Apply: a win's legality does not need the ura-dora
// indicators, which are only revealed once the win is declared.
func isLegal(legal []game.Action, a game.Action) bool {
	want := slices.Sorted(slices.Values(a.Tiles))
	for _, l := range legal {
		if l.Type != a.Type || l.Riichi != a.Riichi {
			continue
		}
		if (a.Type == game.Discard || a.Type == game.Kakan) && l.Tile != a.Tile {
			continue
		}
		if slices.Equal(slices.Sorted(slices.Values(l.Tiles)), want) {
			return true
		}
	}
	return false
}

// positionsOf returns the positions in this player's concealed hand of
// tiles (each used once).
func (h *hand) positionsOf(tiles []wall.Tile) ([]int, error) {
	_, hand := h.t.k.Hand(game.Seat(h.seat))
	var out []int
	used := map[int]bool{}
	for _, t := range tiles {
		found := false
		for _, pos := range hand {
			if !used[pos] && h.mine[pos] == t {
				used[pos] = true
				out = append(out, pos)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("own hand holds no %s", t)
		}
	}
	return out, nil
}

func (h *hand) concealed() []int {
	_, hand := h.t.k.Hand(game.Seat(h.seat))
	return hand
}

func (h *hand) myTurn(ctx context.Context) (*pb.Entry, error) {
	a, timedOut, err := h.decide(ctx)
	if err != nil {
		return nil, err
	}
	m := &pb.Turn{Riichi: a.Riichi, TimedOut: timedOut}
	var positions []int
	switch a.Type {
	case game.Discard:
		m.Kind = pb.TurnKind_TURN_DAHAI
		positions, err = h.positionsOf([]wall.Tile{a.Tile})
	case game.Kakan:
		m.Kind = pb.TurnKind_TURN_KAKAN
		positions, err = h.positionsOf([]wall.Tile{a.Tile})
	case game.Kita:
		m.Kind = pb.TurnKind_TURN_KITA
		positions, err = h.positionsOf([]wall.Tile{a.Tile})
	case game.Ankan:
		m.Kind = pb.TurnKind_TURN_ANKAN
		positions, err = h.positionsOf(a.Tiles)
	case game.TsumoAgari:
		m.Kind, positions = pb.TurnKind_TURN_TSUMO, h.concealed()
	case game.KyuushuKyuuhai:
		m.Kind, positions = pb.TurnKind_TURN_KYUUSHU, h.concealed()
	default:
		return nil, fmt.Errorf("player chose %s on its turn", a.Type)
	}
	if err != nil {
		return nil, err
	}
	m.Shown = h.buildShown(positions)
	return &pb.Entry{Body: &pb.Entry_Turn{Turn: m}}, nil
}

var answerKinds = map[game.ActionType]pb.AnswerKind{
	game.Pass: pb.AnswerKind_ANSWER_PASS, game.Chi: pb.AnswerKind_ANSWER_CHI, game.Pon: pb.AnswerKind_ANSWER_PON,
	game.Daiminkan: pb.AnswerKind_ANSWER_DAIMINKAN, game.Ron: pb.AnswerKind_ANSWER_RON,
}

func (h *hand) myAnswer(ctx context.Context) (*pb.Entry, error) {
	a, timedOut, err := h.decide(ctx)
	if err != nil {
		return nil, err
	}
	kind, ok := answerKinds[a.Type]
	if !ok {
		return nil, fmt.Errorf("player answered a tile on offer with %s", a.Type)
	}
	h.call = a
	return &pb.Entry{Body: &pb.Entry_Answer{Answer: &pb.Answer{Kind: kind, TimedOut: timedOut}}}, nil
}

func (h *hand) myCall(context.Context) (*pb.Entry, error) {
	var positions []int
	var err error
	if h.call.Type == game.Ron {
		positions = h.concealed()
	} else {
		positions, err = h.positionsOf(h.call.Tiles)
	}
	if err != nil {
		return nil, err
	}
	return &pb.Entry{Body: &pb.Entry_Call{Call: &pb.Call{Kind: answerKinds[h.call.Type], Shown: h.buildShown(positions)}}}, nil
}

func (h *hand) myDeclare(ctx context.Context) (*pb.Entry, error) {
	a, timedOut, err := h.decide(ctx)
	if err != nil {
		return nil, err
	}
	switch a.Type {
	case game.Tenpai:
		return &pb.Entry{Body: &pb.Entry_Declare{Declare: &pb.Declare{Tenpai: true, Shown: h.buildShown(h.concealed()), TimedOut: timedOut}}}, nil
	case game.Noten:
		return &pb.Entry{Body: &pb.Entry_Declare{Declare: &pb.Declare{TimedOut: timedOut}}}, nil
	}
	return nil, fmt.Errorf("player declared %s at the exhaustive draw", a.Type)
}

// sameResult reports whether two kyoku results agree on how the kyoku
// ended and on every payment.
func sameResult(a, b *game.Result) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.End == b.End && a.Abort == b.Abort && a.Deltas == b.Deltas && a.Scores == b.Scores && a.Renchan == b.Renchan && len(a.Wins) == len(b.Wins)
}
