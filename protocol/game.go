package protocol

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
	"github.com/mentalmj/mentalmj/wall"
)

// DefaultTimeout is how long a player waits for an expected message before
// it aborts the hand and names the silent peer.
const DefaultTimeout = 30 * time.Second

// Config configures one player's side of a game.
type Config struct {
	// Table is the table name all players must agree on.
	Table string
	// Identity is the player's libp2p private key (Ed25519); it signs
	// every message.
	Identity crypto.PrivKey
	// Peers are the players' peer IDs, this player's included, in any
	// order: four for riichi on the 136-tile wall, three for Tenhou
	// three-player (sanma) rules on the 108-tile wall (wall.ThreePlayer:
	// no 2m-8m, kita, TenhouSanmaRules). The count is announced in the
	// Hello; every player must give the same.
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
	// declaration (a human may think); 0 means Timeout. It should not
	// be shorter than Timeout: a player is named silent only after its
	// own waits had time to run out (see lateAbort).
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
	// Proofs names the proof system of the shuffle and rekey passes
	// (settings.ProofsLog, the default for "", or settings.ProofsTW),
	// announced in the Hello's settings; all players must choose the same.
	Proofs string
	// PrivateHands plays in private-hands mode: the end-of-hand key
	// reveal is limited to what the rules need (the concealed hand of a
	// riichi player the public engine could not check, see
	// doc.go "Private hands"); no global key and no other position key is
	// published, so the losers' concealed hands and the unseen wall stay
	// private, even from the offline audit, which then checks every proof
	// and every shown tile but not the Tenhou wall model. It requires
	// proofs: NewGame refuses it with NoProofs. All players must choose
	// the same (announced in Hello.settings.private_hands).
	PrivateHands bool
	// Rules are the table's house rules (package riichi/rules), announced in the
	// Hello (all players must give the same); the zero Set means
	// rules.Default(), Tenhou's.
	Rules rules.Set
	// Time is the table's time control, announced in the Hello (all
	// players must give the same); the zero Control is off. It sets the
	// limit of this player's decisions only through Clock.
	Time timecontrol.Control
	// Clock, if not nil, limits this player's own decisions (a human
	// seat's time control, see package riichi/timecontrol): each Player.Act may
	// take what Clock.Start returns, counted from when its inputs are at
	// this node, and never more than DecisionTimeout; when it runs out the
	// node acts for the player as for DecisionTimeout; its bank is
	// refilled as each hand's play begins (Clock.NewHand). nil (bots, mjai
	// seats) leaves DecisionTimeout alone.
	Clock *timecontrol.Clock
	// Observer, if not nil, sees the hand as it goes (see Observer).
	Observer Observer
	// Misbehavior, if not nil, makes this node cheat: research and tests
	// only. Honest nodes leave it nil.
	Misbehavior Misbehavior
	// ReconnectGrace is how long the table waits, paused, for a player
	// whose connection dropped to come back, when the Transport can
	// reconnect (Reconnecting); 0 means no waiting: a lost connection
	// ends the hand at once as a fault naming the peer. The nodes use
	// DefaultReconnectGrace.
	ReconnectGrace time.Duration
	// NoPipeline turns the pipelined setup off. By default (false) each
	// hand's shuffle and rekey passes, with their proofs, are prepared
	// during the hand before it (SPEC.md §22, pipeline.go): when a hand
	// ends, the next needs only its nonce exchange, haipai keys and dora
	// indicator, two message times instead of the whole setup. With
	// NoPipeline every hand runs its whole setup after the hand before
	// ends (§9.2). Announced in Hello.pipeline (true unless NoPipeline);
	// all players must choose the same: a mismatch is a configuration
	// fault at the Hello.
	NoPipeline bool
	// Resume, if not nil, resumes a game this node was playing when it
	// stopped (a crash, a kill): the game replays Resume.Records, the
	// transcript it wrote, with the same Rand (the seed kept in the data
	// directory), without sending anything again or asking its Player,
	// then asks the peers for what it missed and plays on live (see
	// "Reconnection and resume" in the package doc).
	Resume *Resume
	// Publish, if not nil, is given every public entry this player
	// records (an entry with no recipient: its own broadcasts and those it
	// receives), in the order it records them, numbered, for the table's
	// spectators: the topic's host publishes them (SPEC.md §25, package
	// node/spectate). It is never given a private entry (a key release to
	// one drawer, a Sync). It is called on the game's goroutine and must
	// not block.
	Publish func(PublicEntry)
	// Spectators is the table's spectator setting (settings.Spectators,
	// SPEC.md §25), announced in the Hello's settings: all players must
	// give the same (a Hello that differs is a FaultConfig). It only
	// names the setting: what is published goes to Publish.
	Spectators int
}

