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

// hand is one player's state during one hand. The hand runs in lockstep:
// at every step each player knows which message it expects next from each
// peer, so a message of any other kind is out of turn.
type hand struct {
	g      *Game
	num    uint32
	oya    int
	seat   int // this player's seat
	n      int // the number of players, 3 or 4
	layout wall.Layout
	start  time.Time

	entries []*Opened // every entry of this hand, in processing order

	dice [2]int
	perm []int               // this player's shuffle permutation
	k    commcrypto.Scalar   // this player's global key
	r    []commcrypto.Scalar // this player's per-position keys, layout.Size (136 or 108)
	// deck[j] and wall[j] are the inputs of shuffle and rekey pass j
	// (j < n; deck[n] and wall[n] are the last outputs);
	// only those this player computes on (its own pass inputs and the
	// final wall) are decoded during the hand — the next player decodes
	// each pass at once, and the audit decodes all of them.
	deck [maxSeats + 1][]commcrypto.Element
	wall [maxSeats + 1][]commcrypto.Element
	// commits[j] holds seat j's layout.Size commitments as received (32 bytes
	// each); commitment decodes them on first use.
	commits [maxSeats][]byte
	decoded [maxSeats][]commcrypto.Element
	// keyCommits[j] is seat j's K_j = k_j·G from its proven shuffle pass
	// (unset when the table plays without proofs), shuffleEntry[j] that
	// signed pass (nil for this player's own), the evidence behind K_j.
	keyCommits   [maxSeats]commcrypto.Element
	shuffleEntry [maxSeats]*Opened
	// rekeyEntry[j] is seat j's signed rekey pass (nil for this player's
	// own), the evidence behind its commitments.
	rekeyEntry [maxSeats]*Opened

	// Received passes' proofs (passproofs.go): queued wait for the next
	// batch; checks are the batches under way or done, in order,
	// shuffleCheck[j] (and shuffleProof[j]) the one holding seat j's
	// shuffle pass; pending is the batch this player's next pass waits
	// for (nil when none).
	queued       []*passProof
	checks       []*verification
	shuffleCheck [maxSeats]*verification
	shuffleProof [maxSeats]*passProof
	pending      *verification

	// The pipelined setup (pipeline.go): prepared is set for a hand whose
	// passes began during the hand before it; passes counts the passes in
	// (0..2n, in order); early holds peers' passes that came before their
	// turn, by pass index; making delivers this player's own pass being
	// made (nil when none).
	prepared bool
	frozen   bool // the hand before ended early: nothing more is made or sent
	passes   int
	early    [maxPasses]*Opened
	making   chan madePass

	revealed bool // this player has broadcast its key reveal
	// lastPass is the hash of the last shuffle or rekey pass entry, the
	// input the next pass must name; nil before the first.
	lastPass []byte

	keys [][maxSeats]commcrypto.Scalar // known keys per position and seat
	// known[pos] is the tile id decrypted at pos during the hand (keys
	// checked against their commitments), −1 where none; nil before the
	// first decryption.
	known []int
	mine  map[int]wall.Tile // tiles this player has decrypted, by position
	dora  wall.Tile
	state game.Deal   // the match state the hand starts from
	t     *tracker    // the kyoku's public state
	call  game.Action // this player's answer, executed if it wins priority

	res HandResult
}

func (g *Game) playHand(ctx context.Context, num uint32, deal game.Deal) (*HandResult, error) {
	h := g.next
	if h == nil || h.num != num {
		h = g.newHand(num)
	}
	g.next = nil
	h.state, h.oya, h.start = deal, int(deal.Oya), time.Now()
	h.res.Number = int(num)
	h.res.Oya = h.oya
	h.res.Start = deal
	h.res.DoraIndicator = -1
	g.hand = h
	defer func() { g.hand = nil }()
	err := h.play(ctx)
	if err == nil {
		g.keepReveals(h)
	}
	if nh := g.next; err != nil && nh != nil {
		// The hand ended early, and the game with it: the next hand's
		// prepared passes are dropped. Those still read while the others'
		// key reveals are collected are checked all the same, so that a
		// bad pass is blamed on its sender even when another player's
		// Abort came first; nothing more of the next hand is sent.
		nh.frozen = true
		defer func() { g.next = nil }()
	}
	switch {
	case err != nil && ctx.Err() == nil:
		h.afterAbort(ctx, err)
		if nh := g.next; nh != nil {
			if b, _ := Verdict(nh.settle(), g.self, int(nh.num)); b != nil {
				h.res.Blame = appendBlame(h.res.Blame, *b)
			}
		}
	case err != nil:
		// Interrupted: tell the others this node quits, so that they
		// name it as what it is.
		g.abort(ctx, num, err)
		_, f := Verdict(err, g.self, int(num))
		h.res.Faults = appendFault(h.res.Faults, *f)
	}
	h.res.Duration = time.Since(h.start)
	g.handEnded = time.Now()
	h.res.Aborted = err != nil
	if err != nil {
		return &h.res, fmt.Errorf("hand %d: %w", num, err)
	}
	return &h.res, nil
}

