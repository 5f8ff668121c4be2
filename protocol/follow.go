package protocol

import (
	"errors"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/wall"
)

// Follower replays a game live from its public entries alone, as a
// spectator receives them (SPEC.md §25: no entry with a recipient), so
// that a table can be drawn while the hand is played: the seats, the
// match state each hand starts from (its nonce commitments' header,
// SPEC.md §9), the dora indicators, every discard, call, riichi, win and
// draw. It keeps the public engine of each hand (the tracker that the
// players and the offline audit run), which sees exactly what the table
// has shown to everyone: the concealed tiles of every seat stay
// game.Unknown until the hand's keys are revealed and the caller hands
// the audited wall to Reveal.
//
// Every shown tile is checked as a player checks it on arrival: each key
// against its commitment in the sender's rekey pass, and the keys must
// decrypt the wall's position to the tile claimed; the dora indicators
// and other public decryptions are decrypted the same way. The hand's
// audit (AuditHand, after the key reveal) checks everything else (the
// passes and their proofs, the private releases): the Follower is the
// spectator's view, not its verdict. It never panics on bad entries; an
// entry it cannot follow makes Feed return an error and the hand stays as
// it was.
//
// A Follower that starts after the game did (a spectator that joined
// late) follows from the first hand whose nonce commitments it gets,
// provided it got the Hellos and hand 1's nonces (which fix the seats)
// first.
type Follower struct {
	hellos []Record
	info   *TranscriptAudit // from the Hellos, once they agree
	n      int
	layout wall.Layout
	rules  game.Rules
	tiles  *commcrypto.TileTable
	seats  []peer.ID
	hands  map[uint32]*followed
	cur    uint32 // the hand shown
}

// followed is one hand as the Follower follows it.
type followed struct {
	num     uint32
	deal    *game.Deal
	commits map[peer.ID][]byte
	nonces  map[peer.ID][]byte
	dice    [2]int
	rekeys  map[peer.ID]*pb.RekeyPass
	wall    []commcrypto.Element           // the last rekey pass's, decoded once
	cmts    [maxSeats][]commcrypto.Element // each seat's R_{j,i}, decoded once
	dora    map[int]commcrypto.Scalar      // the dora indicator's keys by seat
	k       *game.Kyoku                    // nil before play
	t       *tracker                       // nil before play
	stage   string                         // as Observation.Stage
	reveals map[peer.ID]bool               // key reveals taken
	err     error                          // the first entry that could not be followed
}

// NewFollower returns a Follower that has seen nothing.
func NewFollower() *Follower {
	return &Follower{tiles: commcrypto.NewTileTable(), hands: map[uint32]*followed{}}
}

// Players returns the number of players the Hellos announced (3 or 4), 0
// before they are all in.
func (f *Follower) Players() int { return f.n }

// Seats returns the players in seat order (seat 0 the first East), nil
// before hand 1's nonces fixed them.
func (f *Follower) Seats() []peer.ID { return slices.Clone(f.seats) }

// Settings returns the table's name and the settings its Hellos agreed
// on; ok is false before they are all in.
func (f *Follower) Settings() (table string, s settings.Settings, ok bool) {
	if f.info == nil {
		return "", settings.Settings{}, false
	}
	return f.info.Table, f.info.Settings, true
}

// Nick returns the nickname p's Hello announced ("" if none).
func (f *Follower) Nick(p peer.ID) string {
	if f.info == nil {
		return ""
	}
	return f.info.Nicks[p]
}

// Hand returns the number of the hand shown (1-based; 0 before hand 1):
// the latest hand whose nonce commitments came, once the hand before it
// has revealed its keys (with the pipelined setup, SPEC.md §22, a hand's
// passes come while the hand before is played).
func (f *Follower) Hand() int { return int(f.cur) }