// HandResult is the outcome of one hand as seen by this player.
type HandResult struct {
	// Number is the 1-based hand number.
	Number int
	// Seats are the peer IDs in seat order (seat 0 = first East): four,
	// or three in sanma.
	Seats []peer.ID
	// Oya is the dealer's seat (0..3, 0..2 in sanma).
	Oya int
	// Dice are the two dice, 0-based (faces d+1).
	Dice [2]int
	// DoraIndicator is the first dora indicator's tile id (yama[5], or
	// yama[9] in sanma).
	DoraIndicator int
	// Yama is the audited wall, 136 Tenhou tile ids in yama order (108 in
	// sanma, wall.ThreePlayer); nil if the audit failed.
	Yama []int
	// Start is the match state the hand started from (round, honba,
	// kyotaku, dealer, scores); Result is how it ended (nil if aborted).
	Start  game.Deal
	Result *game.Result
	// Events counts the tsumo and rinshan draws, player actions and public
	// decryptions of the kyoku.
	Events int
	// Setup is the wall time from the hand's start on this node to the
	// end of the deal (seats and dice, 4 shuffle passes, 4 rekey passes,
	// 53 tiles decrypted). Without the pipeline (Config.NoPipeline) the
	// start is the hand's first message. A prepared hand (SPEC.md §22)
	// starts once the hand before it has ended, so its Setup is only what
	// was left on the critical path then (the commitments, the reveals,
	// the haipai keys): the passes made during the hand before are not in
	// it, and Pause, which contains it, is the wait a player sees.
	Setup time.Duration
	// DrawLatency holds, for each of this player's tsumo and rinshan
	// draws after the deal, the time from the start of the draw (every
	// answer to the previous dahai is in) to the drawn tile being
	// decrypted: the private decryption's one message time and CPU.
	DrawLatency []time.Duration
	// Duration is the hand's total wall time from its start (as for
	// Setup) to its end, audit included.
	Duration time.Duration
	// Pause is the wall time this player waited between hands: from the
	// end of the previous hand on this node (its audit done; for hand 1,
	// the end of the Hello exchange) to this hand's first turn being
	// playable (the dora indicator decrypted and the kyoku started). It
	// holds the setup and whatever the node did between the hands; 0 if
	// the hand stopped before its kyoku.
	Pause time.Duration
	// Blame lists the players proven to have cheated in this hand, each
	// with its signed evidence; empty when nobody was.
	Blame []Blame
	// Aborted reports that the hand stopped before its end: a check
	// failed on arrival, a player aborted or quit, a peer fell silent.
	// Blames of a hand that was not aborted come from its end-of-hand
	// audit.
	Aborted bool
	// Faults lists what stopped or spoiled the hand without proving a
	// cheat (silence, a lost connection, an Abort, a quit); empty when the
	// hand completed.
	Faults []Fault
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

	// n is the number of players (3 or 4), layout the wall layout for n,
	// points the tile points of its tile set (the first deck).
	n      int
	layout wall.Layout
	points []commcrypto.Element

	rules  game.Rules
	match  *game.Match
	gameID []byte
	nicks  map[peer.ID]string
	seats  []peer.ID // seat order, fixed by hand 1
	seq    uint64
	last   [32]byte
	chains chains
	hand   *hand // hand in progress, receives entries
	// next is the hand after the one in progress while its passes are
	// prepared (the pipelined setup, pipeline.go); nil otherwise.
	next *hand
	// knownPasses are the shuffle and rekey passes of the last hands,
	// by hash, for the input check (passinput.go).
	knownPasses map[[32]byte]passRef
	params      *ProofParams // the proof system's generators, built on first use
	// paramsCh delivers params built in the background (prepareProofs).
	paramsCh chan *ProofParams
	// peerLast is, once a Misbehavior has forked a broadcast, the hash of
	// the last entry each peer got from this node; nil for honest nodes.
	peerLast map[peer.ID][32]byte
	// links are the connections to the others (reconnect.go); replay is
	// the transcript being replayed by a resumed game (resume.go), nil
	// otherwise.
	links  *links
	replay *transcriptReplay
	// public counts the public entries recorded, for Config.Publish.
	public publicCounts
	// replayedSeal is set by seal when it returned an entry of the
	// replayed transcript, which is not sent again.
	replayedSeal bool
	// paused is set while the table waits for a peer to reconnect (the
	// Observer was told), until a wait finds every peer connected.
	paused bool
	// handEnded is when the previous hand ended on this node (its audit
	// done), or the Hello exchange did: where HandResult.Pause starts.
	handEnded time.Time
	// reveals are the entry hashes of every player's key reveal of the
	// last hand completed (keepReveals); cert is the result certificate
	// of the finished match, or certErr why there is none (result.go).
	reveals map[peer.ID][32]byte
	cert    *pb.Certificate
	certErr error
}