// afterAbort ends a hand that stopped early. The player tells the others
// (an Abort, unless it is merely passing one on), and if the whole wall was
// rekeyed every player reveals its keys — the hand is void, so this leaks
// nothing about later hands — and the audit replays what it can, so that a
// bad shuffle or rekey pass is still blamed on the player who made it.
func (h *hand) afterAbort(ctx context.Context, cause error) {
	g := h.g
	// Every player that stops says so first, even when it passes on
	// another's Abort: its key reveal must never reach a peer that still
	// expects a move of the hand, or that peer would see it out of turn.
	g.abort(ctx, h.num, cause)
	if b, f := Verdict(cause, g.self, int(h.num)); b != nil {
		h.res.Blame = appendBlame(h.res.Blame, *b)
	} else {
		h.res.Faults = appendFault(h.res.Faults, *f)
	}
	if h.wall[h.n] == nil || h.r == nil {
		return
	}
	if g.cfg.PrivateHands {
		// Private hands: every pass was proven on arrival, so the reveal
		// could blame no pass, and it would show every concealed hand.
		return
	}
	if !h.revealed {
		if err := h.sendReveal(ctx); err != nil {
			return
		}
	}
	// Collect the others' reveals, passing over whatever they sent before
	// they learned of the abort. A short deadline: a peer that never got
	// this far will not reveal.
	wait := min(g.cfg.Timeout, 5*time.Second)
	for _, p := range g.others {
		for {
			o, err := g.recvAny(ctx, p, h.num, wait)
			if err != nil || o.Kind() == "key reveal" {
				break
			}
		}
	}
	a := h.runAudit(true)
	h.res.Blame = appendBlame(h.res.Blame, a.Blame...)
	h.res.Yama = a.Yama
}

func (h *hand) play(ctx context.Context) error {
	type step struct {
		name string
		run  func(context.Context) error
	}
	steps := []step{
		{"seats and dice", h.seatsAndDice},
		{"shuffle", h.shufflePasses},
		{"rekey", h.rekeyPasses},
		{"haipai", h.deal},
		{"dora indicator", h.revealDora},
		{"play", h.playKyoku},
		{"key reveal", h.revealKeys},
	}
	if h.prepared {
		// The passes began during the previous hand (pipeline.go).
		steps = []step{
			{"passes", h.finishPasses},
			{"seats, dice, haipai and dora indicator", h.startPrepared},
			{"play", h.playKyoku},
			{"key reveal", h.revealKeys},
		}
	}
	for _, s := range steps {
		h.g.log.Debug("hand step started", "hand", h.num, "step", s.name)
		if s.name == "play" {
			h.res.Pause = time.Since(h.g.handEnded)
		}
		h.observeStage(s.name)
		if err := s.run(ctx); err != nil {
			// A pass still being verified is settled first: a proof that
			// fails is the blame, whatever stopped the step.
			if verr := h.awaitPass(); verr != nil {
				return verr
			}
			if verr := h.settle(); verr != nil {
				return verr
			}
			return err
		}
		h.g.log.Debug("hand step done", "hand", h.num, "step", s.name, "elapsed", time.Since(h.start))
		if s.name == "haipai" {
			h.res.Setup = time.Since(h.start)
		}
	}
	return h.audit()
}

// dealPositions returns the yama positions dealt to seat s: its 13 haipai
// tiles in deal order and, for the dealer, the first live draw. Seats
// count modulo l.Players (3 or 4).
func dealPositions(l wall.Layout, oya, s int) []int {
	rel := (s - oya + l.Players) % l.Players
	ps := l.Haipai(rel)
	if rel == 0 {
		ps = append(ps, l.LiveDrawIndex(0, 0))
	}
	return ps
}

func (h *hand) peerAt(s int) peer.ID { return h.g.seats[s] }