// Feed takes the game's next public entry, in the order of the host's
// transcript. It returns an error for an entry the Follower cannot follow
// (a private entry, an entry before the Hellos agree, a shown tile whose
// keys do not decrypt to it, an action the rules engine refuses): the
// hand's state stays as it was, and the audit after the key reveal says
// who is at fault.
func (f *Follower) Feed(o *Opened) error {
	if o.Recipient != "" {
		return fmt.Errorf("a private entry of %s (to %s): spectators never get one", o.Sender, o.Recipient)
	}
	e := o.Entry
	if e.GetHello() != nil {
		return f.hello(o)
	}
	if f.info == nil {
		return fmt.Errorf("%s's %s before the Hellos agree", o.Sender, o.Kind())
	}
	if string(e.GameId) != string(f.info.GameID) {
		return fmt.Errorf("%s's %s carries another game id", o.Sender, o.Kind())
	}
	if e.Hand == 0 {
		return nil // an Abort during the Hellos: the audit reports it
	}
	h := f.hands[e.Hand]
	if h == nil {
		h = &followed{num: e.Hand, commits: map[peer.ID][]byte{}, nonces: map[peer.ID][]byte{}, rekeys: map[peer.ID]*pb.RekeyPass{}, dora: map[int]commcrypto.Scalar{}, reveals: map[peer.ID]bool{}}
		f.hands[e.Hand] = h
	}
	if h.err != nil {
		return h.err
	}
	if err := f.feed(h, o); err != nil {
		h.err = fmt.Errorf("hand %d: %s's %s: %w", h.num, o.Sender, o.Kind(), err)
		return h.err
	}
	f.advance()
	return nil
}

// hello takes a Hello; the game's settings are known once every player's
// Hello is in and they agree (AuditTranscript's checks of the Hellos).
func (f *Follower) hello(o *Opened) error {
	if f.info != nil {
		return fmt.Errorf("a Hello from %s after the Hellos agreed", o.Sender)
	}
	f.hellos = append(f.hellos, Record{Index: len(f.hellos) + 1, Envelope: o.Envelope})
	t := AuditTranscript(f.hellos)
	if t.GameID == nil || t.Players == 0 || len(f.hellos) < t.Players {
		return nil
	}
	f.info, f.n = t, t.Players
	f.layout = layoutFor(f.n)
	f.rules = t.Settings.Rules.Game(t.Players, !t.Settings.Tonpuu)
	return nil
}

// advance moves the hand shown to the latest hand whose nonce
// commitments came: they come once the hand before is over (its keys
// revealed, or it stopped; the pipelined setup prepares only the next
// hand's passes during play, SPEC.md §22).
// A late follower's hands jump: hand 1 (its nonces), then the hand in
// play when it joined.
func (f *Follower) advance() {
	for n, h := range f.hands {
		if n > f.cur && h.deal != nil {
			f.cur = n
		}
	}
}

func (f *Follower) feed(h *followed, o *Opened) error {
	e := o.Entry
	switch {
	case e.GetNonceCommit() != nil:
		c := e.GetNonceCommit()
		if h.deal == nil {
			d := game.Deal{Oya: game.Seat(c.Oya), Round: int(c.Round), Honba: int(c.Honba), Kyotaku: int(c.Kyotaku)}
			if int(c.Oya) >= f.n || len(c.Scores) > 4 {
				return errors.New("a match state out of range")
			}
			for i, s := range c.Scores {
				d.Scores[i] = int(s)
			}
			h.deal = &d
		}
		h.commits[o.Sender] = c.Commitment
		h.stage = "seats and dice"
	case e.GetNonceReveal() != nil:
		n := e.GetNonceReveal().Nonce
		if string(nonceCommitment(f.info.GameID, h.num, o.Sender, n)) != string(h.commits[o.Sender]) {
			return errors.New("a nonce that does not open its commitment")
		}
		h.nonces[o.Sender] = n
		if len(h.nonces) == f.n {
			seed := handSeed(f.info.GameID, h.num, h.nonces)
			if h.num == 1 && f.seats == nil {
				f.seats = seating(seed, f.info.Peers)
			}
			h.dice = dice(seed)
		}
	case e.GetShuffle() != nil:
		h.stage = "shuffle"
	case e.GetRekey() != nil:
		h.rekeys[o.Sender] = e.GetRekey()
		h.stage = "rekey"
	case e.GetKeyRelease() != nil && h.t == nil:
		return f.doraRelease(h, o)
	case e.GetKeyReveal() != nil:
		h.reveals[o.Sender] = true
		h.stage = "key reveal"
	case e.GetAbort() != nil:
		h.stage = "aborted"
	case e.GetTurn() != nil, e.GetAnswer() != nil, e.GetCall() != nil, e.GetDeclare() != nil, e.GetKeyRelease() != nil:
		if h.t == nil {
			return errors.New("play before the dora indicator was decrypted")
		}
		if err := h.t.feed(o); err != nil {
			return err
		}
		h.drawAhead()
	}
	return nil
}

