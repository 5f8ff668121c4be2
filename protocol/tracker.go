package protocol

import (
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// tracker follows a kyoku's public state: a rules engine (riichi/game)
// that sees exactly the tiles the protocol has shown to everyone — the
// dora indicators, every dahai, the tiles of calls, wins and tenpai
// declarations — and applies every player's actions to it. The live
// player and the offline audit feed it the same entries in the same
// order, so they reach the same state, and every node of the table holds
// the same public state. An action the engine rejects, a tile that does
// not open, or a message at the wrong moment is blamed on its sender.
type tracker struct {
	k     *game.Kyoku
	hand  uint32
	seats []peer.ID
	// open checks a shown tile's keys and returns the tile they decrypt
	// to; the live player decrypts, the audit compares with the revealed
	// keys and the decrypted wall.
	open func(st shownTile) (wall.Tile, error)
	// checkKey checks one seat's key for one position as it arrives in a
	// public decryption, so a bad key is blamed on its sender.
	checkKey func(seat, pos int, key commcrypto.Scalar) error
	// trusted, if set, is the live player itself: its own shown tiles are
	// taken as claimed.
	trusted peer.ID

	n        int                                  // the number of players, 3 or 4
	reveal   map[int]*[maxSeats]commcrypto.Scalar // public reveals in progress
	revealed map[int]map[int]bool                 // position → seats whose key arrived
	answers  map[game.Seat]pb.AnswerKind
	awaited  []game.Seat
	winners  []game.Seat
	calls    map[game.Seat]game.Action
	last     [maxSeats]*Opened // each seat's last entry fed, evidence for its deferred action
	deferred []game.Action     // a win waiting for its ura-dora indicators
	draws    map[int]game.Seat
	// Events counts tsumo and rinshan draws, actions and public reveals.
	events int
	// TimedOut lists, in order, the seats whose node acted for them after
	// their decision timeout.
	timedOut []game.Seat
	// steps logs every draw and applied action, to replay the kyoku on an
	// engine that sees the whole wall once it is revealed.
	steps []kyokuStep
}

// kyokuStep is one engine call of a kyoku: a draw of position pos, or an
// action.
type kyokuStep struct {
	draw   bool
	pos    int
	action game.Action
}

func newTracker(k *game.Kyoku, hand uint32, seats []peer.ID, open func(shownTile) (wall.Tile, error), checkKey func(seat, pos int, key commcrypto.Scalar) error) *tracker {
	return &tracker{k: k, hand: hand, seats: seats, open: open, checkKey: checkKey, n: k.Players(), reveal: map[int]*[maxSeats]commcrypto.Scalar{}, revealed: map[int]map[int]bool{}, draws: map[int]game.Seat{}}
}

// step is what the kyoku waits for next.
type step int

const (
	stepDone step = iota
	stepReveal
	stepDraw
	stepTurn
	stepAnswer
	stepCall
	stepDeclare
)

var stepNames = [...]string{"end", "key release", "tsumo", "turn", "answer", "call", "declare"}

// stepKinds is the message kind (Opened.Kind) each player step expects.
var stepKinds = [...]string{stepTurn: "turn", stepAnswer: "answer", stepCall: "call", stepDeclare: "declare"}

// next returns what the kyoku waits for and from which seats.
func (t *tracker) next() (step, []game.Seat) {
	if len(t.pendingReveal()) > 0 {
		return stepReveal, []game.Seat{0, 1, 2, 3}[:t.n]
	}
	switch t.k.Phase() {
	case game.PhaseDraw:
		s, _, _, _ := t.k.NextDraw()
		return stepDraw, []game.Seat{s}
	case game.PhaseTurn:
		return stepTurn, []game.Seat{t.k.Turn()}
	case game.PhaseResponse:
		if t.awaited == nil {
			t.awaited = t.k.Awaiting()
			t.answers = map[game.Seat]pb.AnswerKind{}
		}
		if len(t.answers) < len(t.awaited) {
			var missing []game.Seat
			for _, s := range t.awaited {
				if _, ok := t.answers[s]; !ok {
					missing = append(missing, s)
				}
			}
			return stepAnswer, missing
		}
		var missing []game.Seat
		for _, s := range t.winners {
			if _, ok := t.calls[s]; !ok {
				missing = append(missing, s)
			}
		}
		return stepCall, missing
	case game.PhaseDeclare:
		return stepDeclare, t.k.Awaiting()
	}
	return stepDone, nil
}

// pendingReveal returns the yama positions that must be decrypted in
// public now: a turned dora or kan-dora indicator still unknown, then,
// while a riichi player's declared win waits to be scored (needsUra), the
// ura-dora indicators of every turned indicator still unknown.
func (t *tracker) pendingReveal() []int {
	var out []int
	dora, ura := t.k.DoraPositions()
	for _, pos := range dora {
		if t.k.Tile(pos) == game.Unknown {
			out = append(out, pos)
		}
	}
	if t.needsUra() {
		for _, pos := range ura {
			if t.k.Tile(pos) == game.Unknown {
				out = append(out, pos)
			}
		}
	}
	return out
}

// needsUra reports whether a deferred action is the win (tsumo agari or
// ron) of a seat whose riichi is accepted: only scoring such a win needs
// the ura-dora indicators. The other deferred actions — the passes of
// riichi seats included — need none, so a riichi alone never decrypts an
// ura-dora indicator.
func (t *tracker) needsUra() bool {
	for _, a := range t.deferred {
		if isWin(a.Type) && t.k.Riichi(a.Seat) {
			return true
		}
	}
	return false
}

func isWin(a game.ActionType) bool { return a == game.TsumoAgari || a == game.Ron }

// checkRiichiWin blames o unless a, a riichi seat's tsumo agari or ron,
// is legal now. The engine decides a win's legality without the ura-dora
// indicators (they never decide whether a hand wins, only its value), so
// an illegal win is blamed before any of them is decrypted.
func (t *tracker) checkRiichiWin(o *Opened, a game.Action) error {
	for _, l := range t.k.LegalActions(a.Seat) {
		if l.Type == a.Type {
			return nil
		}
	}
	return t.blame(o, BlameIllegal, nil, "illegal %s: the hand does not win on the public state", a)
}

// draw makes the pending tsumo or rinshan draw with a hidden tile.
func (t *tracker) draw() error {
	s, pos, _, ok := t.k.NextDraw()
	if !ok {
		return fmt.Errorf("no draw pending")
	}
	if _, err := t.k.Draw(game.Unknown); err != nil {
		return err
	}
	t.steps = append(t.steps, kyokuStep{draw: true, pos: pos})
	t.draws[pos] = s
	t.events++
	return nil
}

func (t *tracker) seatOf(p peer.ID) (game.Seat, bool) {
	i := slices.Index(t.seats, p)
	return game.Seat(i), i >= 0
}

func (t *tracker) blame(o *Opened, kind BlameKind, err error, format string, args ...any) error {
	return blamef(o, t.hand, kind, err, format, args...)
}

// feed applies one entry of the kyoku to the public state. Entries that
// do not change it (private key releases) are ignored.
func (t *tracker) feed(o *Opened) error {
	s, ok := t.seatOf(o.Sender)
	if !ok {
		return t.blame(o, BlameIllegal, nil, "is not seated at the table")
	}
	t.last[s] = o
	e := o.Entry
	if kr := e.GetKeyRelease(); kr != nil {
		if o.Recipient != "" {
			return nil
		}
		return t.feedReveal(o, s, kr)
	}
	want, seats := t.next()
	if want == stepDraw && e.GetTurn() != nil {
		// The driver makes the draw before the turn; an entry list (the
		// offline audit) makes it here.
		if err := t.draw(); err != nil {
			return err
		}
		want, seats = t.next()
	}
	if o.Kind() != stepKinds[want] || !slices.Contains(seats, s) {
		return t.blame(o, BlameOutOfTurn, nil, "sent a %s while the kyoku waits for the %s of seats %v", o.Kind(), stepNames[want], seats)
	}
	if e.GetTurn().GetTimedOut() || e.GetAnswer().GetTimedOut() || e.GetDeclare().GetTimedOut() {
		t.timedOut = append(t.timedOut, s)
	}
	switch {
	case e.GetTurn() != nil:
		return t.feedTurn(o, s, e.GetTurn())
	case e.GetAnswer() != nil:
		return t.feedAnswer(o, s, e.GetAnswer())
	case e.GetCall() != nil:
		return t.feedCall(o, s, e.GetCall())
	case e.GetDeclare() != nil:
		return t.feedDeclare(o, s, e.GetDeclare())
	}
	return t.blame(o, BlameIllegal, nil, "sent an empty message")
}

// showTiles opens every tile of a Shown and reveals it to the engine.
func (t *tracker) showTiles(o *Opened, sh *pb.Shown) ([]wall.Tile, []int, error) {
	sts, err := parseShown(sh, t.n, t.k.Layout().Size)
	if err != nil {
		return nil, nil, t.blame(o, BlameIllegal, err, "shows tiles badly")
	}
	tiles := make([]wall.Tile, len(sts))
	pos := make([]int, len(sts))
	for i, st := range sts {
		tile := st.tile
		if o.Sender != t.trusted || t.trusted == "" {
			got, err := t.open(st)
			if err != nil {
				return nil, nil, t.blame(o, BlameIllegal, err, "shows position %d", st.pos)
			}
			if got != st.tile {
				return nil, nil, t.blame(o, BlameIllegal, nil, "claims %s (id %d) at position %d, which holds %s (id %d)", st.tile, st.tile, st.pos, got, got)
			}
		}
		if err := t.k.Reveal(st.pos, tile); err != nil {
			return nil, nil, t.blame(o, BlameIllegal, err, "shows position %d", st.pos)
		}
		tiles[i], pos[i] = tile, st.pos
	}
	return tiles, pos, nil
}

// handOf checks that positions are exactly seat s's concealed hand.
func (t *tracker) handOf(o *Opened, s game.Seat, positions []int) error {
	_, hand := t.k.Hand(s)
	a, b := slices.Clone(hand), slices.Clone(positions)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return t.blame(o, BlameIllegal, nil, "shows positions %v, not its concealed hand %v", b, a)
	}
	return nil
}

