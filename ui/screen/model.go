package screen

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/wall"
)

// FeedSize is the number of events a Snapshot keeps.
const FeedSize = 60

// Event is one line of the feed.
type Event struct {
	// N numbers the events of the game from 1.
	N int `json:"n"`
	// Kind is "discard", "call", "draw", "dora", "riichi", "timeout",
	// "result", "audit", "hand", "fault" or "info"; Seat the acting seat
	// (-1 none); Tile the tile concerned (-1 none).
	Kind string `json:"kind"`
	Seat int    `json:"seat"`
	Tile int    `json:"tile"`
	// Text is the event in words, players named as Names.Name does.
	Text string `json:"text"`
	// Msg is the event as a message (i18n.Msg) for a view in another
	// language (an English view shows Text; the English of a call's
	// message is shorter); nil for a fault and a notice that stay in the
	// node's words.
	Msg *i18n.Msg `json:"msg,omitempty"`
}

// Model is one player's table, fed by the game and read by a view. It is
// safe for concurrent use: the game goroutine feeds it while a view takes
// Snapshots.
type Model struct {
	mu      sync.Mutex
	s       Snapshot
	names   Names
	last    *game.Kyoku // the last observed view
	nextN   int
	subs    map[chan struct{}]bool
	changed map[int]time.Time // Seq → when the change was made (latest 256)

	timedOut  int // timeouts of the hand already in the feed
	decisions int // decisions shown so far
	clock     *timecontrol.Clock
	links     map[peer.ID]Link // how the node reaches each peer (SetLink, PauseFor)
	spectator bool             // NewSpectatorModel: no seat is this node's
	dismissed chan struct{}    // closed by Dismiss while WaitResult waits
}

// SetGameMsg shows the table's settings as a message (Snapshot.Game its
// English, Snapshot.GameMsg the message):
// i18n.M("game.table", name, SettingsMsg(s)).
func (m *Model) SetGameMsg(msg i18n.Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Game, m.s.GameMsg = i18n.English().Say(msg), &msg
	m.commit()
}

// SetLinks sets the records the view may offer for download (name → URL
// path), as NewModel's links.
func (m *Model) SetLinks(links map[string]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Links = links
	m.commit()
}

// SetClock makes each Decision show the time control c of the player's
// seat: when the free time ends (Decision.BaseDeadline) and the bank left
// (Decision.BankMs). nil shows only the deadline.
func (m *Model) SetClock(c *timecontrol.Clock) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.clock = c
}

// NewModel returns an empty table in StateConnecting; links are the
// records the view may offer for download (name → URL path), nil for none.
func NewModel(links map[string]string) *Model {
	m := &Model{subs: map[chan struct{}]bool{}, changed: map[int]time.Time{}}
	m.s = Snapshot{State: StateConnecting, Self: -1, Turn: -1, Drawn: -1, Offer: -1, OfferFrom: -1, Links: links}
	m.status(i18n.M("status.connecting"))
	return m
}

// NewSpectatorModel returns an empty table for a spectator (`mentalmj
// watch`): Snapshot.Spectator is set, no seat is the viewer's (no "you",
// no own hand, no waits, no decision), and every seat's concealed hand is
// in SeatView.Hand, a hidden tile as -1 (its back), as the observations
// show it: a spectator's engine (protocol.Follower) knows none of them
// until the hand's keys are revealed.
func NewSpectatorModel(links map[string]string) *Model {
	m := NewModel(links)
	m.spectator = true
	m.s.Spectator = true
	return m
}

// Snapshot returns the current table.
func (m *Model) Snapshot() Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s.clone()
}

// ChangedAt returns when the change numbered seq was made (zero if too
// old or unknown), for latency measurements.
func (m *Model) ChangedAt(seq int) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed[seq]
}

// Subscribe returns a channel that receives a value after changes (one
// value may stand for several) and a function that ends the
// subscription.
func (m *Model) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	m.subs[ch] = true
	m.mu.Unlock()
	return ch, func() {
		m.mu.Lock()
		delete(m.subs, ch)
		m.mu.Unlock()
	}
}

