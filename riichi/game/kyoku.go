package game

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// Unknown is the tile value of a position whose tile this engine has not
// seen (a hidden tile).
const Unknown wall.Tile = -1

// Phase is what the kyoku waits for next.
type Phase int

// The phases of a kyoku.
const (
	// PhaseDraw waits for the driver's Draw (tsumo or rinshan draw) for
	// Turn().
	PhaseDraw Phase = iota + 1
	// PhaseTurn waits for Turn()'s action: discard, kan, tsumo agari or
	// kyuushu kyuuhai (only a discard right after a chi or pon).
	PhaseTurn
	// PhaseResponse waits for the Awaiting() players' answers (pass, ron,
	// pon, chi, daiminkan) to the tile on offer (a discard, or a kan tile
	// for chankan).
	PhaseResponse
	// PhaseDeclare waits, at an exhaustive draw, for the tenpai/noten
	// declarations of the players whose hands the engine cannot see.
	PhaseDeclare
	// PhaseEnd: the kyoku is over; see Result.
	PhaseEnd
)

var phaseNames = [...]string{"", "draw", "turn", "response", "declare", "end"}

// String returns "draw", "turn", "response", "declare" or "end".
func (p Phase) String() string {
	if p <= 0 || int(p) >= len(phaseNames) {
		return fmt.Sprintf("phase(%d)", int(p))
	}
	return phaseNames[p]
}

// Deal is everything needed to start a kyoku: the match state (from Match
// or from an mjlog INIT) and the haipai.
type Deal struct {
	// Round is the round index of Tenhou's INIT seed field 1: 0..3 East 1-4,
	// 4..7 South 1-4, 8..11 West 1-4.
	Round int
	// Honba and Kyotaku are the repeat counter and the riichi sticks on the
	// table at the start.
	Honba, Kyotaku int
	// Oya is the dealer's seat.
	Oya Seat
	// Scores are the players' scores in points (not 100s), by seat.
	Scores [4]int
	// Haipai are the 13 starting tiles of each seat (by absolute seat) in
	// Tenhou's deal order (mjlog INIT hai0..hai3); Unknown for a tile this
	// engine may not see. Their yama positions follow wall.Layout.Haipai.
	Haipai [4][]wall.Tile
	// DoraIndicator is the first dora indicator (yama[5]); Unknown if not
	// yet revealed to this engine (Reveal it before any win is scored).
	DoraIndicator wall.Tile
}

type riichiState int

const (
	noRiichi riichiState = iota
	riichiDeclared
	riichiAccepted
)

type player struct {
	hand    []int         // yama positions of the concealed tiles
	counts  riichi.Counts // known concealed tiles per kind
	unknown int           // concealed tiles not known to this engine
	melds   []Meld
	river   []RiverTile

	kita         []int  // yama positions of the north tiles set aside (nukidora)
	discarded    uint64 // kinds in the own river, called ones included
	passed       uint64 // kinds passed (not ronned) since the own last discard
	riichiPassed uint64 // kinds passed since the riichi declaration
	kuikae       uint64 // kinds forbidden for the discard right after a call

	riichi       riichiState
	doubleRiichi bool
	ippatsu      bool
	discards     int
	nagashi      bool
	paoDragon    Seat
	paoWind      Seat
	declared     ActionType // Tenpai or Noten at an exhaustive draw

	// waits caches the kinds completing the concealed hand (a kind set)
	// while the hand is unchanged; valid tells whether it is current.
	waits      uint64
	waitsValid bool
}

type offerKind int

const (
	offerDiscard offerKind = iota + 1
	offerKakan
	offerAnkan
	offerKita
)

// offer is the tile on offer in PhaseResponse and the answers so far.
type offer struct {
	kind    offerKind
	from    Seat
	tile    wall.Tile
	pos     int
	riichi  bool // the discard declared riichi
	pending [4]bool
	answer  [4]Action
}

