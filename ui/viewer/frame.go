package viewer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// AllOpen is the view of Frame that shows every seat's concealed hand.
const AllOpen = -1

// Frame is one moment of a record as the page draws it: the live table's
// Snapshot (the viewed seat at the bottom, its hand as "my hand"; the
// end-of-hand screen on the kyoku's last step; the standings on the
// game's last) and where it is in the record.
type Frame struct {
	screen.Snapshot
	// K is the kyoku's index (0-based, as Tenhou's viewer counts) and A
	// the step within it (0 the deal); Kyokus and Steps the counts.
	K      int `json:"k"`
	A      int `json:"a"`
	Kyokus int `json:"kyokus"`
	Steps  int `json:"steps"`
	// View is the seat whose view this is, or AllOpen.
	View int `json:"view"`
	// Open are the seats' concealed hands (sorted, the tile just drawn
	// apart in Drawn): every seat's with AllOpen, none in a seat's view.
	// A tile the record hides is -1.
	Open []OpenHand `json:"open"`
	// Nukidora are, in sanma, the norths each seat has set aside (kita),
	// by seat.
	Nukidora [][]int `json:"nukidora"`
	// Verified and Verification are the kyoku's verification (Kyoku).
	Verified     bool   `json:"verified"`
	Verification string `json:"verification"`
	// VerificationMsg is Verification as a message (i18n.Msg).
	VerificationMsg *i18n.Msg `json:"verificationMsg,omitempty"`
	// Stopped says the rules engine refused an event of this kyoku ("" if
	// none); the record's later events are not shown.
	Stopped string `json:"stopped"`
}

// OpenHand is one seat's concealed hand.
type OpenHand struct {
	Seat  int   `json:"seat"`
	Tiles []int `json:"tiles"`
	Drawn int   `json:"drawn"`
}

// Frame returns step a of kyoku k seen by seat view (0..3, or AllOpen),
// drawn by a screen.Model fed the kyoku up to that step. k and a are
// clamped to the record; a view outside the record's seats is AllOpen.
// A record that is one player's view (Owner) is always seen by that
// player, and shows no other seat's concealed tile: the tiles it hides
// were never in it, and those it names it saw only when they were played.
func (rec *Record) Frame(k, a, view int) Frame {
	k = max(0, min(k, len(rec.Kyoku)-1))
	ky := &rec.Kyoku[k]
	a = max(0, min(a, len(ky.Steps)-1))
	if view < 0 || view >= rec.Players {
		view = AllOpen
	}
	self := view
	if self == AllOpen {
		// The owner of a private record, else the player who wrote it,
		// sits at the bottom.
		self = max(rec.Owner, rec.Me, 0)
		if rec.Owner >= 0 {
			self = rec.Owner
		}
	}
	names := screen.Names{Seats: rec.seats, Nicks: rec.Names[:rec.Players], Oya: game.Seat(ky.Hand.Oya)}
	m := screen.NewModel(nil)
	for i := 0; i <= a; i++ {
		m.Observe(protocol.Observation{Hand: k + 1, Stage: "play", Seat: game.Seat(self), Seats: rec.seats, Nicks: names.Nicks, View: ky.Steps[i]})
	}
	last := a == len(ky.Steps)-1
	if last && ky.Hand.Result != nil {
		m.HandDone(ky.Hand)
		if k == len(rec.Kyoku)-1 && rec.Standings != nil {
			m.Finish(rec.Standings, nil)
		}
	}
	f := Frame{Snapshot: m.Snapshot(), K: k, A: a, Kyokus: len(rec.Kyoku), Steps: len(ky.Steps), View: view,
		Verified: ky.Verified, Verification: ky.Verification, VerificationMsg: ky.verificationMsg()}
	if last {
		f.Stopped = ky.Stopped
	}
	if rec.Players == 3 {
		for q := range 3 {
			var ns []int
			for _, t := range ky.Steps[a].Nukidora(game.Seat(q)) {
				ns = append(ns, int(t))
			}
			f.Nukidora = append(f.Nukidora, ns)
		}
	}
	s := &f.Snapshot
	for i := range s.Hands {
		// The end-of-hand screen says how this kyoku was verified.
		s.Hands[i].Audit, s.Hands[i].AuditOK = ky.Verification, ky.Verified
		s.Hands[i].AuditMsg = ky.verificationMsg()
	}
	s.Feed = replayFeed(s.Feed, names, ky)
	if s.Status == "" && len(s.Feed) > 0 {
		s.Status, s.StatusMsg = s.Feed[len(s.Feed)-1].Text, s.Feed[len(s.Feed)-1].Msg
	}
	if s.State == screen.StateHandOver || s.State == screen.StateOver {
		s.Status, s.StatusMsg = fmt.Sprintf("%s (%s)", s.Status, ky.Verification), nil
	}
	// The reader of a replay plays no seat: no name plate says "(you)",
	// and the viewed seat's shows its count of tiles like the others'.
	for q := range s.Seats {
		s.Seats[q].Self = false
	}
	if view == AllOpen {
		for q := range rec.Players {
			h := openHand(ky.Steps, a, game.Seat(q))
			if rec.Owner >= 0 && q != rec.Owner {
				// A player's view names some of another's haipai tiles
				// (those it saw later, discarded or called): not yet.
				if h.Drawn >= 0 {
					h.Tiles, h.Drawn = append(h.Tiles, -1), -1
				}
				for i := range h.Tiles {
					h.Tiles[i] = -1
				}
			}
			f.Open = append(f.Open, h)
		}
	}
	return f
}