// NewGame checks cfg and returns a Game ready to Run. It returns an error
// naming the bad field: a missing identity or transport, a peer list that
// is not three or four distinct peers including this player, or Hands < 0.
// Four peers play Tenhou's four-player rules, three Tenhou's sanma rules
// (game.TenhouSanmaRules) on the 108-tile wall.
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
	if cfg.PrivateHands && cfg.NoProofs {
		return nil, errors.New("protocol: Config.PrivateHands needs the shuffle and rekey proofs; it cannot be combined with NoProofs")
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
	g.n = len(cfg.Peers)
	g.layout = layoutFor(g.n)
	g.points = deckPoints(g.tiles, g.layout)
	if cfg.Rules == (rules.Set{}) {
		cfg.Rules = rules.Default()
	} else if err := cfg.Rules.Check(); err != nil {
		return nil, fmt.Errorf("protocol: Config.Rules: %w", err)
	}
	g.cfg.Rules = cfg.Rules
	g.rules = cfg.Rules.Game(g.n, !cfg.Tonpuu)
	g.match = game.NewMatch(g.rules)
	for _, p := range sortPeers(cfg.Peers) {
		if p != self {
			g.others = append(g.others, p)
		}
	}
	g.links = newLinks(cfg.Transport, self, g.others, cfg.ReconnectGrace, log)
	g.links.key = func(e *pb.Entry) (*Opened, error) { return Seal(cfg.Identity, e) }
	if cfg.Resume != nil {
		r, err := newReplay(cfg.Resume, self, cfg.Peers)
		if err != nil {
			return nil, err
		}
		g.replay = r
		r.prime(g.links)
	}
	return g, nil
}