// commit publishes a change; m.mu must be held.
func (m *Model) commit() {
	m.s.Seq++
	m.changed[m.s.Seq] = time.Now()
	delete(m.changed, m.s.Seq-256)
	for ch := range m.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// say appends an event of kind said by msg (Event.Msg), its Text the
// English.
func (m *Model) say(kind string, msg i18n.Msg) {
	m.event(kind, -1, -1, "%s", i18n.English().Say(msg))
	m.s.Feed[len(m.s.Feed)-1].Msg = &msg
}

// setMsg sets the last event's message (Event.Msg).
func (m *Model) setMsg(msg i18n.Msg) { m.s.Feed[len(m.s.Feed)-1].Msg = &msg }

func (m *Model) event(kind string, seat game.Seat, tile int, format string, args ...any) {
	m.nextN++
	m.s.Feed = append(m.s.Feed, Event{N: m.nextN, Kind: kind, Seat: int(seat), Tile: tile, Text: fmt.Sprintf(format, args...)})
	if len(m.s.Feed) > FeedSize {
		m.s.Feed = slices.Clone(m.s.Feed[len(m.s.Feed)-FeedSize:])
	}
}

// Observe takes one observation of the game (protocol.Observer).
func (m *Model) Observe(o protocol.Observation) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o.Seats != nil {
		m.names.Seats, m.names.Nicks = o.Seats, o.Nicks
		m.s.Room, m.s.RoomSeats = nil, 0 // the waiting room is over
	}
	m.s.Self = int(o.Seat)
	m.s.Stage = o.Stage
	if o.Hand != m.s.Hand {
		m.s.Hand = o.Hand
		m.last = nil
		m.timedOut = 0
		m.s.Decision = nil
		m.s.Notice = ""
		m.event("hand", -1, -1, "hand %d: shuffling the wall", o.Hand)
		m.setMsg(i18n.M("feed.shuffle", o.Hand))
	}
	if o.View == nil {
		if m.s.State != StatePaused && m.s.State != StateFault {
			m.s.State = StateDealing
		}
		m.s.Status, m.s.StatusMsg = fmt.Sprintf("hand %d: %s", o.Hand, stageText[o.Stage]), nil
		m.seatNames()
		m.commit()
		return
	}
	v := o.View
	m.names.Oya = v.Oya()
	if m.last == nil {
		m.event("hand", -1, -1, "%s, honba %d: %s deals", game.RoundName(v.Round()), v.Honba(), m.names.Name(v.Oya()))
		m.setMsg(i18n.M("feed.deals", RoundMsg(game.RoundName(v.Round())), v.Honba(), m.names.NameMsg(v.Oya())))
	}
	m.diff(m.last, v, o)
	m.fill(v, o)
	m.last = v
	m.timedOut = len(o.TimedOut)
	m.commit()
}

var stageText = map[string]string{
	"seats and dice": "drawing seats and dice",
	"shuffle":        "shuffling the wall (four encrypted passes)",
	"rekey":          "rekeying the wall per position",
	"haipai":         "dealing the haipai",
	"dora indicator": "turning the dora indicator",
	"play":           "playing",
	"key reveal":     "revealing the keys for the audit",
}

func (m *Model) seatNames() {
	for s := range 4 {
		sv := &m.s.Seats[s]
		sv.Name = m.names.Nick(game.Seat(s))
		if s < len(m.names.Seats) {
			sv.Peer = m.names.Seats[s].String()
		}
		sv.Wind = m.names.Wind(game.Seat(s))
		sv.Self = s == m.s.Self && !m.spectator
	}
	m.seatLinks()
}