func (h *hand) seatsAndDice(ctx context.Context) error {
	nonce, commits, err := h.commitNonces(ctx)
	if err != nil {
		return err
	}
	if _, err := h.g.broadcast(ctx, h.num, &pb.Entry{Body: &pb.Entry_NonceReveal{NonceReveal: &pb.NonceReveal{Nonce: nonce}}}); err != nil {
		return err
	}
	return h.openNonces(ctx, nonce, commits)
}

// commitNonces draws this player's seat nonce, broadcasts its NonceCommit
// with the match state the hand starts from, and receives and checks the
// others' (§10.1). It returns the nonce and the commitments by peer.
func (h *hand) commitNonces(ctx context.Context) ([]byte, map[peer.ID]*Opened, error) {
	g := h.g
	nonce := make([]byte, NonceSize)
	if _, err := g.cfg.Rand.Read(nonce); err != nil {
		return nil, nil, fmt.Errorf("nonce: %w", err)
	}
	mine := nonceCommitment(g.gameID, h.num, g.self, nonce)
	header := handHeader(h.state)
	header.Commitment = mine
	if _, err := g.broadcast(ctx, h.num, &pb.Entry{Body: &pb.Entry_NonceCommit{NonceCommit: header}}); err != nil {
		return nil, nil, err
	}
	commits := map[peer.ID]*Opened{}
	for _, p := range g.others {
		o, err := g.recv(ctx, p, h.num, "nonce commitment", g.cfg.Timeout)
		if err != nil {
			return nil, nil, err
		}
		c := o.Entry.GetNonceCommit()
		if len(c.Commitment) != 32 {
			return nil, nil, blamef(o, h.num, BlameDice, nil, "nonce commitment of %d bytes, want 32", len(c.Commitment))
		}
		if err := checkHeader(c, h.state); err != nil {
			return nil, nil, blamef(o, h.num, BlameState, err, "disagrees on the match state")
		}
		commits[p] = o
	}
	return nonce, commits, nil
}

// openNonces receives the others' nonce reveals (this player's own is
// sent), checks each against its commitment, and fixes the seating (hand
// 1) and the dice from the hand seed (§9.1).
func (h *hand) openNonces(ctx context.Context, nonce []byte, commits map[peer.ID]*Opened) error {
	g := h.g
	nonces := map[peer.ID][]byte{g.self: nonce}
	for _, p := range g.others {
		o, err := g.recv(ctx, p, h.num, "nonce reveal", g.cfg.Timeout)
		if err != nil {
			return err
		}
		n := o.Entry.GetNonceReveal().Nonce
		if len(n) != NonceSize {
			return blamef(o, h.num, BlameDice, nil, "revealed a nonce of %d bytes, want %d", len(n), NonceSize)
		}
		if string(nonceCommitment(g.gameID, h.num, p, n)) != string(commits[p].Entry.GetNonceCommit().Commitment) {
			return blameOn(p, h.num, BlameDice, evidenceOf(commits[p], o), nil, "revealed a nonce that does not open its commitment")
		}
		nonces[p] = n
	}
	seed := handSeed(g.gameID, h.num, nonces)
	if h.num == 1 {
		g.seats = seating(seed, g.cfg.Peers)
	}
	h.seat = slices.Index(g.seats, g.self)
	h.dice = dice(seed)
	h.res.Seats = slices.Clone(g.seats)
	h.res.Dice = h.dice
	return nil
}

// shufflePasses runs the shuffle passes in seat order, one per player:
// D ← π_j(k_j·D), starting from the tile points of the layout's set (136,
// or 108 in sanma). With proofs, every received pass's proof is queued;
// when the pass this player's own next pass builds on is in, the queue
// is verified as one batch in the background while this player makes and
// proves its own pass, which it sends only once the batch verified
// (passproofs.go).
func (h *hand) shufflePasses(ctx context.Context) error {
	g := h.g
	h.deck[0] = g.points
	for j := 0; j < h.n; j++ {
		if j == h.seat {
			body, err := h.makeShuffle(j)
			if err != nil {
				return err
			}
			o, err := g.broadcast(ctx, h.num, &pb.Entry{Body: &pb.Entry_Shuffle{Shuffle: body}})
			if err != nil {
				return err
			}
			h.setLastPass(o)
			continue
		}
		o, err := g.recv(ctx, h.peerAt(j), h.num, "shuffle pass", g.cfg.Timeout)
		if err != nil {
			return err
		}
		pp, err := h.takeShuffle(j, o)
		if err != nil {
			return err
		}
		if pp == nil {
			continue // no proofs: the audit replays the pass
		}
		h.queueProof(pp)
		if j+1 == h.seat || j == h.n-1 && h.seat == 0 {
			// This player's next pass (its shuffle, or the first rekey)
			// builds on this one: verify the queue while making it.
			h.pending = h.flushProofs()
		}
	}
	return nil
}