// Players returns the number of players at the table: 4, or 3 in sanma.
func (g *Game) Players() int { return g.n }

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
	g.prepareProofs()
	// The rules engine's shanten tables (≈ 270 ms of CPU) are built while
	// the Hellos go round, and the first hand waits for them: built on
	// first use they would contend with the first hand's passes.
	tables := make(chan struct{})
	go func() { riichi.PrepareTables(); close(tables) }()
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	g.links.start(pctx, g.replay != nil)
	if err := g.hello(ctx); err != nil {
		// Say why in the transcript (and to whoever still listens), so that
		// the offline audit names the same peer the live node did.
		g.abort(ctx, 0, err)
		return nil, err
	}
	g.handEnded = time.Now()
	select {
	case <-tables:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var results []HandResult
	for n := 1; g.cfg.Hands == 0 || n <= g.cfg.Hands; n++ {
		deal, ok := g.match.Next()
		if !ok {
			if nh := g.next; nh != nil {
				// The transcript holds them; the audit reports them as
				// dropped unused (AuditTranscript's Dropped).
				g.log.Info("match over: the next hand's prepared passes are dropped unused", "hand", nh.num, "passes", nh.passes)
				g.next = nil
			}
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
	if !g.match.Over() {
		g.certErr = errors.New("the match did not end (a set number of hands): no result certificate")
	} else {
		g.cert, g.certErr = g.certify(ctx, uint32(len(results)), len(results), g.reveals)
		if g.certErr != nil {
			g.log.Warn("no result certificate", "err", g.certErr)
		}
	}
	return results, nil
}

// Certificate returns the result certificate of a finished match, signed
// by every player (SPEC.md §23), once Run has returned; or an error
// saying why there is none (the match did not end, a player did not
// sign, or signed another result).
func (g *Game) Certificate() (*pb.Certificate, error) {
	if g.cert == nil && g.certErr == nil {
		return nil, errors.New("no result certificate: the game has not ended")
	}
	return g.cert, g.certErr
}

// keepReveals keeps the entry hashes of every player's key reveal of hand
// h, which completed: the heads of their chains should h be the last.
func (g *Game) keepReveals(h *hand) {
	g.reveals = map[peer.ID][32]byte{}
	for _, o := range h.entries {
		if o.Entry.Hand == h.num && o.Entry.GetKeyReveal() != nil {
			g.reveals[o.Sender] = o.Hash
		}
	}
}

// Record returns the game so far as a Tenhou mjlog game: the audited hands
// played, the players' nicknames in seat order, and owari once the match
// is over. It has no SHUFFLE tag: the walls came from the mental protocol,
// not from a Tenhou seed.
func (g *Game) Record(results []HandResult) *mjlog.Game {
	var names [maxSeats]string
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

// Nicks returns a copy of the nicknames the players announced in their
// Hellos, by peer (empty before the Hellos).
func (g *Game) Nicks() map[peer.ID]string { return maps.Clone(g.nicks) }

// Nick returns the nickname peer p announced in its Hello ("" if none).
func (g *Game) Nick(p peer.ID) string { return g.nicks[p] }

// Standings returns the match standings after the hands played so far
// (final once the match is over).
func (g *Game) Standings() game.Standings { return g.match.Standings() }

// MatchOver reports whether the match has ended.
func (g *Game) MatchOver() bool { return g.match.Over() }

// hello exchanges Hello messages, checks that all players agree on table,
// version, peers and match length, and derives the game id. It sends its
// own Hello to every peer before it reads theirs and reads all three
// before it judges, so a node whose configuration differs is named as
// such by every node: by the three others, and by itself (FaultConfig).
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
	mine := &pb.Hello{Table: g.cfg.Table, Version: Version, Peers: raw, Nick: g.cfg.Nick, Nonce: nonce, Settings: g.settings().Proto(), Pipeline: !g.cfg.NoPipeline}
	_, sendErr := g.broadcast(ctx, 0, &pb.Entry{Body: &pb.Entry_Hello{Hello: mine}})
	if errors.Is(sendErr, ErrResumeMismatch) {
		return sendErr // this node's own game differs from its transcript
	}
	hellos := map[peer.ID]*pb.Hello{g.self: mine}
	var firstErr error
	for p, got := range g.gather(ctx, 0, "hello", g.cfg.Timeout) {
		if got.err != nil {
			firstErr = cmp.Or(firstErr, got.err)
			continue
		}
		h := got.o.Entry.GetHello()
		if err := validHello(h); errors.Is(err, settings.ErrUnknown) {
			// Settings this build cannot honour (a newer program's rule
			// switch, say): the sender follows other rules, it does not
			// cheat.
			firstErr = cmp.Or[error](firstErr, faultf(p, 0, FaultConfig, err, "its hello asks for a game this node cannot play: %v", err))
			continue
		} else if err != nil {
			firstErr = cmp.Or[error](firstErr, blamef(got.o, 0, BlameHello, err, "sent an invalid hello"))
			continue
		}
		hellos[p] = h
	}
	if err := g.configMismatch(hellos); err != nil {
		// Stay a moment, so that our own Hello reaches everyone before this
		// node goes away and each of them can name the node that differs.
		select {
		case <-ctx.Done():
		case <-time.After(helloLinger):
		}
		return err
	}
	if err := cmp.Or(firstErr, sendErr); err != nil {
		return err
	}
	nonces := map[peer.ID][]byte{}
	g.nicks = map[peer.ID]string{}
	for p, h := range hellos {
		nonces[p] = h.Nonce
		g.nicks[p] = h.Nick
		if p != g.self {
			g.log.Info("peer joined", "peer", p, "nick", h.Nick)
		}
	}
	g.gameID = gameID(g.cfg.Table, g.cfg.Peers, nonces)
	g.links.setGameID(g.gameID)
	return nil
}

// helloLinger is how long a node whose table disagrees stays before it
// returns, so that its Hello reaches the others.
const helloLinger = time.Second

// received is one peer's next entry, or why there is none.
type received struct {
	o   *Opened
	err error
}

// gather receives the next entry of kind want from every other player,
// waiting up to timeout in all (not counting the time the table is paused
// for a peer to reconnect), and returns them by peer, verified and
// recorded in the peers' table order. The peers' pumps read all of them
// at once, so a slow peer does not delay reading the others.
func (g *Game) gather(ctx context.Context, hand uint32, want string, timeout time.Duration) map[peer.ID]received {
	out := make(map[peer.ID]received, len(g.others))
	b := &budget{left: timeout, total: timeout}
	for _, p := range g.others {
		o, err := g.recvWithin(ctx, p, hand, want, b)
		if err == nil && o.Entry.GetAbort() != nil {
			err = abortError(o, g.cfg.Peers)
		} else if err == nil && o.Kind() != want {
			err = blamef(o, hand, BlameOutOfTurn, nil, "sent a %s out of turn (expected its %s)", o.Kind(), want)
		}
		out[p] = received{o, err}
	}
	return out
}

// validHello checks the fields of a Hello that do not depend on the
// table's configuration. A Hello of another protocol version passes: the
// comparison of the Hellos (checkHello) names it a configuration
// mismatch, whatever else it holds. Settings this build cannot honour
// (an unknown field, preset or rule switch) give an error wrapping
// settings.ErrUnknown, a configuration fault; anything else out of range
// is an invalid hello.
func validHello(h *pb.Hello) error {
	if h.Version != Version {
		return nil
	}
	s, err := settings.FromProto(h.Settings)
	switch {
	case errors.Is(err, settings.ErrUnknown):
		return err
	case err != nil:
		return fmt.Errorf("settings: %w", err)
	case len(h.Nonce) != 16:
		return fmt.Errorf("nonce of %d bytes, want 16", len(h.Nonce))
	case len(h.Nick) > 64:
		return fmt.Errorf("nick of %d bytes, at most 64", len(h.Nick))
	case s.Players != len(h.Peers):
		return fmt.Errorf("lists %d peers for a %d-player game", len(h.Peers), s.Players)
	}
	return nil
}

// helloSettings returns the settings of a Hello validHello passed (the
// zero Settings for a Hello of another version).
func helloSettings(h *pb.Hello) settings.Settings {
	s, _ := settings.FromProto(h.Settings)
	return s
}

// canonicalProofs returns the settings.Settings.Proofs form of a proof
// system name: "" for the default (settings.ProofsLog), else the name.
func canonicalProofs(system string) string {
	if system == settings.ProofsLog {
		return ""
	}
	return system
}

// settings returns the settings this player announces in its Hello.
func (g *Game) settings() settings.Settings {
	return settings.Settings{Players: g.n, Tonpuu: g.cfg.Tonpuu, Hands: g.cfg.Hands, Rules: g.cfg.Rules, Time: g.cfg.Time, NoProofs: g.cfg.NoProofs, PrivateHands: g.cfg.PrivateHands, NoPipeline: g.cfg.NoPipeline, Proofs: canonicalProofs(g.cfg.Proofs), Spectators: g.cfg.Spectators}
}

// configMismatch compares the Hellos received (this player's included)
// and returns a *FaultError of kind FaultConfig naming the node that
// differs: a node outside the largest group of agreeing Hellos, or this
// node itself when the others agree with each other and not with it.
func (g *Game) configMismatch(hellos map[peer.ID]*pb.Hello) error {
	odd, ref, agree := oddHello(hellos, append([]peer.ID{g.self}, g.others...), g.self)
	if odd == "" {
		return nil
	}
	mine := hellos[g.self]
	if err := checkHello(mine, ref); err != nil {
		return faultf(g.self, 0, FaultConfig, err, "this node's configuration differs from that of the %d other players, who agree with each other: theirs is %v (check --table, the peers and the match length)", agree, checkHello(ref, mine))
	}
	return faultf(odd, 0, FaultConfig, nil, "its configuration differs from ours and the table's: %v", checkHello(hellos[odd], mine))
}

// oddHello finds the configuration the most Hellos agree on (a tie goes to
// the group of prefer) and returns the first peer in order whose Hello
// differs from it ("" when all agree), that configuration's Hello, and
// how many peers hold it.
func oddHello(hellos map[peer.ID]*pb.Hello, order []peer.ID, prefer peer.ID) (odd peer.ID, ref *pb.Hello, agree int) {
	supporters := func(p peer.ID) int {
		n := 0
		for _, q := range order {
			if hellos[q] != nil && checkHello(hellos[q], hellos[p]) == nil {
				n++
			}
		}
		return n
	}
	best, most := peer.ID(""), -1
	if hellos[prefer] != nil {
		best, most = prefer, supporters(prefer)
	}
	for _, p := range order {
		if hellos[p] != nil {
			if n := supporters(p); n > most {
				best, most = p, n
			}
		}
	}
	if best == "" {
		return "", nil, 0
	}
	for _, p := range order {
		if hellos[p] != nil && checkHello(hellos[p], hellos[best]) != nil {
			return p, hellos[best], most
		}
	}
	return "", hellos[best], most
}

// checkHello returns nil if h agrees with mine on version, table, peers
// and settings, else an error saying what h has that differs.
func checkHello(h, mine *pb.Hello) error {
	switch {
	case h.Version != mine.Version:
		return fmt.Errorf("protocol version %q, ours %q", h.Version, mine.Version)
	case h.Table != mine.Table:
		return fmt.Errorf("table %q, ours %q", h.Table, mine.Table)
	}
	if err := helloSettings(h).Diff(helloSettings(mine)); err != nil {
		return err
	}
	if h.Pipeline != mine.Pipeline {
		return fmt.Errorf("plays with pipeline = %v, we play with pipeline = %v (--no-pipeline must be the same for all players)", h.Pipeline, mine.Pipeline)
	}
	if len(h.Peers) != len(mine.Peers) {
		return fmt.Errorf("%d peers, ours %d", len(h.Peers), len(mine.Peers))
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
		if last, ok := g.peerLast[to]; ok {
			e.PrevHash = last[:] // a forked chain (Misbehavior)
		}
	}
	e.Sender = []byte(g.self)
	if to != "" {
		e.Recipient = []byte(to)
	}
	if g.cfg.Misbehavior != nil {
		g.cfg.Misbehavior.Entry(hand, to, e)
	}
	g.replayedSeal = false
	if r := g.replay; r != nil {
		if o, ok, err := r.own(e); ok || err != nil {
			if err != nil {
				return nil, err
			}
			g.replayedSeal = true
			g.seq++
			g.last = o.Hash
			return o, g.record(o)
		}
	}
	o, err := Seal(g.cfg.Identity, e)
	if err != nil {
		return nil, err
	}
	g.seq++
	g.last = o.Hash
	if _, ok := g.peerLast[to]; ok {
		g.peerLast[to] = o.Hash
	}
	if err := g.record(o); err != nil {
		return nil, err
	}
	return o, nil
}

func (g *Game) record(o *Opened) error {
	pub := g.public.count(o)
	if g.next != nil && o.Entry.Hand == g.next.num {
		g.next.entries = append(g.next.entries, o)
	} else if g.hand != nil {
		g.hand.entries = append(g.hand.entries, o)
	}
	if r := g.replay; r != nil {
		if done, err := r.recorded(o); done || err != nil {
			if err == nil && r.finished() {
				g.resumed()
			}
			return err
		}
	}
	if pub != nil && g.cfg.Publish != nil {
		g.cfg.Publish(*pub)
	}
	if g.cfg.Transcript != nil {
		if err := g.cfg.Transcript.Append(o); err != nil {
			return fmt.Errorf("transcript: %w", err)
		}
	}
	return nil
}

// broadcast signs e and sends it to the other three players at once. A
// peer that cannot be reached does not stop the others from getting the
// message; the first failure is returned as a FaultError naming its peer.
func (g *Game) broadcast(ctx context.Context, hand uint32, e *pb.Entry) (*Opened, error) {
	if m := g.cfg.Misbehavior; m != nil {
		if mode := m.Fork(hand, e); mode != NoFork || g.peerLast != nil {
			return g.forkedBroadcast(ctx, hand, e, mode == ForkNaive)
		}
	}
	o, err := g.seal(hand, "", e)
	if err != nil {
		return nil, err
	}
	if g.replayedSeal {
		return o, nil // sent before the restart; the peers ask for it if they missed it
	}
	errs := make([]error, len(g.others))
	var wg sync.WaitGroup
	for i, p := range g.others {
		wg.Go(func() { errs[i] = g.send(ctx, hand, p, o) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return o, g.sendFault(ctx, g.others[i], hand, o.Kind(), err)
		}
	}
	return o, nil
}

// send hands o's envelope to peer to (through the Misbehavior's Envelope,
// if any), and keeps it for sending again should the peer miss it.
func (g *Game) send(ctx context.Context, hand uint32, to peer.ID, o *Opened) error {
	env := o.Envelope
	if m := g.cfg.Misbehavior; m != nil {
		if env = m.Envelope(hand, to, env); env == nil {
			return nil
		}
	}
	return g.links.send(ctx, to, o.Entry.Seq, env)
}

// forkedBroadcast signs a copy of e for each other player under one
// sequence number, as Misbehavior.Fork asks, records the first and sends
// each to its player. Unless naive, from the first fork on each peer's
// entries chain to the last entry that peer got (peerLast), so that no
// peer sees a broken chain: only comparing transcripts shows the fork.
func (g *Game) forkedBroadcast(ctx context.Context, hand uint32, e *pb.Entry, naive bool) (*Opened, error) {
	seq, last := g.seq, g.last
	if g.peerLast == nil && !naive {
		g.peerLast = map[peer.ID][32]byte{}
		for _, p := range g.others {
			g.peerLast[p] = last
		}
	}
	var first *Opened
	for _, p := range g.others {
		c := proto.Clone(e).(*pb.Entry)
		c.GameId, c.Hand, c.Seq, c.Sender = g.gameID, hand, seq, []byte(g.self)
		if seq > 0 {
			prev := last
			if l, ok := g.peerLast[p]; ok {
				prev = l
			}
			c.PrevHash = prev[:]
		}
		g.cfg.Misbehavior.Entry(hand, p, c)
		o, err := Seal(g.cfg.Identity, c)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = o
			if err := g.record(o); err != nil {
				return nil, err
			}
		}
		if g.peerLast != nil {
			g.peerLast[p] = o.Hash
		}
		if err := g.send(ctx, hand, p, o); err != nil {
			return nil, g.sendFault(ctx, p, hand, o.Kind(), err)
		}
	}
	g.seq, g.last = seq+1, first.Hash
	return first, nil
}

// sendFault is the error for a message that could not be sent to p. A
// peer that ended the hand with an Abort and went away is named by its
// Abort, not as a lost connection: the messages it sent before it left
// are read first.
func (g *Game) sendFault(ctx context.Context, p peer.ID, hand uint32, kind string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("send %s to %s: %w", kind, p, err)
	}
	for range maxDrain {
		o, rerr := g.recvEntry(ctx, p, hand, "message", drainWait)
		if rerr != nil {
			break
		}
		if o.Entry.GetAbort() != nil {
			return abortError(o, g.cfg.Peers)
		}
	}
	return faultf(p, hand, FaultConnection, err, "connection lost while we sent our %s", kind)
}

// maxDrain and drainWait bound the reading of what a departed peer left
// queued: at most maxDrain messages, each within drainWait.
const (
	maxDrain  = 64
	drainWait = 200 * time.Millisecond
)

// sendTo signs e as a private message and sends it to one player.
func (g *Game) sendTo(ctx context.Context, hand uint32, to peer.ID, e *pb.Entry) error {
	o, err := g.seal(hand, to, e)
	if err != nil {
		return err
	}
	if g.replayedSeal {
		return nil
	}
	if err := g.send(ctx, hand, to, o); err != nil {
		return g.sendFault(ctx, to, hand, o.Kind(), err)
	}
	return nil
}

// openingAbort reports whether e, received during hand, is a peer's Abort
// from the game's opening (hand 0, no game id yet) that reaches this node
// in hand 1: the peer missed a Hello this node got, and gave up before the
// game id existed for it (SPEC.md §9). Any other entry of hand 0 after the
// opening is for another hand.
func openingAbort(e *pb.Entry, hand uint32) bool {
	return hand == 1 && e.Hand == 0 && len(e.GameId) == 0 && e.GetAbort() != nil
}

// recv waits up to timeout for the next message from peer from, verifies
// it (signature, sender, chain, game id, hand, recipient), records it, and
// checks that it is the expected kind. Silence, a lost connection and a
// message that proves nothing (no valid signature of from, a replayed or
// out-of-order copy, another game or hand) are *FaultErrors naming the
// peer; a signed entry out of turn or forking the sender's hash chain is a
// *BlameError with the entry as evidence; an Abort from the peer is an
// *AbortError.
func (g *Game) recv(ctx context.Context, from peer.ID, hand uint32, want string, timeout time.Duration) (*Opened, error) {
	o, err := g.recvEntry(ctx, from, hand, want, timeout)
	if err != nil {
		return nil, err
	}
	if a := o.Entry.GetAbort(); a != nil {
		return nil, abortError(o, g.cfg.Peers)
	}
	if got := o.Kind(); got != want {
		return nil, blamef(o, hand, BlameOutOfTurn, nil, "sent a %s out of turn (expected its %s)", got, want)
	}
	return o, nil
}

// recvEntry receives, verifies and records the next entry from peer from,
// of any kind; its errors are those of recv.
func (g *Game) recvEntry(ctx context.Context, from peer.ID, hand uint32, want string, timeout time.Duration) (*Opened, error) {
	return g.recvWithin(ctx, from, hand, want, &budget{left: timeout, total: timeout})
}

// budget is the silence a wait allows: it runs down only while every peer
// is connected, so that nobody is named silent while the table is paused
// for a peer to reconnect.
type budget struct {
	left, total time.Duration
	// grace is set once the budget ran out and the peer was given
	// lateAbort more to send its Abort.
	grace bool
}

// lateAbort is how long past a silence timeout of total a player still
// waits before naming the peer silent: half of it, from 250 ms to 5 s. A peer kept waiting by a third player times out a moment before we
// do and aborts at once; its Abort names that player, and must reach us
// before we name the peer.
func lateAbort(total time.Duration) time.Duration {
	return min(max(total/2, 250*time.Millisecond), 5*time.Second)
}

// recvWithin is recvEntry with a budget shared by several waits (gather).
// While a peer's connection is down the budget stands still and the
// Observer is told the table is paused; a peer that has not come back
// within Config.ReconnectGrace is a FaultConnection naming it, whichever
// peer this player was waiting for. An entry sent again after a
// reconnection that this player already holds is dropped.
func (g *Game) recvWithin(ctx context.Context, from peer.ID, hand uint32, want string, b *budget) (*Opened, error) {
	if o, done, err := g.recvReplayed(ctx, from, hand); done {
		return o, err
	}
	w := &recvWait{g: g, from: from, hand: hand, want: want, b: b, box: g.links.boxes[from], last: time.Now(), nextNotice: noticeAfter(b.total)}
	defer w.allClear(ctx)
	for {
		if o, done, err := w.round(ctx); done {
			return o, err
		}
	}
}

// recvFault is the error for a Recv from peer from that failed with err.
func (g *Game) recvFault(ctx context.Context, from peer.ID, hand uint32, want string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("waiting for %s from %s: %w", want, from, ctx.Err())
	}
	fe := faultf(from, hand, FaultConnection, err, "connection lost while we waited for its %s", want)
	fe.Want = want
	return fe
}

