package progress

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// Reporter writes a node's progress to W, one event a line: a text line
// for people, or with JSON a JSON object whose "event" key names it (see
// the package doc). It remembers the verdicts it wrote, so that each blame
// and fault is written once. Write errors of W are ignored, as for a
// terminal. Event, Path, WatchPaths, Relay and Name may be called from
// several goroutines; Hand, Blame and Fault from one at a time.
type Reporter struct {
	mu    sync.Mutex // the node reports paths from its own goroutine
	nicks map[peer.ID]string
	W     io.Writer       // where the lines go
	JSON  bool            // JSON objects instead of text lines
	seen  map[string]bool // verdicts already reported

	paths map[peer.ID]node.Path // the latest path of each peer (Path)
	// relayFaults counts the circuits to each player that relays dropped
	// or refused (RelayFault), for the note next to a silence fault.
	relayFaults map[peer.ID]relayTrouble
	// viaRelay is the relay of each peer's last relayed path (Path), and
	// lostRelays the relays whose slot this node lost and has not held
	// again (Relay), with why: a lost connection to a player whose path
	// went through a lost relay is the relay's doing, as far as we know.
	viaRelay   map[peer.ID]peer.ID
	lostRelays map[peer.ID]string
	watchers   map[*func(node.Path)]bool
	// over is set once the game has ended normally (GameOver): the
	// players leaving is no news then.
	over bool
}

// Event writes one event: e as a JSON object (Encode), or format and
// args as a text line (fmt.Fprintf, a newline added).
func (r *Reporter) Event(e Event, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.JSON {
		b, _ := Encode(e)
		fmt.Fprintf(r.W, "%s\n", b)
		return
	}
	fmt.Fprintf(r.W, format+"\n", args...)
}

// Hand writes the "hand" event of one hand, h, as seen by the node self:
// round, honba, dealer, dice, dora indicator, result, scores by seat (the
// first players of them: 3 or 4), events, audit, setup and hand times
// (the JSON in ms), then the hand's blames and faults. nicks names the
// players (peer id → nickname; may be nil); reds are the table's red
// fives, by which tiles are named (the JSON lists their Tenhou ids as
// "red").
func (r *Reporter) Hand(h protocol.HandResult, self peer.ID, nicks map[peer.ID]string, players int, reds wall.Reds) {
	names := verdict.Names{Seats: h.Seats, Nicks: nicks}
	audit := "ok"
	switch {
	case len(h.Blame) > 0:
		audit = "FAILED: cheating proven, see BLAME"
	case len(h.Faults) > 0:
		audit = "not completed, see FAULT"
	}
	var oya string
	if h.Oya < len(h.Seats) {
		oya = h.Seats[h.Oya].String()
	}
	name := names.Seat(h.Oya)
	result := verdict.DescribeResult(h.Result, name)
	var seatNicks []string // nicknames in seat order, for local
	for _, p := range h.Seats {
		seatNicks = append(seatNicks, nicks[p])
	}
	sn := screen.Names{Seats: h.Seats, Nicks: seatNicks, Oya: game.Seat(h.Oya)}
	resultMsg := i18n.Join(screen.DescribeMsg(h.Result, sn))
	for _, p := range h.TimedOut {
		s := game.Seat(slices.Index(h.Seats, p))
		result += "; " + name(s) + " timed out and was acted for"
		resultMsg.Args = append(resultMsg.Args, i18n.M("local.timedout", sn.NameMsg(s)))
	}
	// A hand that ended without a result (a fault, an abort) leaves the
	// scores as they stood when it started.
	scores := h.Start.Scores
	if h.Result != nil {
		scores = h.Result.Scores
	}
	seated := scores[:min(max(players, 1), len(scores))] // sanma: seat 3 is empty
	dealer := "dealer unknown"
	if oya != "" {
		dealer = "dealer " + name(game.Seat(h.Oya))
	}
	r.Event(Hand{
		Hand: h.Number, Round: h.Start.Round, Honba: h.Start.Honba, Result: result, ResultMsg: &resultMsg, Scores: scores,
		OyaSeat: h.Oya, Oya: oya, Dice: h.Dice, Nicks: seatNicks,
		DoraIndicator: h.DoraIndicator, Red: reds.Tiles(), Yama: h.Yama, Events: h.Events, AuditOK: len(h.Blame) == 0 && len(h.Faults) == 0 && h.Yama != nil,
		SetupMs: Milliseconds(h.Setup), DurationMs: Milliseconds(h.Duration), PauseMs: Milliseconds(h.Pause), DrawLatencyMs: MillisecondsList(h.DrawLatency),
	}, "hand %d (%s, honba %d): %s%s, dice %d+%d, dora indicator %s: %s; scores %s; %d events, audit %s, setup %s, hand %s",
		h.Number, game.RoundName(h.Start.Round), h.Start.Honba, dealer, selfMark(h, self), h.Dice[0]+1, h.Dice[1]+1, verdict.TileName(h.DoraIndicator, reds),
		result, scoreList(seated, name), h.Events, audit, h.Setup.Round(time.Millisecond), h.Duration.Round(time.Millisecond))
	when := "end of hand"
	if h.Aborted {
		when = "at once"
	}
	for _, b := range h.Blame {
		r.Blame(b, names, when)
	}
	for _, f := range h.Faults {
		r.Fault(f, names)
	}
}

