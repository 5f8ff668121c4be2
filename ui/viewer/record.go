package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
	"github.com/mentalmj/mentalmj/riichi/replay"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall/tenhou"
)

// MaxFileSize is the largest record Load reads, in bytes (a hanchan's
// transcript is a few MiB; Tenhou's logs are tens of KiB).
const MaxFileSize = 256 << 20

// ErrBadRecord is wrapped by Load's errors for a file of a known format
// that cannot be shown: cut short, damaged, of another protocol version,
// or holding no kyoku. The message names the file and its format.
var ErrBadRecord = errors.New("cannot show this record")

// Record is a game read for the viewer: every kyoku as the sequence of
// its table states.
type Record struct {
	// File is the path read; Format what Detect found in it.
	File   string
	Format Format
	// Players is 4, or 3 for sanma; Names the nicknames in seat order
	// (seat 0 the first East; "" for seat 3 of sanma).
	Players int
	Names   [4]string
	// Owner is the seat whose view the record is when it hides tiles (a
	// private-hands record), -1 when every tile is shown.
	Owner int
	// Me is the seat of the player who wrote the record (a transcript's
	// owner: the node that sent and received its private messages), -1
	// when the record does not say; the page draws that seat at the
	// bottom, as the player sat.
	Me int
	// Kyoku are the kyoku in play order.
	Kyoku []Kyoku
	// Standings are the final standings when the match ended, else nil.
	Standings *game.Standings
	// Notes are remarks on the whole record for the page ("the rules
	// engine disagrees with the log in 2 places", hands that could not
	// be replayed).
	Notes []string

	seats  []peer.ID             // in seat order: the transcript's peers, else empty IDs
	audits []*protocol.HandAudit // a transcript's audited hands, one per kyoku
}

// Kyoku is one kyoku of a Record.
type Kyoku struct {
	// Steps are the kyoku after the deal (Steps[0]) and after every event
	// of the record, each a private copy (never changed).
	Steps []*game.Kyoku
	// Hand is the kyoku's end-of-hand result as the live table gets it:
	// number, seats, dealer, dice, the deal, the game.Result (nil if the
	// kyoku did not end), and for a transcript the audit's wall, blames
	// and faults.
	Hand protocol.HandResult
	// Verified and Verification are the kyoku's verification: the audit's
	// verdict for a transcript, Tenhou's seed for a log that has one,
	// else what cannot be verified and why.
	Verified     bool
	Verification string
	// VerificationMsg is Verification as a message (i18n.Msg) for the
	// page's language.
	VerificationMsg i18n.Msg
	// Stopped is, when the rules engine refused an event of the record,
	// what it refused ("" when the kyoku was replayed to its end).
	Stopped string

	round int  // the index of the kyoku in the record's rounds
	cut   bool // the record's events end inside the kyoku
}

// Load reads the record at path in any format Detect knows and replays
// it through the rules engine. It returns an error naming path that
// wraps ErrUnknownFormat (saying what the file looks like) or
// ErrBadRecord (saying which format and what is wrong with it), or the
// error of opening the file.
func Load(path string) (*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w: larger than %d MiB", path, ErrBadRecord, MaxFileSize>>20)
	}
	return Read(data, path)
}