// Kyoku is one hand (局) of four-player riichi mahjong under Tenhou's
// rules, as a deterministic state machine. See the package documentation
// for the model. A Kyoku is not safe for concurrent use.
type Kyoku struct {
	rules  Rules
	layout wall.Layout

	round, honba, kyotaku int
	oya                   Seat
	scores                [4]int

	known [wall.NumTiles]wall.Tile // tile at each yama position
	posOf [wall.NumTiles]int16     // yama position of each tile id, -1 unknown
	owner [wall.NumTiles]int8      // seat+1 holding the position concealed, 0 none

	p [4]player

	live, rinshan int // live and rinshan draws made
	doraShown     int // dora indicators turned (1 at the start)
	doraPending   int // daiminkan/kakan indicators to turn at the next discard or kan
	kans          int
	kanBy         [4]int
	anyCall       bool // a call or kan happened (ends the first go-around)

	phase       Phase
	turn        Seat
	drawn       int  // position drawn this turn, -1 when the turn came from a call
	rinshanTurn bool // the tile drawn this turn was a rinshan draw
	needRinshan bool // the next Draw is a rinshan draw
	afterCall   bool // the turn came from a chi or pon
	offer       offer
	ronValue    [4]winEval // the evaluated win of each Ron answer to the offer
	suufon      bool       // four first discards of one wind: abort when passed
	suukan      bool       // fourth kan by two or more players: abort at the next passed discard

	result *Result
	checks []check
}

// NewKyoku starts a kyoku: it places the haipai and the first dora
// indicator at their yama positions (wall.FourPlayer layout) and waits for
// the dealer's first Draw. It returns an error naming the field at fault
// for a dealer outside 0..3, a round outside 0..15, negative honba or
// kyotaku, a haipai that is not 13 tiles per seat, or a tile id outside
// 0..135 or repeated.
func NewKyoku(rules Rules, d Deal) (*Kyoku, error) {
	n := rules.players()
	if d.Oya < 0 || int(d.Oya) >= n {
		return nil, fmt.Errorf("deal: dealer seat %d outside 0..%d", int(d.Oya), n-1)
	}
	if d.Round < 0 || d.Round > 15 {
		return nil, fmt.Errorf("deal: round %d outside 0..15", d.Round)
	}
	if d.Honba < 0 || d.Kyotaku < 0 {
		return nil, fmt.Errorf("deal: negative honba %d or kyotaku %d", d.Honba, d.Kyotaku)
	}
	k := &Kyoku{
		rules:     rules,
		layout:    wall.FourPlayer,
		round:     d.Round,
		honba:     d.Honba,
		kyotaku:   d.Kyotaku,
		oya:       d.Oya,
		scores:    d.Scores,
		phase:     PhaseDraw,
		turn:      d.Oya,
		drawn:     -1,
		doraShown: 1,
	}
	for i := range k.known {
		k.known[i] = Unknown
		k.posOf[i] = -1
	}
	if n == 3 {
		k.layout = wall.ThreePlayer
		if len(d.Haipai[3]) != 0 {
			return nil, fmt.Errorf("deal: three players, but seat 3 has %d haipai tiles", len(d.Haipai[3]))
		}
	}
	for s := Seat(0); s < Seat(n); s++ {
		p := &k.p[s]
		p.nagashi = true
		p.paoDragon, p.paoWind = NoSeat, NoSeat
		p.hand = make([]int, 0, 14)
		if len(d.Haipai[s]) != wall.HaipaiSize {
			return nil, fmt.Errorf("deal: seat %d haipai has %d tiles, want %d", int(s), len(d.Haipai[s]), wall.HaipaiSize)
		}
		for i, pos := range k.layout.Haipai(k.rel(d.Oya, s)) {
			if err := k.place(pos, d.Haipai[s][i]); err != nil {
				return nil, fmt.Errorf("deal: seat %d haipai tile %d: %w", int(s), i, err)
			}
			k.addHand(s, pos)
		}
	}
	if err := k.place(k.layout.DoraIndicatorIndex(0), d.DoraIndicator); err != nil {
		return nil, fmt.Errorf("deal: dora indicator: %w", err)
	}
	return k, nil
}