func (t *tracker) apply(o *Opened, a game.Action) error {
	if err := t.k.Apply(a); err != nil {
		return t.blame(o, BlameIllegal, err, "illegal %s", a)
	}
	t.steps = append(t.steps, kyokuStep{action: a})
	t.events++
	return nil
}

func (t *tracker) feedTurn(o *Opened, s game.Seat, m *pb.Turn) error {
	tiles, pos, err := t.showTiles(o, m.Shown)
	if err != nil {
		return err
	}
	a := game.Action{Seat: s, Riichi: m.Riichi}
	want := -1
	switch m.Kind {
	case pb.TurnKind_TURN_DAHAI:
		a.Type, want = game.Discard, 1
	case pb.TurnKind_TURN_KAKAN:
		a.Type, want = game.Kakan, 1
	case pb.TurnKind_TURN_KITA:
		// The engine refuses a kita outside sanma or of a tile that is no
		// north in the own hand.
		a.Type, want = game.Kita, 1
	case pb.TurnKind_TURN_ANKAN:
		a.Type, want = game.Ankan, 4
		a.Tiles = tiles
	case pb.TurnKind_TURN_TSUMO:
		a.Type = game.TsumoAgari
		if err := t.handOf(o, s, pos); err != nil {
			return err
		}
	case pb.TurnKind_TURN_KYUUSHU:
		a.Type = game.KyuushuKyuuhai
		if err := t.handOf(o, s, pos); err != nil {
			return err
		}
	default:
		return t.blame(o, BlameIllegal, nil, "unknown turn kind %d", m.Kind)
	}
	if want > 0 && len(tiles) != want {
		return t.blame(o, BlameIllegal, nil, "%s shows %d tiles, want %d", a.Type, len(tiles), want)
	}
	if want == 1 {
		a.Tile = tiles[0]
	}
	if a.Riichi && a.Type != game.Discard {
		return t.blame(o, BlameIllegal, nil, "declares riichi with a %s", a.Type)
	}
	if a.Type == game.TsumoAgari && t.k.Riichi(s) {
		// Scored once its ura-dora indicators are decrypted.
		if err := t.checkRiichiWin(o, a); err != nil {
			return err
		}
		t.deferred = []game.Action{a}
		return t.flushDeferred(o)
	}
	return t.apply(o, a)
}