// Read is Load for a record already in memory; name names it in errors.
func Read(data []byte, name string) (*Record, error) {
	format, err := Detect(data[:min(len(data), headSize)])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	bad := func(err error) error {
		return fmt.Errorf("%s: %w: it is %s, but %s", name, ErrBadRecord, format.article(), strings.TrimPrefix(err.Error(), name+": "))
	}
	rec := &Record{File: name, Format: format, Owner: -1, Me: -1}
	var g *mjlog.Game
	var lines []int // an mjai log's last line per round
	switch format {
	case Mjlog:
		g, err = mjlog.ParseView(bytes.NewReader(data), name)
	case Tenhou6:
		g, err = tenhou6.Read(data, name)
	case Mjai:
		g, lines, err = mjai.Read(data, name)
	case Transcript:
		g, err = rec.fromTranscript(data, name)
	}
	if err != nil {
		return nil, bad(err)
	}
	if len(g.Rounds) == 0 {
		return nil, bad(errors.New("it holds no kyoku"))
	}
	rec.Players = g.Go.Players()
	for s := range min(4, len(g.Players)) {
		rec.Names[s] = g.Players[s].Name
	}
	if rec.seats == nil {
		rec.seats = make([]peer.ID, rec.Players)
	}
	if g.HasHidden() && rec.Owner < 0 {
		rec.Owner = viewOwner(g)
	}
	rec.replay(g)
	if len(rec.Kyoku) == 0 {
		return nil, bad(errors.New("the rules engine could not deal its first kyoku: " + strings.Join(rec.Notes, "; ")))
	}
	if err := rec.cutShort(lines); err != nil {
		return nil, bad(err)
	}
	rec.verify(g, format)
	return rec, nil
}

// cutShort returns an error for a record whose events end inside a kyoku:
// the rules engine took every event of a kyoku without refusing one, and
// the kyoku is not over (a file cut at a line or tag boundary, which reads
// without an error of its own). It names the kyoku (from 1), the
// phase it waits in and, for an mjai log, the line of its last event
// (lines, per round of the game).
func (rec *Record) cutShort(lines []int) error {
	for i, k := range rec.Kyoku {
		if !k.cut {
			continue
		}
		where := fmt.Sprintf("after step %d", len(k.Steps)-1)
		if k.round < len(lines) {
			where = fmt.Sprintf("at line %d", lines[k.round])
		}
		return fmt.Errorf("it is cut short: kyoku %d (%s) stops in phase %s %s, before its result", i+1,
			tenhou.RoundName(k.Hand.Start.Round, k.Hand.Start.Honba), k.Steps[len(k.Steps)-1].Phase(), where)
	}
	return nil
}

// viewOwner returns the seat whose haipai the view record g shows, -1 if
// none.
func viewOwner(g *mjlog.Game) int {
	for s, h := range g.Rounds[0].Init.Hai {
		if len(h) > 0 && !slices.Contains(h, mjlog.Hidden) {
			return s
		}
	}
	return -1
}

// replay walks g through the rules engine, keeping every step.
func (rec *Record) replay(g *mjlog.Game) {
	index := map[int]int{} // g.Rounds index → rec.Kyoku index
	res, st := replay.Walk(g, func(s replay.Step) {
		i, ok := index[s.Round]
		if !ok {
			i = len(rec.Kyoku)
			index[s.Round] = i
			in := &g.Rounds[s.Round].Init
			d := game.Deal{Round: in.Kyoku, Honba: in.Honba, Kyotaku: in.Kyotaku, Oya: game.Seat(in.Oya)}
			for q := range 4 {
				if q < len(in.Ten) {
					d.Scores[q] = 100 * in.Ten[q]
				}
			}
			rec.Kyoku = append(rec.Kyoku, Kyoku{round: s.Round, Hand: protocol.HandResult{Number: i + 1, Seats: rec.seats, Oya: in.Oya, Dice: in.Dice, DoraIndicator: int(in.DoraIndicator), Start: d}})
		}
		k := &rec.Kyoku[i]
		k.Steps = append(k.Steps, s.Kyoku.Clone())
		k.Hand.Result = s.Kyoku.Result()
		k.Hand.Events = s.Event
	})
	for _, s := range res.Skipped {
		rec.Notes = append(rec.Notes, "not replayed: "+s.Reason)
	}
	disagree := 0
	converted := rec.Format == Tenhou6 || rec.Format == Mjai
	if converted {
		rec.Notes = append(rec.Notes, fmt.Sprintf("the record (%s) carries no yaku, fu or hand values: the end-of-hand screens show the rules engine's own scoring of each hand", rec.Format))
	}
	for _, m := range res.Mismatches {
		i, ok := index[mismatchRound(m.Round)]
		if ok && rec.Kyoku[i].Hand.Result == nil && rec.Kyoku[i].Stopped == "" {
			// The record ran out of events with the kyoku not over.
			rec.Kyoku[i].cut = m.Tag == "(end of kyoku)" && m.Expected == "kyoku over"
			rec.Kyoku[i].Stopped = fmt.Sprintf("the rules engine refused %s: %s (expected %s)", m.Tag, m.Actual, m.Expected)
			continue
		}
		if converted {
			continue
		}
		disagree++
		if disagree <= 3 {
			rec.Notes = append(rec.Notes, fmt.Sprintf("the rules engine disagrees with the record at %s %s: the record has %s, the engine %s", m.Round, m.Tag, m.Expected, m.Actual))
		}
	}
	if disagree > 3 {
		rec.Notes = append(rec.Notes, fmt.Sprintf("… %d disagreements in all; the page shows the engine's view", disagree))
	}
	if st != nil && len(rec.Kyoku) == len(g.Rounds) && g.Owari != nil {
		rec.Standings = st
	}
}