// replayFeed rewrites the live table's feed for a replay: no shuffle
// (the record has none to show), draws named by player rather than
// "you", and the kyoku's verification as its audit line.
func replayFeed(feed []screen.Event, names screen.Names, ky *Kyoku) []screen.Event {
	out := slices.DeleteFunc(slices.Clone(feed), func(e screen.Event) bool {
		return e.Kind == "hand" && strings.HasSuffix(e.Text, ": shuffling the wall")
	})
	for i, e := range out {
		if e.Kind == "draw" && strings.HasPrefix(e.Text, "you draw ") {
			word := strings.TrimPrefix(e.Text, "you draw ")
			out[i].Text = names.Name(game.Seat(e.Seat)) + " draws " + word
			var tile any = word
			if e.Tile >= 0 && wall.Tile(e.Tile).Valid() && wall.Tile(e.Tile).Kind() >= 27 {
				tile = i18n.M("tile." + wall.Tile(e.Tile).Kind().String())
			}
			msg := i18n.M("feed.draws", names.NameMsg(game.Seat(e.Seat)), tile)
			out[i].Msg = &msg
		}
		if e.Kind == "audit" {
			out[i].Text = fmt.Sprintf("hand %d: %s", ky.Hand.Number, ky.Verification)
			out[i].Msg = nil // the record's verification, in its words when it has no message
			if v := ky.verificationMsg(); v != nil {
				msg := i18n.M("feed.audit", ky.Hand.Number, *v)
				out[i].Msg = &msg
			}
		}
	}
	return out
}

// openHand returns seat s's concealed hand at step a of steps, the tile
// it has just drawn (by a tsumo or rinshan draw since the step before)
// set apart.
func openHand(steps []*game.Kyoku, a int, s game.Seat) OpenHand {
	k := steps[a]
	tiles, _ := k.Hand(s)
	h := OpenHand{Seat: int(s), Drawn: -1}
	ids := make([]int, len(tiles))
	for i, t := range tiles {
		ids[i] = int(t)
	}
	if a > 0 && k.Phase() == game.PhaseTurn && k.Turn() == s && len(ids) > 0 {
		l0, r0 := steps[a-1].Draws()
		l1, r1 := k.Draws()
		if l1+r1 > l0+r0 {
			h.Drawn, ids = ids[len(ids)-1], ids[:len(ids)-1]
		}
	}
	if a == 0 && k.Phase() == game.PhaseTurn && k.Turn() == s && len(ids) == 14 {
		h.Drawn, ids = ids[len(ids)-1], ids[:len(ids)-1] // the dealer's first draw
	}
	slices.Sort(ids)
	h.Tiles = ids
	return h
}