// checkEntry verifies the bytes b received from peer from during hand
// (signature, sender, recipient, game id, hand, hash chain) and records
// the entry in the transcript.
func (g *Game) checkEntry(from peer.ID, hand uint32, b []byte) (*Opened, error) {
	o, err := Open(b)
	if err != nil {
		return nil, faultf(from, hand, FaultUnverifiable, err, "sent a message that does not verify")
	}
	e := o.Entry
	if o.Sender == from && e.GetSync() == nil {
		if held, ok := g.chains.held(from, e.Seq); ok {
			if held.Hash == o.Hash {
				if !g.links.askedAgain(from) {
					// Nobody asked for it: a replay, which proves nothing.
					return nil, faultf(from, hand, FaultUnverifiable, nil, "sent a copy of its message %d again (a replay) though we asked for nothing again", e.Seq)
				}
				return nil, errDuplicate
			}
			// Both are signed by from: keep the second as evidence.
			if rerr := g.record(o); rerr != nil {
				return nil, rerr
			}
			return nil, blameOn(from, hand, BlameEquivocation, append([]Evidence{held}, evidenceOf(o)...), nil,
				"signed two different messages as its message %d (equivocation: one held, one sent again after a reconnection)", e.Seq)
		}
	}
	switch {
	case o.Sender != from:
		return nil, faultf(from, hand, FaultUnverifiable, nil, "passed on a message signed by %s", o.Sender)
	case o.Recipient != "" && o.Recipient != g.self:
		return nil, faultf(from, hand, FaultUnverifiable, nil, "sent us a message addressed to %s", o.Recipient)
	case openingAbort(e, hand):
		// The peer gave up during the Hellos (a Hello it never got) while
		// this node, holding every Hello, went on to hand 1: its Abort
		// names whom it waited for, as it would have in the opening.
	case hand == 0 && e.Seq > 0 && len(e.GameId) != 0 && g.links.grace > 0:
		// An entry of the game proper before from's Hello: the Hello was
		// lost with a connection (a crash and resume, or a drop from's
		// side saw late) and from sent on. It cannot be checked before
		// the Hello (no game id yet), so it is dropped and the Hello
		// asked for; from sends both again in seq order (SPEC.md §18.4).
		// A peer that never sends its Hello stays silent: a fault.
		g.links.askForHello(from)
		return nil, errEarly
	case hand > 0 && string(e.GameId) != string(g.gameID):
		return nil, faultf(from, hand, FaultUnverifiable, nil, "sent a message for another game (id %x)", e.GameId)
	case hand == 0 && (len(e.GameId) != 0 || e.Seq != 0):
		return nil, faultf(from, hand, FaultUnverifiable, nil, "sent a message with seq %d where its hello must open its chain", e.Seq)
	case e.Hand != hand && !(hand > 0 && g.next != nil && e.Hand == g.next.num):
		return nil, faultf(from, hand, FaultUnverifiable, nil, "sent a message for hand %d during hand %d", e.Hand, hand)
	}
	if err := g.chains.accept(o); err != nil {
		var fork *chainFork
		if errors.As(err, &fork) {
			// Both entries are signed by from: record the second so that
			// the transcript holds the evidence.
			if rerr := g.record(o); rerr != nil {
				return nil, rerr
			}
			return nil, blameOn(from, hand, BlameEquivocation, fork.evidence, err, "signed two different messages as its message %d (equivocation)", fork.seq)
		}
		return nil, faultf(from, hand, FaultUnverifiable, err, "sent a replayed or out-of-order message")
	}
	g.links.accepted(from, e.Seq)
	if err := g.record(o); err != nil {
		return nil, err
	}
	return o, nil
}