// fill copies the public table and the player's hand from v.
func (m *Model) fill(v *game.Kyoku, o protocol.Observation) {
	s := &m.s
	if s.State != StatePaused && s.State != StateFault {
		s.State = StatePlaying
	}
	s.Round, s.Honba, s.Kyotaku, s.TilesLeft = game.RoundName(v.Round()), v.Honba(), v.Kyotaku(), v.LiveLeft()
	s.Players = v.Players()
	s.Dora = ids(v.DoraIndicators())
	s.Red = redFives(v.Rules().Hand)
	s.Turn = int(v.Turn())
	if v.Phase() == game.PhaseEnd {
		s.Turn = -1
	}
	m.seatNames()
	scores := v.Scores()
	for q := range 4 {
		seat := game.Seat(q)
		sv := &s.Seats[q]
		sv.Dealer = seat == v.Oya()
		sv.Riichi = v.Riichi(seat)
		sv.Score = scores[q]
		tiles, _ := v.Hand(seat)
		sv.Concealed = len(tiles)
		sv.Hand = nil
		if m.spectator {
			sv.Hand = spectatorHand(tiles)
			sv.Self = false
		}
		sv.River = nil
		for _, r := range v.River(seat) {
			sv.River = append(sv.River, RiverTile{Tile: int(r.Tile), Tsumogiri: r.Tsumogiri, Riichi: r.Riichi, Called: r.Called})
		}
		sv.Melds = nil
		for _, ml := range v.Melds(seat) {
			sv.Melds = append(sv.Melds, meldOf(ml, seat))
		}
		sv.TimedOut = 0
		for _, t := range o.TimedOut {
			if t == seat {
				sv.TimedOut++
			}
		}
	}
	s.Offer, s.OfferFrom = -1, -1
	if t, _, from, _, ok := v.Offer(); ok {
		s.Offer, s.OfferFrom = int(t), int(from)
	}
	s.Drawn = -1
	s.MyHand, s.Waits, s.Furiten = nil, nil, false
	if m.spectator {
		s.Status, s.StatusMsg = m.statusText(v, o), nil
		if v.Phase() == game.PhaseEnd && s.State != StatePaused && s.State != StateFault {
			msg := DescribeMsg(v.Result(), m.names)
			s.StatusMsg = &msg
		}
		return
	}
	me := o.Seat
	tiles, _ := v.Hand(me)
	hand := slices.Clone(tiles)
	if m.justDrew(v, me) && len(hand) > 0 {
		s.Drawn = int(hand[len(hand)-1])
		hand = hand[:len(hand)-1]
	}
	s.MyHand = sortedIDs(hand)
	s.Waits, s.Furiten = nil, false
	melds := len(v.Melds(me))
	if len(tiles) == 13-3*melds && !containsUnknown(tiles) {
		c := riichi.CountsOf(tiles)
		furiten := v.FuritenKinds(me) // own discards, temporary and riichi furiten
		for _, k := range riichi.Waits(&c, melds) {
			s.Waits = append(s.Waits, int(k))
			if furiten&(1<<uint(k)) != 0 {
				s.Furiten = true
			}
		}
	}
	s.Status, s.StatusMsg = m.statusText(v, o), nil
	if v.Phase() == game.PhaseEnd && s.State != StatePaused && s.State != StateFault {
		msg := DescribeMsg(v.Result(), m.names)
		s.StatusMsg = &msg
	}
}

// justDrew reports whether seat me holds a tile it has just drawn: its turn
// came by a tsumo or rinshan draw (not by a chi or pon).
func (m *Model) justDrew(v *game.Kyoku, me game.Seat) bool {
	if v.Phase() != game.PhaseTurn || v.Turn() != me {
		return false
	}
	if m.last == nil {
		return true // the dealer's first draw comes with the haipai
	}
	l0, r0 := m.last.Draws()
	l1, r1 := v.Draws()
	return l1+r1 > l0+r0 || m.last.Phase() == game.PhaseTurn && m.last.Turn() == me && len(m.last.Melds(me)) == len(v.Melds(me))
}