func (t *tracker) feedAnswer(o *Opened, s game.Seat, m *pb.Answer) error {
	if m.Kind < pb.AnswerKind_ANSWER_PASS || m.Kind > pb.AnswerKind_ANSWER_RON {
		return t.blame(o, BlameIllegal, nil, "unknown answer %d", m.Kind)
	}
	t.answers[s] = m.Kind
	if len(t.answers) < len(t.awaited) {
		return nil
	}
	// Every answer is in: Tenhou's priority, ron > pon/daiminkan > chi.
	// Every ron answer must be shown (the engine then applies the
	// table's multiple-ron rule: game.Rules.Ron, Tenhou's double ron and
	// triple-ron abort by default); otherwise the call nearest in turn
	// order wins.
	t.winners, t.calls = nil, map[game.Seat]game.Action{}
	for _, rank := range [][]pb.AnswerKind{{pb.AnswerKind_ANSWER_RON}, {pb.AnswerKind_ANSWER_PON, pb.AnswerKind_ANSWER_DAIMINKAN}, {pb.AnswerKind_ANSWER_CHI}} {
		for _, w := range t.awaited {
			if slices.Contains(rank, t.answers[w]) {
				t.winners = append(t.winners, w)
				if rank[0] != pb.AnswerKind_ANSWER_RON {
					break
				}
			}
		}
		if len(t.winners) > 0 {
			break
		}
	}
	if len(t.winners) == 0 {
		return t.resolve(o)
	}
	return nil
}