// abortError turns a received Abort into an *AbortError whose Fault names
// the peer the sender holds responsible (the sender itself if it names no
// peer of the table).
func abortError(o *Opened, table []peer.ID) *AbortError {
	a := o.Entry.GetAbort()
	reason := truncate(a.Reason, 200)
	f := Fault{Peer: o.Sender, Hand: int(o.Entry.Hand), Kind: FaultAborted, Reason: fmt.Sprintf("%s ended the hand: %s", o.Sender, reason), Reporters: []peer.ID{o.Sender}}
	if len(a.FaultPeer) == 0 && FaultKind(a.FaultKind) == FaultBadWall {
		// A fault of the wall, not of a peer: the audit names the pass.
		f.Peer, f.Kind, f.Reason = "", FaultBadWall, reason
	} else if p, err := peer.IDFromBytes(a.FaultPeer); err == nil && slices.Contains(table, p) {
		f.Peer = p
		switch k := FaultKind(a.FaultKind); k {
		case FaultSilence, FaultConnection, FaultUnverifiable, FaultConfig, FaultQuit, FaultLocal:
			f.Kind = k
		}
		switch {
		case p == o.Sender && f.Kind == FaultQuit:
			f.Reason = "quit the game"
		case a.FaultKind == "blame":
			f.Reason = "claimed cheat, checked only by the reporter: " + reason
		default:
			f.Reason = reason
		}
		if len(a.Waiting) > 0 {
			// The chain of waits it followed: signed claims, a fault either way.
			if signers, end, err := checkChain(o, table); err != nil {
				f.Reason += fmt.Sprintf(" (its waiting notices do not check: %v)", err)
			} else if end != p {
				f.Reason += " (its waiting notices end at another player)"
			} else {
				f.Reason += fmt.Sprintf(" (%d signed waiting notices attached, from %s)", len(signers), signers[0].ShortString())
			}
		}
	}
	return &AbortError{Peer: o.Sender, Hand: int(o.Entry.Hand), Reason: reason, Fault: f}
}