func (m *Model) statusText(v *game.Kyoku, o protocol.Observation) string {
	if m.s.State == StatePaused || m.s.State == StateFault {
		return m.s.Status
	}
	if v.Phase() == game.PhaseEnd {
		return Describe(v.Result(), m.names)
	}
	if len(o.Waiting) == 0 {
		return ""
	}
	var who []string
	for _, s := range o.Waiting {
		if s == o.Seat && !m.spectator {
			who = append(who, "you")
		} else {
			who = append(who, m.names.Name(s))
		}
	}
	if o.Step == "key release" {
		return "decrypting a dora indicator in public"
	}
	what := map[string]string{"tsumo": "to draw", "turn": "to play", "answer": "to answer the discard", "call": "to call", "declare": "to declare tenpai or noten"}[o.Step]
	list := strings.Join(who, ", ")
	if n := len(who); n > 1 {
		list = strings.Join(who[:n-1], ", ") + " and " + who[n-1]
	}
	if what == "" {
		return "waiting for " + list
	}
	return fmt.Sprintf("waiting for %s %s", list, what)
}

// diff appends to the feed what changed from prev to v.
func (m *Model) diff(prev, v *game.Kyoku, o protocol.Observation) {
	n := m.names
	if prev == nil {
		return
	}
	reds := v.Rules().Hand.Reds() // name tiles as the table plays them
	for q := range 4 {
		seat := game.Seat(q)
		pr, r := prev.River(seat), v.River(seat)
		for _, t := range r[min(len(pr), len(r)):] {
			how, howMsg := "", any("")
			if t.Tsumogiri {
				how, howMsg = " (tsumogiri)", i18n.M("feed.tsumogiri")
			}
			if t.Riichi {
				m.event("riichi", seat, int(t.Tile), "%s declares riichi, discarding %s%s", n.Name(seat), TileWord(t.Tile, reds), how)
				m.setMsg(i18n.Join(i18n.M("feed.riichi", n.NameMsg(seat), TileMsg(t.Tile, reds)), howMsg))
			} else {
				m.event("discard", seat, int(t.Tile), "%s discards %s%s", n.Name(seat), TileWord(t.Tile, reds), how)
				m.setMsg(i18n.Join(i18n.M("feed.discard", n.NameMsg(seat), TileMsg(t.Tile, reds)), howMsg))
			}
		}
		pm, ms := prev.Melds(seat), v.Melds(seat)
		for i, ml := range ms {
			if i < len(pm) && pm[i].Type == ml.Type {
				continue
			}
			what := HandWords(ml.Tiles, reds)
			act := i18n.M("act." + ml.Type.String())
			switch ml.Type {
			case riichi.Ankan:
				m.event("call", seat, -1, "%s declares ankan %s", n.Name(seat), what)
			case riichi.Kakan:
				m.event("call", seat, int(ml.Called), "%s declares kakan %s", n.Name(seat), what)
			default:
				m.event("call", seat, int(ml.Called), "%s calls %s on %s from %s: %s", n.Name(seat), ml.Type, TileWord(ml.Called, reds), n.Name(ml.FromSeat), what)
			}
			if ml.Type == riichi.Ankan || ml.Type == riichi.Kakan || ml.Type == riichi.Daiminkan {
				act = i18n.M("act.kan")
			}
			var called any = ""
			if len(ml.Tiles) > 0 {
				called = TileMsg(ml.Tiles[0], reds)
			}
			if ml.Type != riichi.Ankan {
				called = TileMsg(ml.Called, reds)
			}
			m.setMsg(i18n.M("feed.call", n.NameMsg(seat), act, called))
		}
	}
	for _, t := range newDoraIndicators(prev.DoraIndicators(), v.DoraIndicators()) {
		m.event("dora", -1, int(t), "new dora indicator %s", TileWord(t, reds))
		m.setMsg(i18n.M("feed.dora", TileMsg(t, reds)))
	}
	if pl, pr := prev.Draws(); !m.spectator && v.Phase() == game.PhaseTurn && v.Turn() == o.Seat {
		if l, r := v.Draws(); l+r > pl+pr {
			tiles, _ := v.Hand(o.Seat)
			if len(tiles) > 0 {
				m.event("draw", o.Seat, int(tiles[len(tiles)-1]), "you draw %s", TileWord(tiles[len(tiles)-1], reds))
				m.setMsg(i18n.M("feed.draw", TileMsg(tiles[len(tiles)-1], reds)))
			}
		}
	}
	for _, t := range o.TimedOut[min(m.timedOut, len(o.TimedOut)):] {
		m.event("timeout", t, -1, "%s did not decide in time; the node acted for them", n.Name(t))
		m.setMsg(i18n.M("feed.timeout", n.NameMsg(t)))
	}
	if prev.Result() == nil && v.Result() != nil {
		m.event("result", -1, -1, "%s", Describe(v.Result(), n))
		m.setMsg(DescribeMsg(v.Result(), n))
	}
}