// makeShuffle makes this player's shuffle pass j on h.deck[j]: it draws
// the global key k_j and the permutation π_j from Config.Rand (in that
// order: a resumed game draws them again), locks and permutes the deck,
// proves it (with proofs), and waits for the verification of the pass it
// builds on (awaitPass) before it returns the pass body to send. Its
// errors are a failed draw or proof, or the blame on the previous pass.
func (h *hand) makeShuffle(j int) (*pb.ShufflePass, error) {
	g := h.g
	begin := time.Now()
	k, err := commcrypto.NewKey(g.cfg.Rand)
	if err != nil {
		return nil, fmt.Errorf("shuffle key: %w", err)
	}
	perm, err := commcrypto.Permutation(g.cfg.Rand, h.layout.Size)
	if err != nil {
		return nil, fmt.Errorf("shuffle permutation: %w", err)
	}
	locked := make([]commcrypto.Element, len(h.deck[j]))
	commcrypto.Parallel(len(locked), func(i int) { locked[i] = commcrypto.Lock(k, h.deck[j][i]) })
	next := make([]commcrypto.Element, len(locked))
	for i, p := range perm {
		next[i] = locked[p]
	}
	h.k = k
	h.perm = perm
	h.deck[j+1] = next
	body := &pb.ShufflePass{Deck: commcrypto.EncodeElements(next), Input: h.lastPass}
	locking := time.Since(begin)
	if !g.cfg.NoProofs {
		if err := h.proveShuffle(body, h.deck[j], next); err != nil {
			return nil, err
		}
		h.keyCommits[j] = commcrypto.Commit(k)
	}
	made := time.Since(begin)
	// The pass builds on the previous one: it leaves only once that
	// one's proof verified.
	if err := h.awaitPass(); err != nil {
		return nil, err
	}
	g.log.Debug("own pass made", "hand", h.num, "pass", "shuffle", "seat", j, "lock", locking, "lock+prove", made, "waited for the verification", time.Since(begin)-made)
	return body, nil
}

// takeShuffle checks seat j's shuffle pass o on arrival — its input, the
// deck's size and duplicates, and (when this player computes on it, or
// with proofs) the decoding of every element — and keeps it. With proofs
// it returns o's proof to verify (queueProof), whose verification alone
// sets K or returns the blame on o's sender; nil without. Its errors are
// FaultDiverged and the blame on a bad deck.
func (h *hand) takeShuffle(j int, o *Opened) (*passProof, error) {
	g := h.g
	proofs := !g.cfg.NoProofs
	sp := o.Entry.GetShuffle()
	if err := h.checkInput(o, sp.Input); err != nil {
		return nil, err
	}
	next, err := h.receiveDeck(sp.Deck, proofs || j+1 == h.seat || j+1 == h.n && h.seat == 0)
	if err != nil {
		return nil, blamef(o, h.num, BlameShuffle, err, "bad shuffle pass")
	}
	h.deck[j+1] = next
	if !proofs {
		return nil, nil
	}
	// Verified before this player sends its own pass, or anything else
	// that depends on this one.
	h.shuffleEntry[j] = o
	in, params, pctx := h.deck[j], g.shuffleParams(), proofContext(g.gameID, h.num, j, o.Sender)
	alone := func(pp *passProof) error {
		var err error
		pp.K, err = params.verifyShuffle(pctx, sp, in, next)
		if err != nil {
			return blamef(o, h.num, BlameShuffle, err, "shuffle pass %d (seq %d) fails its proof", j, o.Entry.Seq)
		}
		return nil
	}
	return &passProof{seat: j, shuffle: true, ctx: pctx, in: in, out: next, entry: o, alone: alone}, nil
}

// awaitPass waits for the background verification of the passes this
// player's next pass builds on, if one is under way, and takes in its
// results: nil once they verified, else the blame on the first that
// failed.
func (h *hand) awaitPass() error {
	v := h.pending
	if v == nil {
		return nil
	}
	h.pending = nil
	if err := v.await(); err != nil {
		return err
	}
	h.take(v)
	return nil
}