// place records tile t (or Unknown) at yama position pos.
func (k *Kyoku) place(pos int, t wall.Tile) error {
	if t == Unknown {
		return nil
	}
	return k.Reveal(pos, t)
}

// Reveal records that yama position pos (0..135) holds tile t, as shown
// by a discard, call, win, dora indicator or the end-of-hand key
// disclosure. Revealing a concealed tile updates its holder's hand. It
// returns an error if pos or t is out of range, if pos is known to hold
// another tile, or if t is known to be at another position. Revealing the
// same tile again is a no-op.
func (k *Kyoku) Reveal(pos int, t wall.Tile) error {
	if pos < 0 || pos >= k.layout.Size {
		return fmt.Errorf("reveal: yama position %d outside 0..%d", pos, k.layout.Size-1)
	}
	if !t.Valid() {
		return fmt.Errorf("reveal yama[%d]: tile id %d outside 0..135", pos, int(t))
	}
	if k.n() == 3 && t >= 4 && t < 32 {
		return fmt.Errorf("reveal yama[%d]: tile id %d (%s) is not in the three-player set (no 2m-8m)", pos, int(t), t)
	}
	if cur := k.known[pos]; cur == t {
		return nil
	} else if cur != Unknown {
		return fmt.Errorf("reveal yama[%d] = %s (id %d): already known as %s (id %d)", pos, t, int(t), cur, int(cur))
	}
	if at := k.posOf[t]; at >= 0 {
		return fmt.Errorf("reveal yama[%d] = %s (id %d): that tile is at yama[%d]", pos, t, int(t), at)
	}
	k.known[pos] = t
	k.posOf[t] = int16(pos)
	if o := k.owner[pos]; o > 0 {
		p := &k.p[o-1]
		p.counts[t.Kind()]++
		p.unknown--
		p.waitsValid = false
	}
	return nil
}

// Tile returns the tile at yama position pos as known to this engine, or
// Unknown (also for pos out of range).
func (k *Kyoku) Tile(pos int) wall.Tile {
	if pos < 0 || pos >= wall.NumTiles {
		return Unknown
	}
	return k.known[pos]
}

func (k *Kyoku) addHand(s Seat, pos int) {
	p := &k.p[s]
	p.hand = append(p.hand, pos)
	k.owner[pos] = int8(s) + 1
	p.waitsValid = false
	if t := k.known[pos]; t != Unknown {
		p.counts[t.Kind()]++
	} else {
		p.unknown++
	}
}

func (k *Kyoku) removeHand(s Seat, pos int) {
	p := &k.p[s]
	i := slices.Index(p.hand, pos)
	if i < 0 {
		return
	}
	p.hand = slices.Delete(p.hand, i, i+1)
	k.owner[pos] = 0
	p.waitsValid = false
	if t := k.known[pos]; t != Unknown {
		p.counts[t.Kind()]--
	} else {
		p.unknown--
	}
}

// handPos returns the yama position of tile t in seat s's concealed hand.
func (k *Kyoku) handPos(s Seat, t wall.Tile) (int, bool) {
	if !t.Valid() {
		return -1, false
	}
	pos := int(k.posOf[t])
	if pos < 0 || k.owner[pos] != int8(s)+1 {
		return -1, false
	}
	return pos, true
}

// liveLeft returns the number of tiles left in the live wall.
func (k *Kyoku) liveLeft() int { return k.layout.LiveDraws() - k.live - k.rinshan }

// Rules returns the rules the kyoku is played under.
func (k *Kyoku) Rules() Rules { return k.rules }