// Decide shows a decision: the legal actions of seat s in view, the
// deadline (zero for none) and def, the action the node takes on a
// timeout. It returns the Decision with its ID. A decision with one option
// is not shown: the caller takes it at once.
func (m *Model) Decide(view *game.Kyoku, s game.Seat, deadline time.Time, def game.Action) Decision {
	m.mu.Lock()
	defer m.mu.Unlock()
	hand := slices.Clone(m.s.MyHand)
	if m.s.Drawn >= 0 {
		hand = append(hand, m.s.Drawn)
	}
	opts := Options(view, s, hand)
	m.decisions++
	d := Decision{ID: m.decisions, Options: opts, Default: DefaultOption(opts, def, view.Rules().Hand.Reds())}
	d.countFrom(time.Now(), deadline, m.clock.State())
	if len(opts) <= 1 {
		return d // nothing to ask: the caller takes the only action
	}
	m.s.Decision = &d
	m.s.Notice = ""
	m.commit()
	return d
}

// Recount restarts the countdown of the open decision id from now, after
// its clock stood still (timecontrol.Clock.Pause: the page was away): the
// node acts for the player at the clock's end or at deadline, the
// decision's hard bound, whichever comes first. Another id changes
// nothing.
func (m *Model) Recount(id int, deadline time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.s.Decision == nil || m.s.Decision.ID != id {
		return
	}
	d := *m.s.Decision
	d.countFrom(time.Now(), deadline, m.clock.State())
	if d.Deadline == m.s.Decision.Deadline && d.BaseDeadline == m.s.Decision.BaseDeadline {
		return // no clock stood still: nothing to show again
	}
	m.s.Decision = &d
	m.commit()
}

// Decided clears the decision decided (by the player, or by the node after
// the timeout when timedOut) with notice for the player ("" none).
func (m *Model) Decided(id int, notice string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.s.Decision != nil && m.s.Decision.ID == id {
		m.s.Decision = nil
	}
	m.s.Notice, m.s.NoticeMsg = notice, nil
	if notice != "" {
		m.event("info", -1, -1, "%s", notice)
	}
	m.commit()
}

// DecidedMsg is Decided with the notice as a message (i18n.Msg): the
// player reads it in the view's language, the feed keeps it.
func (m *Model) DecidedMsg(id int, notice i18n.Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.s.Decision != nil && m.s.Decision.ID == id {
		m.s.Decision = nil
	}
	m.say("info", notice)
	m.s.Notice, m.s.NoticeMsg = m.s.Feed[len(m.s.Feed)-1].Text, &notice
	m.commit()
}

// NoticeMsg shows a message to the player without other change (an
// action refused, say): its English in Notice, the message in NoticeMsg.
func (m *Model) NoticeMsg(msg i18n.Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Notice, m.s.NoticeMsg = i18n.English().Say(msg), &msg
	m.commit()
}

// HandDone records a hand's result (protocol.Config.OnHand): the
// end-of-hand screen, with the audit verdict.
func (m *Model) HandDone(r protocol.HandResult) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.Seats != nil {
		m.names.Seats = r.Seats
	}
	hs := Summarize(r, m.last, m.names)
	m.s.Hands = append(m.s.Hands, hs)
	m.s.State = StateHandOver
	m.s.Decision = nil
	m.s.Status, m.s.StatusMsg = hs.Text, hs.TextMsg
	m.say("audit", i18n.M("feed.audit", r.Number, *hs.AuditMsg))
	m.commit()
}