// checkInput checks that the pass o builds on the pass this player holds
// before it (input is its input field) and makes o the last pass. A
// mismatch is a fault, not a blame: either the previous player signed two
// passes and sent them to different players, or o's sender misstates what
// it got, and only comparing transcripts tells which — unless the input
// is another pass this player holds, which is a blame (passinput.go).
func (h *hand) checkInput(o *Opened, input []byte) error {
	if string(input) != string(h.lastPass) {
		if err := h.misplacedInput(o, input); err != nil {
			return err
		}
		return faultf("", h.num, FaultDiverged, nil, "the %s of %s builds on another pass than the one we hold (input %x, ours %x): the previous player may have sent different passes to different players; compare the players' transcripts", o.Kind(), o.Sender, input, h.lastPass)
	}
	h.setLastPass(o)
	return nil
}

// receiveDeck checks a received deck of layout.Size elements (136, or 108
// in sanma): its length and, on
// the bytes, that no two elements are equal (encodings are canonical, so
// a repeated encoding is a duplicated tile, caught at once). When decode
// is set — this player computes on the deck next — every element is also
// decoded strictly (canonical, not the identity) and returned.
func (h *hand) receiveDeck(b []byte, decode bool) ([]commcrypto.Element, error) {
	const size = commcrypto.ElementSize
	n := h.layout.Size
	if len(b) != n*size {
		return nil, fmt.Errorf("%d bytes, want %d elements of %d bytes", len(b), n, size)
	}
	seen := make(map[[size]byte]int, n)
	for i := 0; i < n; i++ {
		key := [size]byte(b[i*size : (i+1)*size])
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("elements %d and %d are equal: a tile is duplicated", j, i)
		}
		seen[key] = i
	}
	if !decode {
		return nil, nil
	}
	return commcrypto.DecodeElements(b, n)
}

// rekeyPasses runs the rekey passes in seat order, one per player: each player
// replaces its global key by a fresh key per position, C_i ← (r_i·k⁻¹)·C_i,
// and publishes the commitments R_i = r_i·G. As with the shuffle passes,
// the player next in turn verifies the queued proofs while it makes its
// own pass, and sends its own only once they verified; once the last pass
// is in, the proofs still queued are verified before the deal.
func (h *hand) rekeyPasses(ctx context.Context) error {
	g := h.g
	h.wall[0] = h.deck[h.n]
	for j := 0; j < h.n; j++ {
		if j == h.seat {
			body, err := h.makeRekey(j)
			if err != nil {
				return err
			}
			o, err := g.broadcast(ctx, h.num, &pb.Entry{Body: &pb.Entry_Rekey{Rekey: body}})
			if err != nil {
				return err
			}
			h.setLastPass(o)
			continue
		}
		o, err := g.recv(ctx, h.peerAt(j), h.num, "rekey pass", g.cfg.Timeout)
		if err != nil {
			return err
		}
		pp, err := h.takeRekey(j, o, h.keyCommit(j))
		if err != nil {
			return err
		}
		if pp == nil {
			continue // no proofs: the audit replays the pass
		}
		h.queueProof(pp)
		if j+1 == h.seat {
			// This player's rekey pass builds on this one.
			h.pending = h.flushProofs()
		}
	}
	// Every pass is in: the deal needs all of them verified.
	return h.settle()
}

// makeRekey makes this player's rekey pass j on h.wall[j]: it draws the
// layout.Size position keys r_{j,i} from Config.Rand in yama order,
// rekeys the wall by r_{j,i}·k_j⁻¹, commits to the keys, proves it (with
// proofs) and waits for the verification of the pass it builds on before
// it returns the pass body to send. Its errors are a failed draw or
// proof, or the blame on the previous pass.
func (h *hand) makeRekey(j int) (*pb.RekeyPass, error) {
	g := h.g
	size := h.layout.Size
	begin := time.Now()
	r := make([]commcrypto.Scalar, size)
	commits := make([]commcrypto.Element, size)
	for i := range r {
		var err error
		if r[i], err = commcrypto.NewKey(g.cfg.Rand); err != nil {
			return nil, fmt.Errorf("position key: %w", err)
		}
		h.keys[i][j] = r[i]
	}
	factors := commcrypto.RekeyFactors(r, h.k)
	next := make([]commcrypto.Element, size)
	commcrypto.Parallel(size, func(i int) {
		commits[i] = commcrypto.Commit(r[i])
		next[i] = commcrypto.Lock(factors[i], h.wall[j][i])
	})
	h.r = r
	h.wall[j+1] = next
	h.decoded[j] = commits
	body := &pb.RekeyPass{Wall: commcrypto.EncodeElements(next), Commitments: commcrypto.EncodeElements(commits), Input: h.lastPass}
	locking := time.Since(begin)
	if !g.cfg.NoProofs {
		if err := h.proveRekey(body, h.wall[j], next, commits, factors); err != nil {
			return nil, err
		}
	}
	made := time.Since(begin)
	if err := h.awaitPass(); err != nil {
		return nil, err
	}
	g.log.Debug("own pass made", "hand", h.num, "pass", "rekey", "seat", j, "lock", locking, "lock+prove", made, "waited for the verification", time.Since(begin)-made)
	return body, nil
}