// mismatchRound returns the g.Rounds index a replay.Mismatch's Round
// names ("East 1, honba 0, kyoku #3"), -1 if none.
func mismatchRound(round string) int {
	var i int
	if _, after, ok := strings.Cut(round, "kyoku #"); ok {
		if _, err := fmt.Sscanf(after, "%d", &i); err == nil {
			return i
		}
	}
	return -1
}

// verify sets each kyoku's verification: the transcript's audit, Tenhou's
// seed, or why there is none.
func (rec *Record) verify(g *mjlog.Game, format Format) {
	switch {
	case format == Transcript:
		for i := range rec.Kyoku {
			k := &rec.Kyoku[i]
			if i >= len(rec.audits) {
				break
			}
			h := rec.audits[i]
			k.Hand.Number, k.Hand.Dice, k.Hand.Yama = h.Hand, h.Dice, h.Yama
			k.Hand.Blame, k.Hand.Faults, k.Hand.TimedOut = h.Blame, h.Faults, h.TimedOut
			k.Verified = h.OK()
			hs := screen.Summarize(k.Hand, nil, screen.Names{})
			k.Verification, k.VerificationMsg = hs.Audit, *hs.AuditMsg
		}
	case g.Shuffle != nil:
		res, err := tenhou.Verify(g)
		for i := range rec.Kyoku {
			k := &rec.Kyoku[i]
			if err != nil {
				k.verify(i18n.M("verify.not", err.Error()))
				continue
			}
			name := tenhou.RoundName(k.Hand.Start.Round, k.Hand.Start.Honba)
			var bad []string
			for _, m := range res.Mismatches {
				if m.Round == name {
					bad = append(bad, fmt.Sprintf("%s: Tenhou's seed gives %s, the log has %s", m.Tag, m.Expected, m.Actual))
				}
			}
			if len(bad) == 0 {
				k.Verified = true
				k.verify(i18n.M("verify.seed"))
				continue
			}
			k.verify(i18n.M("verify.mismatch", len(bad), strings.Join(bad, "; ")))
		}
	default:
		why := map[Format]string{Mjlog: "verify.no_seed_mjlog", Tenhou6: "verify.no_seed_tenhou6", Mjai: "verify.no_seed_mjai"}[format]
		for i := range rec.Kyoku {
			rec.Kyoku[i].verify(i18n.M("verify.not", i18n.M(why)))
		}
	}
}