func (t *tracker) feedCall(o *Opened, s game.Seat, m *pb.Call) error {
	if m.Kind != t.answers[s] {
		return t.blame(o, BlameIllegal, nil, "calls %s after answering %s", m.Kind, t.answers[s])
	}
	tiles, pos, err := t.showTiles(o, m.Shown)
	if err != nil {
		return err
	}
	a := game.Action{Seat: s, Tiles: tiles}
	want := 0
	switch m.Kind {
	case pb.AnswerKind_ANSWER_CHI:
		a.Type, want = game.Chi, 2
	case pb.AnswerKind_ANSWER_PON:
		a.Type, want = game.Pon, 2
	case pb.AnswerKind_ANSWER_DAIMINKAN:
		a.Type, want = game.Daiminkan, 3
	case pb.AnswerKind_ANSWER_RON:
		a.Type, a.Tiles = game.Ron, nil
		if err := t.handOf(o, s, pos); err != nil {
			return err
		}
	default:
		return t.blame(o, BlameIllegal, nil, "calls %s", m.Kind)
	}
	if want > 0 && len(tiles) != want {
		return t.blame(o, BlameIllegal, nil, "%s shows %d tiles, want %d", a.Type, len(tiles), want)
	}
	if a.Type == game.Ron && t.k.Riichi(s) {
		if err := t.checkRiichiWin(o, a); err != nil {
			return err
		}
	}
	t.calls[s] = a
	if len(t.calls) < len(t.winners) {
		return nil
	}
	return t.resolve(o)
}

