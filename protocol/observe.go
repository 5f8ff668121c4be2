package protocol

import (
	"fmt"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// Observer watches a game from this player's seat, for a user interface:
// a table drawn in a browser or on a terminal. It sees exactly what the
// player may see — its own tiles and the public kyoku — and nothing it
// could act on: actions still come only from Config.Player, and the
// protocol checks them.
//
// Observe is called on the game's goroutine, in order, so it must not
// block (a slow observer slows the table down); it may keep the
// Observation, which is never modified afterwards.
type Observer interface {
	Observe(Observation)
}

// ObserverFunc adapts a function to the Observer interface.
type ObserverFunc func(Observation)

// Observe calls f(o).
func (f ObserverFunc) Observe(o Observation) { f(o) }

// Observation is one moment of a hand as this player sees it.
type Observation struct {
	// Hand is the 1-based hand number.
	Hand int
	// Stage is the hand's protocol step under way: "seats and dice",
	// "shuffle", "rekey", "haipai", "dora indicator", "play" (View set)
	// or "key reveal" (the audit follows; View holds the ended kyoku).
	Stage string
	// Seat is this player's seat (0..3; seat 0 sits East in the first
	// kyoku), or -1 before hand 1 has fixed the seating.
	Seat game.Seat
	// Seats and Nicks are the four players' peer IDs and announced
	// nicknames in seat order; nil before hand 1 has fixed the seating.
	Seats []peer.ID
	Nicks []string
	// View is, while Stage is "play" or "key reveal", a private copy of
	// the kyoku with this player's own tiles revealed and everyone
	// else's hidden, after every step the node has applied; nil before.
	View *game.Kyoku
	// Step is what the kyoku waits for next: "tsumo", "turn", "answer",
	// "call", "declare", "key release" (a public decryption of a dora or
	// ura-dora indicator) or "end"; Waiting are the seats it waits for
	// (the seat to act or draw, the players still to answer).
	Step    string
	Waiting []game.Seat
	// TimedOut lists, in order, the seats whose node acted for them after
	// their decision timeout in this hand (Config.DecisionTimeout),
	// this player's own included.
	TimedOut []game.Seat
}

// observeStage reports the start of a protocol step of the hand.
func (h *hand) observeStage(stage string) {
	if h.g.cfg.Observer == nil {
		return
	}
	h.g.cfg.Observer.Observe(h.observation(stage))
}

// observeKyoku reports the kyoku after each step the node has applied:
// st is what it waits for next, from seats.
func (h *hand) observeKyoku(st step, seats []game.Seat) {
	if h.g.cfg.Observer == nil {
		return
	}
	o := h.observation("play")
	v, err := h.view()
	if err != nil {
		return
	}
	o.View = v
	if int(st) >= 0 && int(st) < len(stepNames) {
		o.Step = stepNames[st]
	}
	o.Waiting = slices.Clone(seats)
	o.TimedOut = slices.Clone(h.t.timedOut)
	h.g.cfg.Observer.Observe(o)
}

func (h *hand) observation(stage string) Observation {
	o := Observation{Hand: int(h.num), Stage: stage, Seat: -1}
	if len(h.g.seats) == h.n {
		o.Seat = game.Seat(h.seat)
		o.Seats = slices.Clone(h.g.seats)
		for _, p := range h.g.seats {
			o.Nicks = append(o.Nicks, h.g.nicks[p])
		}
	}
	if stage == "key reveal" && h.t != nil {
		if v, err := h.view(); err == nil {
			o.View = v
			o.Step = "end"
			o.TimedOut = slices.Clone(h.t.timedOut)
		}
	}
	return o
}

// PauseObserver is an Observer that is also told when the table pauses
// for a player whose connection dropped (Config.ReconnectGrace).
type PauseObserver interface {
	Observer
	// Paused is called on the game's goroutine about once a second while
	// the table waits, and once with the zero Pause when it goes on.
	Paused(Pause)
}

// Pause says whom the table waits for. The zero Pause means the table is
// playing again.
type Pause struct {
	// Peer is the player whose connection dropped, Nick its announced
	// nickname ("" if none, or before the Hellos).
	Peer peer.ID
	Nick string
	// Left is the time left of the reconnect grace before the hand ends
	// as a fault naming Peer.
	Left time.Duration
}

// Text returns what a table shows while paused: "waiting for bob to
// reconnect (1:45 left)"; "" for the zero Pause.
func (p Pause) Text() string {
	if p.Peer == "" {
		return ""
	}
	who := p.Nick
	if who == "" {
		who = p.Peer.ShortString()
	}
	left := max(p.Left, 0).Round(time.Second)
	return fmt.Sprintf("waiting for %s to reconnect (%d:%02d left)", who, int(left.Minutes()), int(left.Seconds())%60)
}

// observePause tells a PauseObserver, if Config.Observer is one, that the
// table is paused (or, for the zero Pause, playing again), and logs it.
func (g *Game) observePause(p Pause) {
	if p.Peer == "" {
		g.log.Info("table playing again: every peer is connected")
	}
	if po, ok := g.cfg.Observer.(PauseObserver); ok {
		po.Paused(p)
	}
}