// Phase returns what the kyoku waits for.
func (k *Kyoku) Phase() Phase { return k.phase }

// Turn returns the seat to draw (PhaseDraw) or to act (PhaseTurn), or the
// seat whose tile is on offer (PhaseResponse).
func (k *Kyoku) Turn() Seat {
	if k.phase == PhaseResponse {
		return k.offer.from
	}
	return k.turn
}

// NextDraw returns, in PhaseDraw, the seat about to draw, the yama
// position of the tile it will draw (live wall or rinshan, wall.Layout)
// and whether it is a rinshan draw; ok is false in other phases.
func (k *Kyoku) NextDraw() (s Seat, pos int, rinshan bool, ok bool) {
	if k.phase != PhaseDraw {
		return NoSeat, -1, false, false
	}
	if k.needRinshan {
		return k.turn, k.layout.RinshanIndex(k.rinshan), true, true
	}
	return k.turn, k.layout.LiveDrawIndex(k.live, k.rinshan), false, true
}

// Draw makes the pending tsumo (or rinshan) draw of Turn() with tile t,
// which may be Unknown when this engine may not see it. It returns the
// yama position drawn. It returns an error outside PhaseDraw, if the wall
// has no tile left at that point, or if t conflicts with what is known
// (see Reveal).
func (k *Kyoku) Draw(t wall.Tile) (int, error) {
	s, pos, rinshan, ok := k.NextDraw()
	if !ok {
		return -1, fmt.Errorf("draw for %s: kyoku is in phase %s, not draw", k.lbl(k.turn), k.phase)
	}
	if pos < 0 {
		return -1, fmt.Errorf("draw for %s: no tile left (live draws %d, rinshan %d)", k.lbl(s), k.live, k.rinshan)
	}
	if err := k.place(pos, t); err != nil {
		return -1, fmt.Errorf("draw for %s: %w", k.lbl(s), err)
	}
	if rinshan {
		k.rinshan++
	} else {
		k.live++
	}
	k.addHand(s, pos)
	k.drawn = pos
	k.rinshanTurn = rinshan
	k.needRinshan = false
	k.afterCall = false
	k.phase = PhaseTurn
	return pos, nil
}

// Awaiting returns, in PhaseResponse, the seats whose answer is still
// awaited, in turn order from the offering seat. A seat whose hand is fully
// known to the engine and that has no option but to pass is not awaited (it
// passes implicitly); a seat with hidden tiles is always awaited. In
// PhaseDeclare it returns the seats that have not declared; otherwise nil.
func (k *Kyoku) Awaiting() []Seat {
	var out []Seat
	switch k.phase {
	case PhaseResponse:
		for i := 1; i < k.n(); i++ {
			s := k.next(k.offer.from, i)
			if k.offer.pending[s] && k.offer.answer[s].Type == 0 {
				out = append(out, s)
			}
		}
	case PhaseDeclare:
		for s := Seat(0); s < Seat(k.n()); s++ {
			if k.p[s].declared == 0 {
				out = append(out, s)
			}
		}
	}
	return out
}

// Apply performs player action a. It returns an *IllegalError (wrapping
// ErrIllegal) naming the seat, the action and the reason when the rules
// forbid it in the current state; the state is then unchanged. Actions
// that show tiles (discard, call, win, kyuushu kyuuhai, tenpai) need those
// tiles known to the engine: Reveal them first.
func (k *Kyoku) Apply(a Action) error {
	if !k.seatOK(a.Seat) {
		return k.illegal(a, fmt.Sprintf("seat outside 0..%d", k.n()-1))
	}
	switch k.phase {
	case PhaseTurn:
		if a.Seat != k.turn {
			return k.illegal(a, fmt.Sprintf("not this seat's turn (%s to act)", k.lbl(k.turn)))
		}
		switch a.Type {
		case Discard:
			return k.discard(a)
		case Ankan:
			return k.ankan(a)
		case Kakan:
			return k.kakan(a)
		case TsumoAgari:
			return k.tsumoAgari(a)
		case KyuushuKyuuhai:
			return k.kyuushu(a)
		case Kita:
			return k.kita(a)
		}
		return k.illegal(a, "on the own turn only discard, ankan, kakan, kita, tsumo or kyuushu kyuuhai")
	case PhaseResponse:
		return k.respond(a)
	case PhaseDeclare:
		return k.declare(a)
	case PhaseDraw:
		return k.illegal(a, fmt.Sprintf("waiting for the draw of %s", k.lbl(k.turn)))
	}
	return k.illegal(a, "the kyoku is over")
}

