package protocol

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
)

// DefaultTimeout is how long a player waits for an expected message before
// it aborts the hand and names the silent peer.
const DefaultTimeout = 30 * time.Second

// Config configures one player's side of a game.
type Config struct {
	// Table is the table name all four players must agree on.
	Table string
	// Identity is the player's libp2p private key (Ed25519); it signs
	// every message.
	Identity crypto.PrivKey
	// Peers are the four players' peer IDs, this player's included, in
	// any order.
	Peers []peer.ID
	// Nick is an optional display name announced in the Hello.
	Nick string
	// Hands is the number of hands to play; 0 plays a whole match (a
	// hanchan, or an east-only game with Tonpuu). The match may end
	// earlier (a player below zero).
	Hands int
	// Tonpuu plays an east-only match instead of a hanchan.
	Tonpuu bool
	// Transport carries messages to the other three players.
	Transport Transport
	// Transcript, if not nil, receives every message sent or received, as
	// it happens.
	Transcript *Transcript
	// Player chooses this player's actions; nil means Tsumogiri.
	Player Player
	// Timeout bounds the wait for each expected message from an automatic
	// step; 0 means DefaultTimeout.
	Timeout time.Duration
	// TurnTimeout bounds the wait for another player's turn, answer or
	// declaration (a human may think); 0 means Timeout.
	TurnTimeout time.Duration
	// DecisionTimeout bounds this player's own Player.Act. When it passes
	// the node acts for the player — it passes on a tile on offer,
	// discards the drawn tile on its turn, or declares as Tsumogiri would
	// at an exhaustive draw — and marks the message timed_out, so every
	// transcript names the player. 0 means TurnTimeout minus a margin for
	// the message to arrive (at least half of it).
	DecisionTimeout time.Duration
	// Rand is the source of keys, permutations and nonces; nil means
	// crypto/rand.Reader.
	Rand io.Reader
	// Logger receives progress; nil discards.
	Logger *slog.Logger
	// OnHand, if not nil, is called after each hand with its result.
	OnHand func(HandResult)
	// NoProofs plays without zero-knowledge proofs of the shuffle and
	// rekey passes: this player neither makes nor requires them, and a
	// bad pass is caught only by the end-of-hand replay. All four players
	// must choose the same; a player with proofs blames a peer whose pass
	// comes without them. The default (false) proves and verifies every
	// pass before play.
	NoProofs bool
	// Tamper, if not nil, lets a test or a cheating node rewrite an
	// outgoing message body before it is signed. Honest nodes leave it nil.
	Tamper func(hand uint32, to peer.ID, e *pb.Entry)

	// uncheckedActions lets this player send actions its own engine view
	// rejects: tests use it to make a cheater whose lies the others must
	// catch.
	uncheckedActions bool
}

// HandResult is the outcome of one hand as seen by this player.
type HandResult struct {
	// Number is the 1-based hand number.
	Number int
	// Seats are the four peer IDs in seat order (seat 0 = first East).
	Seats []peer.ID
	// Oya is the dealer's seat (0..3).
	Oya int
	// Dice are the two dice, 0-based (faces d+1).
	Dice [2]int
	// DoraIndicator is the tile at yama[5].
	DoraIndicator int
	// Yama is the audited wall, 136 Tenhou tile ids in yama order; nil if
	// the audit failed.
	Yama []int
	// Start is the match state the hand started from (round, honba,
	// kyotaku, dealer, scores); Result is how it ended (nil if aborted).
	Start  game.Deal
	Result *game.Result
	// Events counts the tsumo and rinshan draws, player actions and public
	// decryptions of the kyoku.
	Events int
	// Setup is the wall time from the hand's first message to the end of
	// the deal (seats and dice, 4 shuffle passes, 4 rekey passes, 53 tiles
	// decrypted).
	Setup time.Duration
	// DrawLatency holds, for each of this player's tsumo and rinshan
	// draws after the deal, the time from the start of the draw (every
	// answer to the previous dahai is in) to the drawn tile being
	// decrypted: the private decryption's one message time and CPU.
	DrawLatency []time.Duration
	// Duration is the hand's total wall time, audit included.
	Duration time.Duration
	// Blame lists players the audit found at fault; empty when it passed.
	Blame []Blame
	// TimedOut names, once per occurrence, the players whose node acted
	// for them after their decision timeout (Config.DecisionTimeout).
	TimedOut []peer.ID
	// Record is the audited hand as a Tenhou mjlog round; nil if the audit
	// failed.
	Record *mjlog.Round
}