// resolve applies every awaited seat's answer in turn order: the winning
// calls, and a pass for everyone else. A ron by a riichi player first
// waits for the ura-dora indicators (and the actions with it); a riichi
// player's pass waits for nothing.
func (t *tracker) resolve(o *Opened) error {
	var actions []game.Action
	for _, s := range t.awaited {
		a, ok := t.calls[s]
		if !ok {
			a = game.Action{Type: game.Pass, Seat: s}
		}
		actions = append(actions, a)
	}
	t.awaited, t.answers, t.winners, t.calls = nil, nil, nil, nil
	t.deferred = actions
	return t.flushDeferred(o)
}

// flushDeferred applies deferred actions once no public decryption is
// due (the ura-dora indicators of a riichi win among them).
func (t *tracker) flushDeferred(o *Opened) error {
	if len(t.pendingReveal()) > 0 {
		return nil
	}
	actions := t.deferred
	t.deferred = nil
	for _, a := range actions {
		if err := t.k.Apply(a); err != nil {
			return blamef(t.last[a.Seat], t.hand, BlameIllegal, err, "illegal %s", a)
		}
		t.steps = append(t.steps, kyokuStep{action: a})
		t.events++
	}
	return nil
}

func (t *tracker) feedDeclare(o *Opened, s game.Seat, m *pb.Declare) error {
	if !m.Tenpai {
		if m.Shown != nil && len(m.Shown.Positions) > 0 {
			return t.blame(o, BlameIllegal, nil, "shows tiles with a noten declaration")
		}
		return t.apply(o, game.Action{Type: game.Noten, Seat: s})
	}
	_, pos, err := t.showTiles(o, m.Shown)
	if err != nil {
		return err
	}
	if err := t.handOf(o, s, pos); err != nil {
		return err
	}
	return t.apply(o, game.Action{Type: game.Tenpai, Seat: s})
}

// feedReveal collects one seat's keys for the positions being decrypted
// in public; once every seat's key is in (four, or three in sanma), each
// position is opened and revealed to the engine, and a win waiting for its
// ura-dora is paid.
func (t *tracker) feedReveal(o *Opened, s game.Seat, kr *pb.KeyRelease) error {
	want := t.pendingReveal()
	if len(want) == 0 {
		return t.blame(o, BlameKey, nil, "published keys while no public decryption is due")
	}
	if len(kr.Positions) != len(want) {
		return t.blame(o, BlameKey, nil, "published keys for %d positions, %d are due (%v)", len(kr.Positions), len(want), want)
	}
	keys, err := decodeKeys(kr.Keys, len(want))
	if err != nil {
		return t.blame(o, BlameKey, err, "published bad keys")
	}
	for n, pos := range want {
		if int(kr.Positions[n]) != pos {
			return t.blame(o, BlameKey, nil, "published keys for position %d, position %d is due", kr.Positions[n], pos)
		}
		if t.revealed[pos] == nil {
			t.revealed[pos] = map[int]bool{}
			t.reveal[pos] = &[maxSeats]commcrypto.Scalar{}
		}
		if t.revealed[pos][int(s)] {
			return t.blame(o, BlameKey, nil, "published its key for position %d twice", pos)
		}
		if o.Sender != t.trusted || t.trusted == "" {
			if err := t.checkKey(int(s), pos, keys[n]); err != nil {
				return t.blame(o, BlameKey, err, "published a bad key for position %d", pos)
			}
		}
		t.revealed[pos][int(s)] = true
		t.reveal[pos][s] = keys[n]
	}
	for _, pos := range want {
		if len(t.revealed[pos]) < t.n {
			return nil
		}
	}
	for _, pos := range want {
		tile, err := t.open(shownTile{pos: pos, keys: t.reveal[pos][:t.n]})
		if err != nil {
			return t.blame(o, BlameKey, err, "public decryption of position %d", pos)
		}
		if err := t.k.Reveal(pos, tile); err != nil {
			return t.blame(o, BlameKey, err, "public decryption of position %d", pos)
		}
		delete(t.reveal, pos)
		delete(t.revealed, pos)
		t.events++
	}
	if len(t.deferred) > 0 {
		return t.flushDeferred(o)
	}
	return nil
}