// takeRekey checks seat j's rekey pass o on arrival — its input, the
// wall's size and duplicates, the commitments' size — and keeps it. With
// proofs it returns o's proof to verify against K_j (queueProof), whose
// verification alone sets commits or returns the blame on o's sender,
// with o and the same seat's shuffle pass as evidence; nil without.
// keyCommit returns K_j when that verification runs (it may wait for the
// shuffle pass's own verification: hand.keyCommit).
func (h *hand) takeRekey(j int, o *Opened, keyCommit func() (commcrypto.Element, error)) (*passProof, error) {
	g := h.g
	proofs := !g.cfg.NoProofs
	size := h.layout.Size
	rk := o.Entry.GetRekey()
	if err := h.checkInput(o, rk.Input); err != nil {
		return nil, err
	}
	next, err := h.receiveDeck(rk.Wall, proofs || j+1 == h.seat || j+1 == h.n)
	if err != nil {
		return nil, blamef(o, h.num, BlameRekey, err, "bad rekey pass wall")
	}
	if len(rk.Commitments) != size*commcrypto.ElementSize {
		return nil, blamef(o, h.num, BlameRekey, nil, "rekey pass has %d bytes of commitments, want %d", len(rk.Commitments), size*commcrypto.ElementSize)
	}
	h.wall[j+1] = next
	h.commits[j] = rk.Commitments
	h.rekeyEntry[j] = o
	h.decoded[j] = make([]commcrypto.Element, size)
	if !proofs {
		return nil, nil
	}
	in, shuffle, pctx, params := h.wall[j], h.shuffleEntry[j], proofContext(g.gameID, h.num, j, o.Sender), g.shuffleParams()
	alone := func(pp *passProof) error {
		K, err := keyCommit()
		if err != nil {
			return err
		}
		if pp.commits, err = commcrypto.DecodeElements(rk.Commitments, size); err != nil {
			return blamef(o, h.num, BlameRekey, err, "rekey pass commitments do not decode")
		}
		err = params.verifyRekey(pctx, K, rk, in, next, pp.commits)
		if err != nil {
			// The evidence: the rekey pass and the shuffle pass whose
			// key commitment K_j the proof is checked against.
			return blameOn(o.Sender, h.num, BlameRekey, evidenceOf(o, shuffle), err, "rekey pass %d (seq %d) fails its proof", j, o.Entry.Seq)
		}
		return nil
	}
	return &passProof{seat: j, ctx: pctx, in: in, out: next, entry: o, keyEntry: shuffle, alone: alone}, nil
}

// commitment returns seat j's commitment R_{j,pos}, decoding it strictly
// on first use; a bad encoding blames seat j.
func (h *hand) commitment(j, pos int) (commcrypto.Element, error) {
	if c := h.decoded[j][pos]; !c.IsZero() {
		return c, nil
	}
	const size = commcrypto.ElementSize
	c, err := commcrypto.DecodeElement(h.commits[j][pos*size : (pos+1)*size])
	if err != nil {
		return c, blamef(h.rekeyEntry[j], h.num, BlameRekey, err, "commitment for position %d does not decode", pos)
	}
	h.decoded[j][pos] = c
	return c, nil
}

// release returns a KeyRelease of this player's keys for positions.
func (h *hand) release(positions []int) *pb.Entry {
	kr := &pb.KeyRelease{Keys: make([]byte, 0, len(positions)*commcrypto.ScalarSize)}
	for _, p := range positions {
		kr.Positions = append(kr.Positions, uint32(p))
		kr.Keys = append(kr.Keys, h.r[p].Bytes()...)
	}
	return &pb.Entry{Body: &pb.Entry_KeyRelease{KeyRelease: kr}}
}