// drawAhead makes the tsumo or rinshan draw the kyoku waits for, as the
// players' nodes do before the turn (the drawer's tile stays unknown):
// the table then shows the drawer's fourteenth tile.
func (h *followed) drawAhead() {
	if st, _ := h.t.next(); st == stepDraw {
		_ = h.t.draw()
	}
}

// doraRelease takes a player's public keys for the first dora indicator;
// with every player's, it decrypts the indicator and starts the kyoku.
func (f *Follower) doraRelease(h *followed, o *Opened) error {
	if f.seats == nil || h.deal == nil {
		return errors.New("a key release before the seats and the match state are known")
	}
	s := slices.Index(f.seats, o.Sender)
	kr := o.Entry.GetKeyRelease()
	pos := f.layout.DoraIndicatorIndex(0)
	if s < 0 || len(kr.Positions) != 1 || int(kr.Positions[0]) != pos {
		return fmt.Errorf("published keys for positions %v before play, not the dora indicator (%d)", kr.Positions, pos)
	}
	keys, err := decodeKeys(kr.Keys, 1)
	if err != nil {
		return err
	}
	if err := f.checkKey(h, s, pos, keys[0]); err != nil {
		return err
	}
	h.dora[s] = keys[0]
	h.stage = "dora indicator"
	if len(h.dora) < f.n {
		return nil
	}
	ks := make([]commcrypto.Scalar, f.n)
	for j := range ks {
		ks[j] = h.dora[j]
	}
	tile, err := f.decrypt(h, pos, ks)
	if err != nil {
		return err
	}
	d := *h.deal
	d.Haipai = hiddenHaipai(f.n)
	d.DoraIndicator = tile
	k, err := game.NewKyoku(f.rules, d)
	if err != nil {
		return fmt.Errorf("cannot start the kyoku: %w", err)
	}
	h.k = k
	h.t = newTracker(k, h.num, f.seats, func(st shownTile) (wall.Tile, error) {
		for j, key := range st.keys {
			if err := f.checkKey(h, j, st.pos, key); err != nil {
				return -1, err
			}
		}
		return f.decrypt(h, st.pos, st.keys)
	}, func(seat, pos int, key commcrypto.Scalar) error { return f.checkKey(h, seat, pos, key) })
	h.stage = "play"
	h.drawAhead()
	return nil
}

// checkKey checks seat j's key for position pos against its commitment
// R_{j,pos} in j's rekey pass (SPEC.md §12).
func (f *Follower) checkKey(h *followed, j, pos int, key commcrypto.Scalar) error {
	if j < 0 || j >= f.n || pos < 0 || pos >= f.layout.Size {
		return fmt.Errorf("key of seat %d for position %d: out of range", j, pos)
	}
	if h.cmts[j] == nil {
		rk := h.rekeys[f.seats[j]]
		if rk == nil {
			return fmt.Errorf("seat %d's rekey pass has not come", j)
		}
		cs, err := commcrypto.DecodeElements(rk.Commitments, f.layout.Size)
		if err != nil {
			return fmt.Errorf("seat %d's commitments do not decode: %w", j, err)
		}
		h.cmts[j] = cs
	}
	if err := commcrypto.CheckCommitment(key, h.cmts[j][pos]); err != nil {
		return fmt.Errorf("key of seat %d for position %d fails its commitment: %w", j, pos, err)
	}
	return nil
}