// once reports whether key is new to r, remembering it.
func (r *Reporter) once(key string) bool {
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[key] {
		return false
	}
	r.seen[key] = true
	return true
}

// Blame writes a proven cheat (once), naming the player as names does;
// when says whether it was caught "at once" (on arrival, the hand
// aborted) or at the "end of hand" (by the audit).
func (r *Reporter) Blame(b protocol.Blame, names verdict.Names, when string) {
	if !r.once(fmt.Sprint("blame", b.Hand, b.Peer, b.Reason)) {
		return
	}
	player := names.Short(b.Peer, -1)
	var ev []string
	for _, e := range b.Evidence {
		ev = append(ev, e.String())
	}
	msg := screen.BlameReasonMsg(b)
	r.Event(Blame{Peer: b.Peer.String(), Player: player, Hand: b.Hand, Reason: b.Reason, Msg: &msg, Evidence: ev, When: when},
		"BLAME hand %d: %s %s: %s (evidence: %s)", b.Hand, player, b.Peer, b.Reason, strings.Join(ev, ", "))
}

// Fault writes a fault (once), naming the player as names does.
func (r *Reporter) Fault(f protocol.Fault, names verdict.Names) {
	if !r.once(fmt.Sprint("fault", f.Hand, f.Peer, f.Kind)) {
		return
	}
	player := names.Short(f.Peer, -1)
	var reporters []string
	for _, p := range f.Reporters {
		reporters = append(reporters, p.String())
	}
	msg := screen.FaultReasonMsg(f)
	ev := Fault{Peer: f.Peer.String(), Player: player, Hand: f.Hand, Kind: string(f.Kind), Reason: f.Reason, Msg: &msg, Reporters: reporters}
	note, relay := r.relayNote(f.Kind, f.Peer)
	if note == "" {
		r.Event(ev, "FAULT hand %d: %s %s: %s: %s", f.Hand, player, f.Peer, f.Kind, f.Reason)
		return
	}
	ev.RelayNote = &RelayNote{Relay: relay.String(), Note: note}
	r.Event(ev, "FAULT hand %d: %s %s: %s: %s\n  (%s)", f.Hand, player, f.Peer, f.Kind, f.Reason, note)
}

// scoreList writes scores by seat with the seats' names:
// "alice (East, seat 0) 25000, bob (South, seat 1) 25000, …".
func scoreList(scores []int, name func(game.Seat) string) string {
	var parts []string
	for s, v := range scores {
		parts = append(parts, fmt.Sprintf("%s %d", name(game.Seat(s)), v))
	}
	return strings.Join(parts, ", ")
}

func selfMark(h protocol.HandResult, self peer.ID) string {
	if h.Oya < len(h.Seats) && h.Seats[h.Oya] == self {
		return " (you)"
	}
	return ""
}

// Milliseconds is d in ms, to the µs: the unit of every "…_ms" field.
func Milliseconds(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// MillisecondsList is ds in ms, each as Milliseconds gives it.
func MillisecondsList(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = Milliseconds(d)
	}
	return out
}