// acceptRelease checks that a KeyRelease from seat j covers exactly the
// expected positions and that every key matches j's commitment R_{j,i},
// then stores the keys. A failure blames seat j at once.
func (h *hand) acceptRelease(j int, o *Opened, want []int) error {
	kr := o.Entry.GetKeyRelease()
	if len(kr.Positions) != len(want) {
		return blamef(o, h.num, BlameKey, nil, "released keys for %d positions, expected %d", len(kr.Positions), len(want))
	}
	for n, pos := range kr.Positions {
		if int(pos) != want[n] {
			return blamef(o, h.num, BlameKey, nil, "released a key for position %d, expected %d", pos, want[n])
		}
	}
	keys, err := decodeKeys(kr.Keys, len(want))
	if err != nil {
		return blamef(o, h.num, BlameKey, err, "bad key release")
	}
	for n, pos := range want {
		c, err := h.commitment(j, pos)
		if err != nil {
			return err
		}
		if err := commcrypto.CheckCommitment(keys[n], c); err != nil {
			return blameOn(o.Sender, h.num, BlameKey, evidenceOf(h.rekeyEntry[j], o), err, "key for position %d fails its commitment", pos)
		}
		h.keys[pos][j] = keys[n]
	}
	return nil
}

// decodeKeys decodes n concatenated 32-byte canonical non-zero scalars.
func decodeKeys(b []byte, n int) ([]commcrypto.Scalar, error) {
	if len(b) != n*commcrypto.ScalarSize {
		return nil, fmt.Errorf("%d key bytes, want %d", len(b), n*commcrypto.ScalarSize)
	}
	out := make([]commcrypto.Scalar, n)
	for i := range out {
		var err error
		if out[i], err = commcrypto.DecodeScalar(b[i*commcrypto.ScalarSize : (i+1)*commcrypto.ScalarSize]); err != nil {
			return nil, fmt.Errorf("key %d: %w", i, err)
		}
	}
	return out, nil
}

// decrypt returns the tile at position pos from the players' known keys
// (four, or three in sanma): (Π_j r_{j,pos})⁻¹ · C_pos looked up among the
// tile points.
func (h *hand) decrypt(pos int) (wall.Tile, error) {
	ks := h.keys[pos][:h.n]
	for j := range ks {
		if ks[j].IsZero() {
			return -1, fmt.Errorf("position %d: key of seat %d unknown", pos, j)
		}
	}
	id, ok := h.g.tiles.Lookup(commcrypto.Decrypt(h.wall[h.n][pos], ks...))
	if !ok {
		return -1, faultf("", h.num, FaultBadWall, nil, "position %d does not decrypt to a tile: a shuffle or rekey pass is bad (the key reveal names who)", pos)
	}
	if h.known == nil {
		h.known = make([]int, h.layout.Size)
		for i := range h.known {
			h.known[i] = -1
		}
	}
	h.known[pos] = id
	return wall.Tile(id), nil
}

// deal is the private decryption of the haipai (and the dealer's first
// tsumo): every player sends each other player, privately and in
// parallel, its keys for that player's positions.
func (h *hand) deal(ctx context.Context) error {
	g := h.g
	for s := 0; s < h.n; s++ {
		if s == h.seat {
			continue
		}
		if err := g.sendTo(ctx, h.num, h.peerAt(s), h.release(dealPositions(h.layout, h.oya, s))); err != nil {
			return err
		}
	}
	tiles, err := h.receiveKeys(ctx, dealPositions(h.layout, h.oya, h.seat), true)
	if err != nil {
		return err
	}
	maps.Copy(h.mine, tiles)
	return nil
}

// receiveKeys collects the other players' keys for positions —
// private releases to this player (haipai, tsumo) or public ones (the dora
// indicator) — checks each against its commitment and decrypts the
// positions, returning their tiles.
func (h *hand) receiveKeys(ctx context.Context, positions []int, private bool) (map[int]wall.Tile, error) {
	g := h.g
	for j := 0; j < h.n; j++ {
		if j == h.seat {
			continue
		}
		o, err := g.recv(ctx, h.peerAt(j), h.num, "key release", g.cfg.Timeout)
		if err != nil {
			return nil, err
		}
		if private != (o.Recipient != "") {
			return nil, blamef(o, h.num, BlameKey, nil, "sent a key release to the wrong audience (private: %v)", o.Recipient != "")
		}
		if err := h.acceptRelease(j, o, positions); err != nil {
			return nil, err
		}
	}
	tiles := make(map[int]wall.Tile, len(positions))
	for _, pos := range positions {
		t, err := h.decrypt(pos)
		if err != nil {
			return nil, err
		}
		tiles[pos] = t
	}
	return tiles, nil
}