// Finish ends the game: st are the final standings (nil if the match did
// not finish, e.g. a fixed number of hands); err, if not nil, is why the
// game stopped (a *protocol.BlameError names the peer at fault).
func (m *Model) Finish(st *game.Standings, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Decision = nil
	if st != nil {
		m.s.Standings = Rank(*st, m.names)
	}
	if err != nil {
		m.s.State = StateFault
		msg := FaultMsg(err, m.names)
		m.status(msg)
		m.say("fault", msg)
	} else {
		m.s.State = StateOver
		msg := i18n.M("info.over")
		m.s.Status, m.s.StatusMsg = i18n.English().Say(msg), &msg
		m.say("info", msg)
		m.seatLinks()
	}
	m.commit()
}

// Pause marks the table as waiting for a peer to come back, with text
// saying who and for how long ("" resumes), as protocol.Pause.Text gives
// it. The feed gets one entry when the pause starts and one when play
// resumes; the status line follows every call (the countdown).
func (m *Model) Pause(text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pause(text, nil)
}

// pause is Pause with m.mu held; it reports whether it changed anything
// (and committed).
// msg, if not nil, is text as a message.
func (m *Model) pause(text string, msg *i18n.Msg) bool {
	if text == "" {
		if m.s.State != StatePaused {
			return false
		}
		m.s.State = StatePlaying
		m.s.Status, m.s.StatusMsg = "", nil
		m.say("info", i18n.M("info.back"))
	} else {
		if m.s.State != StatePaused {
			m.event("info", -1, -1, "%s", text)
			m.s.Feed[len(m.s.Feed)-1].Msg = msg
		}
		m.s.State = StatePaused
		m.s.Status, m.s.StatusMsg = text, msg
	}
	m.commit()
	return true
}

// FaultText says why a game stopped, as the protocol's verdict gives it
// (protocol.Verdict): a blame — cheating proven, with its evidence — or a
// fault (silence, a lost connection, an abort, a local error), naming
// the peer concerned as names does. It is FaultMsg in English.
func FaultText(err error, names Names) string {
	return i18n.English().Say(FaultMsg(err, names))
}

// FaultMsg is FaultText as a message (i18n.Msg): the frame in the view's
// language ("cheating proven, hand 3: …", "不正を証明（第3局）: …"), the
// blame or fault said from its kind and fields (BlameReasonMsg,
// FaultReasonMsg, EvidenceMsg).
func FaultMsg(err error, names Names) i18n.Msg {
	b, f := protocol.Verdict(err, "", 0)
	switch {
	case b != nil:
		var ev []any
		for _, e := range b.Evidence {
			ev = append(ev, EvidenceMsg(e))
		}
		return i18n.M("fault.blame", b.Hand, whoMsg(b.Peer, names), b.Peer.String(), BlameReasonMsg(*b), i18n.List("list.sep", ev...))
	case f != nil && f.Peer != "":
		return i18n.M("fault.peer", f.Hand, whoMsg(f.Peer, names), f.Peer.String(), FaultReasonMsg(*f))
	case f != nil:
		return i18n.M("fault.hand", f.Hand, FaultReasonMsg(*f))
	}
	return i18n.M("fault.other", err.Error())
}

// newDoraIndicators returns the dora indicators of cur that prev did not
// show, in order: those turned since, each once it is known. After a kan
// the engine counts the new indicator before the players' keys reveal its
// tile (game.Unknown until then); it is announced when it becomes known,
// never as an unknown tile.
func newDoraIndicators(prev, cur []wall.Tile) []wall.Tile {
	var out []wall.Tile
	for i, t := range cur {
		if t == game.Unknown {
			continue
		}
		if i >= len(prev) || prev[i] == game.Unknown {
			out = append(out, t)
		}
	}
	return out
}

// spectatorHand is a seat's concealed tiles as a spectator's table draws
// them: the known ones sorted, then one -1 (a back) for each hidden one.
func spectatorHand(tiles []wall.Tile) []int {
	out := make([]int, 0, len(tiles))
	hidden := 0
	for _, t := range tiles {
		if t == game.Unknown {
			hidden++
			continue
		}
		out = append(out, int(t))
	}
	slices.Sort(out)
	for range hidden {
		out = append(out, -1)
	}
	return out
}