// recvAny receives and records the next message from peer from of any
// kind, for collecting key reveals after an abort.
func (g *Game) recvAny(ctx context.Context, from peer.ID, hand uint32, timeout time.Duration) (*Opened, error) {
	return g.recvEntry(ctx, from, hand, "key reveal", timeout)
}

// abort tells the other players why this player gives up the hand (hand
// 0: the game's opening), with the peer it holds responsible and the kind
// of fault, and records it in the transcript. Errors sending it are
// ignored: the hand is over either way.
func (g *Game) abort(ctx context.Context, hand uint32, reason error) {
	body := &pb.Abort{Reason: truncate(reason.Error(), 1000)}
	var be *BlameError
	var fe *FaultError
	var ae *AbortError
	switch {
	case errors.As(reason, &ae):
		// Passing on another player's Abort: its claim, as it stands.
		body.Reason, body.FaultKind = truncate(ae.Fault.Reason, 1000), string(ae.Fault.Kind)
		if ae.Fault.Peer != "" {
			body.FaultPeer = []byte(ae.Fault.Peer)
		}
	case errors.As(reason, &be):
		body.Reason, body.FaultPeer, body.FaultKind = truncate(be.Reason, 1000), []byte(be.Peer), "blame"
	case errors.As(reason, &fe) && fe.Peer == "":
		body.Reason, body.FaultKind = truncate(fe.Reason, 1000), string(fe.Kind)
	case errors.As(reason, &fe):
		body.Reason, body.FaultPeer, body.FaultKind = truncate(fe.Reason, 1000), []byte(fe.Peer), string(fe.Kind)
		body.Waiting = fe.Waiting
	case ctx.Err() != nil:
		body.FaultPeer, body.FaultKind = []byte(g.self), string(FaultQuit)
	default:
		body.FaultPeer, body.FaultKind = []byte(g.self), string(FaultLocal)
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	g.broadcast(sctx, hand, &pb.Entry{Body: &pb.Entry_Abort{Abort: body}})
}