func (k *Kyoku) illegal(a Action, reason string) error {
	wind := "?"
	if k.seatOK(a.Seat) {
		wind = windNames[k.rel(k.oya, a.Seat)]
	}
	return &IllegalError{Seat: a.Seat, Wind: wind, Action: a, Reason: reason, Reds: k.rules.Hand.Reds()}
}

// Result returns the outcome once the kyoku is over (PhaseEnd), else nil.
func (k *Kyoku) Result() *Result { return k.result }

// Round, Honba, Kyotaku and Oya return the kyoku's round index, honba,
// riichi sticks on the table (accepted riichi of this kyoku included) and
// dealer seat.
func (k *Kyoku) Round() int { return k.round }

// Honba returns the honba count of the kyoku.
func (k *Kyoku) Honba() int { return k.honba }

// Kyotaku returns the riichi sticks on the table now.
func (k *Kyoku) Kyotaku() int { return k.kyotaku }

// Oya returns the dealer's seat.
func (k *Kyoku) Oya() Seat { return k.oya }

// Scores returns the current scores in points (riichi deposits deducted
// when accepted; after the end, the final scores of the kyoku).
func (k *Kyoku) Scores() [4]int { return k.scores }

// LiveLeft returns the number of tiles left to draw from the live wall
// (70 at the start, one less per live or rinshan draw).
func (k *Kyoku) LiveLeft() int { return k.liveLeft() }

// Draws returns the number of live and rinshan draws made so far.
func (k *Kyoku) Draws() (live, rinshan int) { return k.live, k.rinshan }

// DoraIndicators returns the dora indicators turned so far (the first
// plus kan dora), Unknown where not yet revealed to the engine.
func (k *Kyoku) DoraIndicators() []wall.Tile {
	out := make([]wall.Tile, k.shownDora())
	for i := range out {
		out[i] = k.known[k.layout.DoraIndicatorIndex(i)]
	}
	return out
}

// DoraPositions returns the yama positions of the turned dora indicators
// and, in the same order, of their ura-dora indicators (revealed only for
// a riichi win).
// Under Rules.Hand.NoKanDora only the first dora indicator is turned;
// under NoUra there are no ura indicators, under NoKanUra only the first.
func (k *Kyoku) DoraPositions() (dora, ura []int) {
	n := k.shownDora()
	for i := range n {
		dora = append(dora, k.layout.DoraIndicatorIndex(i))
	}
	nu := n
	switch {
	case k.rules.Hand.NoUra:
		nu = 0
	case k.rules.Hand.NoKanUra:
		nu = 1
	}
	for i := range nu {
		ura = append(ura, k.layout.UraIndicatorIndex(i))
	}
	return dora, ura
}

// shownDora is the number of dora indicators turned: 1 without kan dora.
func (k *Kyoku) shownDora() int {
	if k.rules.Hand.NoKanDora {
		return 1
	}
	return k.doraShown
}

// Hand returns seat s's concealed tiles in hand order (Unknown for hidden
// ones) and their yama positions.
func (k *Kyoku) Hand(s Seat) (tiles []wall.Tile, positions []int) {
	if !s.Valid() {
		return nil, nil
	}
	for _, pos := range k.p[s].hand {
		tiles = append(tiles, k.known[pos])
		positions = append(positions, pos)
	}
	return tiles, positions
}