// revealDora is the public decryption of the dora indicator (yama[5], or
// yama[9] in sanma).
func (h *hand) revealDora(ctx context.Context) error {
	g := h.g
	pos := h.layout.DoraIndicatorIndex(0)
	if _, err := g.broadcast(ctx, h.num, h.release([]int{pos})); err != nil {
		return err
	}
	tiles, err := h.receiveKeys(ctx, []int{pos}, false)
	if err != nil {
		return err
	}
	t := tiles[pos]
	h.dora = t
	h.res.DoraIndicator = int(t)
	return nil
}

// revealKeys publishes this player's global key and all its per-position
// keys and collects the others', for the end-of-hand audit.
func (h *hand) revealKeys(ctx context.Context) error {
	g := h.g
	if err := h.sendReveal(ctx); err != nil {
		return err
	}
	for _, p := range g.others {
		if _, err := g.recv(ctx, p, h.num, "key reveal", g.cfg.Timeout); err != nil {
			return err
		}
	}
	return nil
}

func (h *hand) sendReveal(ctx context.Context) error {
	body := &pb.KeyReveal{GlobalKey: h.k.Bytes(), PositionKeys: make([]byte, 0, len(h.r)*commcrypto.ScalarSize)}
	for _, r := range h.r {
		body.PositionKeys = append(body.PositionKeys, r.Bytes()...)
	}
	if h.g.cfg.PrivateHands {
		body = privateReveal(h.t.k.RiichiCheckPositions(), h.r)
	}
	_, err := h.g.broadcast(ctx, h.num, &pb.Entry{Body: &pb.Entry_KeyReveal{KeyReveal: body}})
	h.revealed = true
	return err
}

func (h *hand) runAudit(partial bool) *HandAudit {
	return AuditHand(AuditInput{
		GameID:  h.g.gameID,
		Peers:   h.g.cfg.Peers,
		Seats:   h.g.seats,
		Hand:    h.num,
		Oya:     h.oya,
		Entries: h.entries,
		Tiles:   h.g.tiles,
		Partial: partial,
		Own:     &OwnPasses{Seat: h.seat, Perm: h.perm},
		// Every pass was verified on arrival when the table plays with
		// proofs (a pass without its proof was blamed then).
		ProofsVerified: !h.g.cfg.NoProofs,
		RequireProofs:  !h.g.cfg.NoProofs,
		Proofs:         h.g.cfg.Proofs,
		ShuffleParams:  h.g.params,
		Decoded:        h.decodedPasses(),
		Deal:           h.state,
		Rules:          h.g.rules,
		PrivateHands:   h.g.cfg.PrivateHands,
		Mine:           h.mine,
	})
}

// decodedPasses returns what this player decoded while it verified the
// passes, for the audit to reuse: the commitments of every seat whose rekey
// pass verified (or that it made) and the final wall; nil at a table
// without proofs, whose commitments are decoded one by one as needed.
func (h *hand) decodedPasses() *DecodedPasses {
	if h.g.cfg.NoProofs {
		return nil
	}
	d := &DecodedPasses{}
	for j := range h.n {
		if c := h.decoded[j]; len(c) == h.layout.Size && !slices.ContainsFunc(c, commcrypto.Element.IsZero) {
			d.Commitments[j] = c
		}
	}
	if w := h.wall[h.n]; len(w) == h.layout.Size {
		d.Wall = w
		d.Tiles = h.known
	}
	return d
}

// audit runs the end-of-hand audit over the entries of this hand — the
// same code `mentalmj audit` runs offline — and fills in the result.
func (h *hand) audit() error {
	a := h.runAudit(false)
	h.res.Yama = a.Yama
	h.res.Record = a.Record
	if len(a.Blame) == 0 && !sameResult(a.Result, h.res.Result) {
		return fmt.Errorf("audit: the replayed kyoku result differs from the one reached during the hand")
	}
	h.res.Events = a.Events
	h.res.Blame = a.Blame
	h.res.Faults = appendFault(h.res.Faults, a.Faults...)
	if a.DoraIndicator != h.res.DoraIndicator && len(a.Blame) == 0 {
		return fmt.Errorf("audit: dora indicator %d differs from the one decrypted during the hand (%d)", a.DoraIndicator, h.res.DoraIndicator)
	}
	return nil
}