// decrypt returns the tile at position pos of the wall the last seat's
// rekey pass left, under every seat's key.
func (f *Follower) decrypt(h *followed, pos int, keys []commcrypto.Scalar) (wall.Tile, error) {
	if h.wall == nil {
		rk := h.rekeys[f.seats[f.n-1]]
		if rk == nil {
			return -1, errors.New("the last rekey pass has not come")
		}
		w, err := commcrypto.DecodeElements(rk.Wall, f.layout.Size)
		if err != nil {
			return -1, fmt.Errorf("the last rekey pass does not decode: %w", err)
		}
		h.wall = w
	}
	if len(keys) != f.n || pos < 0 || pos >= len(h.wall) {
		return -1, fmt.Errorf("position %d with %d keys", pos, len(keys))
	}
	id, ok := f.tiles.Lookup(commcrypto.Decrypt(h.wall[pos], keys...))
	if !ok {
		return -1, fmt.Errorf("position %d does not decrypt to a tile", pos)
	}
	return wall.Tile(id), nil
}

// Reveal shows hand n's whole wall to its kyoku once the hand is over and
// audited: yama is HandAudit.Yama (game.Unknown, -1, where private hands
// left a position unshown). Every seat's concealed hand is then known. It
// returns an error if the hand was not followed to its end or the wall
// contradicts what was shown.
func (f *Follower) Reveal(n int, yama []int) error {
	h := f.hands[uint32(n)]
	if h == nil || h.k == nil {
		return fmt.Errorf("hand %d was not followed", n)
	}
	if len(yama) != f.layout.Size {
		return fmt.Errorf("hand %d: a wall of %d tiles, want %d", n, len(yama), f.layout.Size)
	}
	for pos, t := range yama {
		if t < 0 || h.k.Tile(pos) != game.Unknown {
			continue
		}
		if err := h.k.Reveal(pos, wall.Tile(t)); err != nil {
			return fmt.Errorf("hand %d: %w", n, err)
		}
	}
	f.advance()
	return nil
}

// Observation returns the hand shown as a table draws it
// (screen.Model.Observe): Seat 0 (the first East) at the bottom, the
// public kyoku as View (every concealed tile game.Unknown until Reveal),
// what the kyoku waits for next. The zero Observation (Hand 0) before
// hand 1 has started.
func (f *Follower) Observation() Observation {
	h := f.hands[f.cur]
	if h == nil {
		return Observation{Seat: -1}
	}
	o := Observation{Hand: int(h.num), Stage: h.stage, Seat: -1}
	if f.seats != nil {
		o.Seat = 0
		o.Seats = slices.Clone(f.seats)
		for _, p := range f.seats {
			o.Nicks = append(o.Nicks, f.info.Nicks[p])
		}
	}
	if h.k == nil {
		if o.Stage == "play" || o.Stage == "key reveal" || o.Stage == "" {
			o.Stage = "dora indicator"
		}
		return o
	}
	if o.Stage == "dora indicator" {
		o.Stage = "play"
	}
	o.View = h.k.Clone()
	st, seats := h.t.next()
	if int(st) >= 0 && int(st) < len(stepNames) {
		o.Step = stepNames[st]
	}
	o.Waiting = slices.Clone(seats)
	o.TimedOut = slices.Clone(h.t.timedOut)
	return o
}

// Deal returns the match state hand n started from, as its nonce
// commitments state it (round, honba, kyotaku, dealer, scores); false if
// none came.
func (f *Follower) Deal(n int) (game.Deal, bool) {
	h := f.hands[uint32(n)]
	if h == nil || h.deal == nil {
		return game.Deal{}, false
	}
	return *h.deal, true
}