// Melds returns seat s's declared melds in call order.
func (k *Kyoku) Melds(s Seat) []Meld {
	if !s.Valid() {
		return nil
	}
	return slices.Clone(k.p[s].melds)
}

// River returns seat s's discards in order.
func (k *Kyoku) River(s Seat) []RiverTile {
	if !s.Valid() {
		return nil
	}
	return slices.Clone(k.p[s].river)
}

// Riichi reports whether seat s's riichi is accepted (deposit paid).
func (k *Kyoku) Riichi(s Seat) bool { return s.Valid() && k.p[s].riichi == riichiAccepted }

// offerIsKan reports whether the tile on offer is a kakan or ankan tile (a
// ron on it is chankan).
func (k *Kyoku) offerIsKan() bool {
	return k.offer.kind == offerKakan || k.offer.kind == offerAnkan
}

// OfferIsKita reports whether the tile on offer is a north set aside by
// kita (sanma): only ron may take it, and it is not chankan.
func (k *Kyoku) OfferIsKita() bool { return k.phase == PhaseResponse && k.offer.kind == offerKita }

// Offer returns, in PhaseResponse, the tile on offer, its yama position,
// the offering seat, and whether it is a kan or kita tile (only ron may
// take it; chankan for a kan) rather than a discard; ok is false in other
// phases.
func (k *Kyoku) Offer() (t wall.Tile, pos int, from Seat, kan bool, ok bool) {
	if k.phase != PhaseResponse {
		return Unknown, -1, NoSeat, false, false
	}
	return k.offer.tile, k.offer.pos, k.offer.from, k.offer.kind != offerDiscard, true
}

// Clone returns an independent copy of the kyoku, e.g. for a player's
// private view with its own tiles revealed.
func (k *Kyoku) Clone() *Kyoku {
	c := *k
	for s := range c.p {
		p := &c.p[s]
		p.hand = slices.Clone(p.hand)
		p.kita = slices.Clone(p.kita)
		p.melds = slices.Clone(p.melds)
		p.river = slices.Clone(p.river)
	}
	c.checks = slices.Clone(k.checks)
	if k.result != nil {
		r := *k.result
		r.Wins = slices.Clone(r.Wins)
		c.result = &r
	}
	return &c
}

// DoraPending returns the number of kan-dora indicators due but not yet
// turned: a daiminkan or kakan indicator waits for the kan player's next
// discard or next kan (Tenhou), and is never turned if the kan player wins
// on the replacement tile.
// Always 0 without kan dora (Rules.Hand.NoKanDora).
func (k *Kyoku) DoraPending() int {
	if k.rules.Hand.NoKanDora {
		return 0
	}
	return k.doraPending
}

// Players returns the number of players of the kyoku: 4, or 3 in sanma.
func (k *Kyoku) Players() int { return k.n() }

// Layout returns the yama layout of the kyoku (wall.FourPlayer or
// wall.ThreePlayer).
func (k *Kyoku) Layout() wall.Layout { return k.layout }

// Nukidora returns the north tiles seat s has set aside by kita (sanma),
// in order.
func (k *Kyoku) Nukidora(s Seat) []wall.Tile {
	if !k.seatOK(s) {
		return nil
	}
	out := make([]wall.Tile, len(k.p[s].kita))
	for i, pos := range k.p[s].kita {
		out[i] = k.known[pos]
	}
	return out
}

// HaipaiPositions returns the yama positions of seat s's 13 haipai tiles
// in Tenhou's deal order (wall.Layout.Haipai of s counted from the
// dealer), nil for a seat not in play (seat 3 in sanma).
func (k *Kyoku) HaipaiPositions(s Seat) []int {
	if !k.seatOK(s) {
		return nil
	}
	return k.layout.Haipai(k.rel(k.oya, s))
}