// Game is one player's side of a game of several hands.
type Game struct {
	cfg    Config
	self   peer.ID
	others []peer.ID
	tiles  *commcrypto.TileTable
	log    *slog.Logger

	rules  game.Rules
	match  *game.Match
	gameID []byte
	nicks  map[peer.ID]string
	seats  []peer.ID // seat order, fixed by hand 1
	seq    uint64
	last   [32]byte
	chains chains
	hand   *hand                // hand in progress, receives entries
	params *shuffleproof.Params // shuffle-argument generators, built on first use
}

// NewGame checks cfg and returns a Game ready to Run. It returns an error
// naming the bad field: a missing identity or transport, a peer list that
// is not four distinct peers including this player, or Hands < 1.
func NewGame(cfg Config) (*Game, error) {
	if cfg.Identity == nil {
		return nil, errors.New("protocol: Config.Identity is required")
	}
	if cfg.Transport == nil {
		return nil, errors.New("protocol: Config.Transport is required")
	}
	if cfg.Hands < 0 {
		return nil, fmt.Errorf("protocol: Config.Hands = %d, want 0 (a whole match) or more", cfg.Hands)
	}
	self, err := peer.IDFromPrivateKey(cfg.Identity)
	if err != nil {
		return nil, fmt.Errorf("protocol: identity: %w", err)
	}
	if err := checkTablePeers(cfg.Peers, self); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	if cfg.Player == nil {
		cfg.Player = Tsumogiri{}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.TurnTimeout <= 0 {
		cfg.TurnTimeout = cfg.Timeout
	}
	if cfg.DecisionTimeout <= 0 {
		cfg.DecisionTimeout = max(cfg.TurnTimeout/2, cfg.TurnTimeout-5*time.Second)
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &Game{cfg: cfg, self: self, tiles: commcrypto.NewTileTable(), log: log, chains: chains{}}
	g.rules = game.TenhouRules(!cfg.Tonpuu, true, true)
	g.match = game.NewMatch(g.rules)
	for _, p := range sortPeers(cfg.Peers) {
		if p != self {
			g.others = append(g.others, p)
		}
	}
	return g, nil
}

// Self returns this player's peer ID.
func (g *Game) Self() peer.ID { return g.self }

// Seats returns the peer IDs in seat order once hand 1 has fixed the
// seating, nil before.
func (g *Game) Seats() []peer.ID { return g.seats }

// Run plays the configured number of hands: the Hello exchange, then each
// hand with its audit. It returns the results of the hands played and an
// error if a hand was aborted or its audit failed; a *BlameError in the
// chain names the peer at fault.
func (g *Game) Run(ctx context.Context) ([]HandResult, error) {
	if err := g.hello(ctx); err != nil {
		return nil, err
	}
	var results []HandResult
	for n := 1; g.cfg.Hands == 0 || n <= g.cfg.Hands; n++ {
		deal, ok := g.match.Next()
		if !ok {
			break
		}
		res, err := g.playHand(ctx, uint32(n), deal)
		if res != nil {
			results = append(results, *res)
			if g.cfg.OnHand != nil {
				g.cfg.OnHand(*res)
			}
		}
		if g.cfg.Transcript != nil {
			if serr := g.cfg.Transcript.Sync(); serr != nil && err == nil {
				err = serr
			}
		}
		if err != nil {
			if len(res.Blame) > 0 {
				var be *BlameError
				if !errors.As(err, &be) {
					err = &BlameError{Blame: res.Blame[0], Err: err}
				}
			}
			return results, err
		}
		if len(res.Blame) > 0 {
			return results, &BlameError{Blame: res.Blame[0], Err: fmt.Errorf("audit of hand %d failed", n)}
		}
		if err := g.match.End(res.Result); err != nil {
			return results, fmt.Errorf("hand %d: %w", n, err)
		}
	}
	return results, nil
}

// Record returns the game so far as a Tenhou mjlog game: the audited hands
// played, the players' nicknames in seat order, and owari once the match
// is over. It has no SHUFFLE tag: the walls came from the mental protocol,
// not from a Tenhou seed.
func (g *Game) Record(results []HandResult) *mjlog.Game {
	var names [Players]string
	for s, p := range g.seats {
		names[s] = g.nicks[p]
	}
	var rounds []mjlog.Round
	for _, r := range results {
		if r.Record != nil {
			rounds = append(rounds, *r.Record)
		}
	}
	if g.match.Over() {
		return record.Game(names, g.rules, rounds, g.match.Standings())
	}
	// An unfinished match has no final standings: no owari.
	mg := record.Game(names, g.rules, nil, game.Standings{})
	mg.Rounds = rounds
	return mg
}

// Nick returns the nickname peer p announced in its Hello ("" if none).
func (g *Game) Nick(p peer.ID) string { return g.nicks[p] }

// Standings returns the match standings after the hands played so far
// (final once the match is over).
func (g *Game) Standings() game.Standings { return g.match.Standings() }

// MatchOver reports whether the match has ended.
func (g *Game) MatchOver() bool { return g.match.Over() }

// hello exchanges Hello messages, checks that all four agree on table,
// version and peers, and derives the game id.
func (g *Game) hello(ctx context.Context) error {
	nonce := make([]byte, 16)
	if _, err := io.ReadFull(g.cfg.Rand, nonce); err != nil {
		return fmt.Errorf("hello nonce: %w", err)
	}
	peers := sortPeers(g.cfg.Peers)
	raw := make([][]byte, len(peers))
	for i, p := range peers {
		raw[i] = []byte(p)
	}
	length := "hanchan"
	if g.cfg.Tonpuu {
		length = "tonpuu"
	}
	mine := &pb.Hello{Table: g.cfg.Table, Version: Version, Peers: raw, Nick: g.cfg.Nick, Nonce: nonce, Hands: uint32(g.cfg.Hands), Length: length}
	if _, err := g.broadcast(ctx, 0, &pb.Entry{Body: &pb.Entry_Hello{Hello: mine}}); err != nil {
		return err
	}
	nonces := map[peer.ID][]byte{g.self: nonce}
	g.nicks = map[peer.ID]string{g.self: g.cfg.Nick}
	for _, p := range g.others {
		o, err := g.recv(ctx, p, 0, "hello", g.cfg.Timeout)
		if err != nil {
			return err
		}
		h := o.Entry.GetHello()
		if err := checkHello(h, mine); err != nil {
			return blamef(p, 0, err, "hello does not match ours")
		}
		nonces[p] = h.Nonce
		g.nicks[p] = h.Nick
		g.log.Info("peer joined", "peer", p, "nick", h.Nick)
	}
	g.gameID = gameID(g.cfg.Table, g.cfg.Peers, nonces)
	return nil
}

func checkHello(h, mine *pb.Hello) error {
	switch {
	case h.Version != mine.Version:
		return fmt.Errorf("protocol version %q, ours %q", h.Version, mine.Version)
	case h.Table != mine.Table:
		return fmt.Errorf("table %q, ours %q", h.Table, mine.Table)
	case len(h.Peers) != len(mine.Peers):
		return fmt.Errorf("%d peers, ours %d", len(h.Peers), len(mine.Peers))
	case len(h.Nonce) != 16:
		return fmt.Errorf("nonce of %d bytes, want 16", len(h.Nonce))
	case h.Hands != mine.Hands:
		return fmt.Errorf("wants %d hands, we want %d", h.Hands, mine.Hands)
	case h.Length != mine.Length:
		return fmt.Errorf("wants a %q match, we want %q", h.Length, mine.Length)
	case len(h.Nick) > 64:
		return fmt.Errorf("nick of %d bytes, at most 64", len(h.Nick))
	}
	for i := range h.Peers {
		if string(h.Peers[i]) != string(mine.Peers[i]) {
			return fmt.Errorf("peer list differs at %d", i)
		}
	}
	return nil
}

// seal fills in the header fields of e, signs it and records it.
func (g *Game) seal(hand uint32, to peer.ID, e *pb.Entry) (*Opened, error) {
	e.GameId = g.gameID
	e.Hand = hand
	e.Seq = g.seq
	if g.seq > 0 {
		e.PrevHash = g.last[:]
	}
	e.Sender = []byte(g.self)
	if to != "" {
		e.Recipient = []byte(to)
	}
	if g.cfg.Tamper != nil {
		g.cfg.Tamper(hand, to, e)
	}
	o, err := Seal(g.cfg.Identity, e)
	if err != nil {
		return nil, err
	}
	g.seq++
	g.last = o.Hash
	if err := g.record(o); err != nil {
		return nil, err
	}
	return o, nil
}

func (g *Game) record(o *Opened) error {
	if g.hand != nil {
		g.hand.entries = append(g.hand.entries, o)
	}
	if g.cfg.Transcript != nil {
		if err := g.cfg.Transcript.Append(o); err != nil {
			return fmt.Errorf("transcript: %w", err)
		}
	}
	return nil
}

// broadcast signs e and sends it to the other three players.
func (g *Game) broadcast(ctx context.Context, hand uint32, e *pb.Entry) (*Opened, error) {
	o, err := g.seal(hand, "", e)
	if err != nil {
		return nil, err
	}
	for _, p := range g.others {
		if err := g.cfg.Transport.Send(ctx, p, o.Envelope); err != nil {
			return nil, fmt.Errorf("send %s to %s: %w", o.Kind(), p, err)
		}
	}
	return o, nil
}

// sendTo signs e as a private message and sends it to one player.
func (g *Game) sendTo(ctx context.Context, hand uint32, to peer.ID, e *pb.Entry) error {
	o, err := g.seal(hand, to, e)
	if err != nil {
		return err
	}
	if err := g.cfg.Transport.Send(ctx, to, o.Envelope); err != nil {
		return fmt.Errorf("send %s to %s: %w", o.Kind(), to, err)
	}
	return nil
}

// recv waits up to timeout for the next message from peer from, verifies
// it (signature, sender, chain, game id, hand, recipient), records it, and
// checks that it is the expected kind. Every failure is a *BlameError
// naming the peer; an Abort from the peer wraps ErrAborted.
func (g *Game) recv(ctx context.Context, from peer.ID, hand uint32, want string, timeout time.Duration) (*Opened, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b, err := g.cfg.Transport.Recv(rctx, from)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, blamef(from, hand, err, "silent for %s while we waited for its %s", timeout, want)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("waiting for %s from %s: %w", want, from, ctx.Err())
		}
		return nil, blamef(from, hand, err, "connection lost while we waited for its %s", want)
	}
	o, err := Open(b)
	if err != nil {
		return nil, blamef(from, hand, err, "sent an unreadable message")
	}
	e := o.Entry
	switch {
	case o.Sender != from:
		return nil, blamef(from, hand, nil, "relayed a message signed by %s", o.Sender)
	case o.Recipient != "" && o.Recipient != g.self:
		return nil, blamef(from, hand, nil, "sent us a message addressed to %s", o.Recipient)
	}
	if err := g.chains.accept(o); err != nil {
		return nil, blamef(from, hand, err, "broke its hash chain")
	}
	switch {
	case hand > 0 && string(e.GameId) != string(g.gameID):
		return nil, blamef(from, hand, nil, "message for another game (id %x)", e.GameId)
	case hand == 0 && (len(e.GameId) != 0 || e.Seq != 0):
		return nil, blamef(from, hand, nil, "hello must open its chain (seq %d)", e.Seq)
	case e.Hand != hand:
		return nil, blamef(from, hand, nil, "message for hand %d during hand %d", e.Hand, hand)
	}
	if err := g.record(o); err != nil {
		return nil, err
	}
	if a := e.GetAbort(); a != nil {
		reason := a.Reason
		if len(reason) > 200 {
			reason = reason[:200]
		}
		return nil, &AbortError{Peer: from, Hand: int(hand), Reason: reason}
	}
	if got := o.Kind(); got != want {
		return nil, blamef(from, hand, nil, "sent a %s out of turn (expected its %s)", got, want)
	}
	return o, nil
}

// recvAny receives and records the next message from peer from of any
// kind, for collecting key reveals after an abort.
func (g *Game) recvAny(ctx context.Context, from peer.ID, hand uint32, timeout time.Duration) (*Opened, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b, err := g.cfg.Transport.Recv(rctx, from)
	if err != nil {
		return nil, err
	}
	o, err := Open(b)
	if err != nil {
		return nil, err
	}
	if o.Sender != from || o.Entry.Hand != hand || string(o.Entry.GameId) != string(g.gameID) || (o.Recipient != "" && o.Recipient != g.self) {
		return nil, fmt.Errorf("peer %s: unexpected message after abort", from)
	}
	if err := g.chains.accept(o); err != nil {
		return nil, err
	}
	return o, g.record(o)
}

// abort tells the other players why this player gives up the hand. Errors
// sending it are ignored: the hand is over either way.
func (g *Game) abort(ctx context.Context, hand uint32, reason error) {
	if g.gameID == nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	g.broadcast(sctx, hand, &pb.Entry{Body: &pb.Entry_Abort{Abort: &pb.Abort{Reason: reason.Error()}}})
}