// fromTranscript audits a transcript offline (protocol.AuditTranscript)
// and returns its hands as an mjlog game, keeping the audits, seats and
// (private hands) owner in rec; verify gives each kyoku its verdict.
func (rec *Record) fromTranscript(data []byte, name string) (*mjlog.Game, error) {
	recs, err := protocol.LoadRecords(bytes.NewReader(data), name)
	if err != nil {
		return nil, fmt.Errorf("%w (`mentalmj audit %s` says what the complete records hold)", err, name)
	}
	a := protocol.AuditTranscript(recs)
	for _, f := range a.Faults {
		if f.Kind == protocol.FaultVersion || f.Kind == protocol.FaultDamaged {
			return nil, fmt.Errorf("%s", f.Reason)
		}
	}
	var rounds []mjlog.Round
	for _, h := range a.Hands {
		if h.Record == nil {
			r := protocol.HandResult{Number: h.Hand, Seats: a.Seats, Blame: h.Blame, Faults: h.Faults}
			rec.Notes = append(rec.Notes, fmt.Sprintf("hand %d cannot be shown: %s", h.Hand, screen.Summarize(r, nil, screen.Names{}).Audit))
			continue
		}
		rounds = append(rounds, *h.Record)
		rec.audits = append(rec.audits, h)
	}
	if len(rounds) == 0 {
		return nil, fmt.Errorf("no hand of it can be shown (%d hands audited; `mentalmj audit %s` says why)", len(a.Hands), name)
	}
	var names [4]string
	for s, p := range a.Seats {
		names[s] = a.Nicks[p]
	}
	rules := game.TenhouRules(a.Length != "tonpuu", true, true)
	if a.Players == 3 {
		rules = game.TenhouSanmaRules(a.Length != "tonpuu", true, true)
	}
	st := a.Standings
	g := record.Game(names, rules, rounds, st)
	if !a.Over {
		g.Owari = nil
		g.Rounds = rounds
	}
	rec.seats = a.Seats
	rec.Me = slices.Index(a.Seats, a.Owner)
	if a.PrivateHands {
		rec.Owner = slices.Index(a.Seats, a.Owner)
		rec.Notes = append(rec.Notes, "a private-hands transcript holds none of its owner's keys: it shows only the tiles shown to everyone (the game's mjlog record, join --mjlog, shows the owner's own hand too)")
	}
	return g, nil
}

// SeatOf returns the seat (0..Players-1) of the player whose nickname is
// name: an exact match, else the only one equal to it ignoring case. It
// returns an error listing the record's names when none matches, or more
// than one does.
func (rec *Record) SeatOf(name string) (int, error) {
	names := rec.Names[:rec.Players]
	if i := slices.Index(names, name); i >= 0 {
		return i, nil
	}
	seat := -1
	for i, n := range names {
		if strings.EqualFold(n, name) {
			if seat >= 0 {
				return -1, fmt.Errorf("%q names two players of %s (%s)", name, rec.File, strings.Join(names, ", "))
			}
			seat = i
		}
	}
	if seat < 0 {
		return -1, fmt.Errorf("no player %q in %s; its players are %s", name, rec.File, strings.Join(names, ", "))
	}
	return seat, nil
}

// SetMe says which seat (0..Players-1) the viewer's user sat in, for a
// record that does not say who wrote it (a Tenhou mjlog, tenhou.net/6
// JSON, an mjai log): the page draws that seat at the bottom (Me). It
// returns an error for a seat out of range, and for a private-hands
// record (Owner ≥ 0) viewed from another seat than its owner's, whose
// hidden tiles the record never held.
func (rec *Record) SetMe(seat int) error {
	switch {
	case seat < 0 || seat >= rec.Players:
		return fmt.Errorf("seat %d: %s has seats 0..%d", seat, rec.File, rec.Players-1)
	case rec.Owner >= 0 && seat != rec.Owner:
		return fmt.Errorf("seat %d: %s is seat %d's private view; it can only be seen from that seat", seat, rec.File, rec.Owner)
	}
	rec.Me = seat
	return nil
}

// verify sets k's verification to msg (Verification its English).
func (k *Kyoku) verify(msg i18n.Msg) {
	k.Verification, k.VerificationMsg = i18n.English().Say(msg), msg
}

// verificationMsg is k's VerificationMsg, nil when k has none (a kyoku
// past the transcript's audits): a view then shows Verification's words.
func (k *Kyoku) verificationMsg() *i18n.Msg {
	if k.VerificationMsg.Key == "" {
		return nil
	}
	m := k.VerificationMsg
	return &m
}
