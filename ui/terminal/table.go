package terminal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// Table is the terminal table: a protocol.Player that asks on the
// terminal, and a protocol.Observer that prints the feed.
type Table struct {
	model *screen.Model
	lines *Lines
	mu    sync.Mutex // serialises writes to out
	out   io.Writer
	shown int // events of the feed already printed
	// prompting is true while a prompt waits on the current line.
	prompting bool
	hands     int  // end-of-hand summaries printed
	helped    bool // the commands were printed at the game's start
	lang      *i18n.Lang
	// paused is set while the table waits for a peer to reconnect;
	// pauseShown is when that was last printed.
	paused     bool
	pauseShown time.Time
	// keys numbers the hand at the current prompt; keysHand is the
	// number of hands ended when it was made (a new deal numbers afresh).
	keys     Keys
	keysHand int
}

// New returns a terminal table reading the player's lines from in and
// writing to out, drawing model (which the caller also feeds, or lets
// Observe, HandDone and Finish feed).
func New(in io.Reader, out io.Writer, model *screen.Model) *Table {
	return &Table{model: model, lines: NewLines(in), out: out}
}

// SetLang makes the table speak l (package i18n); nil is English. Call it
// before the game.
func (t *Table) SetLang(l *i18n.Lang) { t.lang = l }

func (t *Table) printf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.out, format, args...)
}

// Observe feeds the model one observation and prints the new events;
// the first prints the commands (help) too, before any clock runs.
func (t *Table) Observe(o protocol.Observation) {
	if !t.helped {
		t.helped = true
		t.printf("%s\n%s", t.lang.T("term.help_intro"), t.lang.T("term.help"))
	}
	t.model.Observe(o)
	t.flush()
}

// Pause shows that the table waits for a peer to reconnect (the zero
// Pause: that it plays on): a line when the pause starts, then one every
// 15 s with the time left, and one when play resumes.
func (t *Table) Pause(p protocol.Pause) {
	text := p.Text()
	if msg := screen.PauseMsg(p); msg != nil {
		text = t.lang.Say(*msg)
	}
	t.model.PauseFor(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case text == "" && t.paused:
		t.paused = false
		fmt.Fprintf(t.out, "  · %s\n", t.lang.T("info.back"))
	case text != "" && (!t.paused || time.Since(t.pauseShown) >= 15*time.Second):
		t.paused, t.pauseShown = true, time.Now()
		fmt.Fprintf(t.out, "  ⏸ %s\n", text)
	}
}

// flush prints the feed's events not yet printed and any new end-of-hand
// summary.
func (t *Table) flush() {
	s := t.model.Snapshot()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range s.Feed {
		if e.N > t.shown {
			if t.prompting {
				fmt.Fprintln(t.out)
				t.prompting = false
			}
			// Draws and notices are in the prompt; the player's own
			// time-out was said at the prompt ("time is up").
			if e.Kind != "draw" && e.Kind != "info" && (e.Kind != "timeout" || e.Seat != s.Self) {
				fmt.Fprintf(t.out, "  · %s\n", t.words(e))
			}
			t.shown = e.N
		}
	}
	for ; t.hands < len(s.Hands); t.hands++ {
		writeSummary(t.out, s, s.Hands[t.hands], t.lang)
	}
}

// words is event e in the table's language: its message (Event.Msg)
// said, or in English its line.
func (t *Table) words(e screen.Event) string {
	if e.Msg == nil || t.lang == nil || t.lang.Code == i18n.Reference {
		return e.Text
	}
	return t.lang.Say(*e.Msg)
}

func (t *Table) setPrompting(on bool) {
	t.mu.Lock()
	t.prompting = on
	t.mu.Unlock()
}

// HandDone feeds the model a hand's result and prints the end-of-hand
// summary.
func (t *Table) HandDone(r protocol.HandResult) {
	t.model.HandDone(r)
	t.flush()
}

// Finish feeds the model the end of the game (see screen.Model.Finish) and
// prints the standings or the fault.
func (t *Table) Finish(st *game.Standings, err error) {
	t.model.Finish(st, err)
	t.flush()
	s := t.model.Snapshot()
	if len(s.Standings) > 0 {
		var b strings.Builder
		for _, x := range s.Standings {
			fmt.Fprintf(&b, "%s\n", t.lang.T("term.standing", x.Rank, who(x.Name, t.lang), x.Score, fmt.Sprintf("%+.1f", float64(x.Points)/10)))
		}
		t.printf("%s\n%s", t.lang.T("term.standings"), b.String())
	}
	if err != nil {
		status := s.Status
		if s.StatusMsg != nil {
			status = t.lang.Say(*s.StatusMsg)
		}
		t.printf("%s\n", status)
	}
}

// tableAction is an action that prints (String) with its tiles named as
// the table plays the red fives: game.Action.Format(reds).
type tableAction struct {
	game.Action
	reds wall.Reds
}

func (a tableAction) String() string { return screen.Words(a.Format(a.reds)) }

// Act draws the table and the options, and reads lines until one names a
// legal action; each refused line gets the reason. When ctx ends first
// (the decision timeout), it says what the node does instead and returns
// ctx's error.
func (t *Table) Act(ctx context.Context, view *game.Kyoku, seat game.Seat) (game.Action, error) {
	tsumogiri, _ := protocol.Tsumogiri{}.Act(ctx, view.Clone(), seat)
	def := tableAction{tsumogiri, view.Rules().Hand.Reds()} // prints as the table names tiles
	deadline, _ := ctx.Deadline()
	d := t.model.Decide(view, seat, deadline, def.Action)
	t.flush()
	s := t.model.Snapshot()
	if len(d.Options) == 0 {
		return game.Action{}, fmt.Errorf("terminal: no legal action for seat %d", int(seat))
	}
	if len(d.Options) == 1 {
		// Nothing to choose (a pass on a tile nobody can call, say).
		t.model.Decided(d.ID, "")
		return d.Options[0].Action, nil
	}
	t.mu.Lock()
	t.keys = t.nextKeys(s)
	keys := t.keys // what this prompt shows: a number typed refers to it
	writeTable(t.out, s, keys, t.lang)
	writeOptions(t.out, s, d, keys, t.lang)
	t.mu.Unlock()
	defWords := t.lang.Say(screen.ActionMsg(def.Action, def.reds)) // the default in the table's language
	prompt := t.lang.T("term.prompt", defWords)
	if c := d.CountdownIn(time.Now(), t.lang); c != "" {
		prompt = t.lang.T("term.prompt_within", c, defWords)
	}
	// A line counts from the moment the prompt is printed: one typed
	// as soon as it shows is for it.
	since := time.Now()
	t.printf("%s", prompt)
	t.setPrompting(true)
	defer t.setPrompting(false)
	defer t.countDown(ctx, d, prompt)()
	for {
		ln, err := t.lines.Next(ctx, since, func(l Line) {
			if l.Text != "" {
				t.printf("%s\n", t.lang.T("term.ignored", l.Text))
			}
		})
		if err != nil {
			if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.model.Decided(d.ID, "")
				return game.Action{}, ctx.Err()
			}
			if ctx.Err() != nil {
				t.printf("\n%s\n", t.lang.T("term.time_up", defWords))
				t.model.DecidedMsg(d.ID, i18n.M("term.time_up", screen.ActionMsg(def.Action, def.reds)))
				return game.Action{}, ctx.Err()
			}
			return game.Action{}, fmt.Errorf("reading the terminal: %w", err)
		}
		if ln.Text == "help" || ln.Text == "?" {
			t.printf("%s", t.lang.T("term.help"))
			writeOptions(t.out, s, d, keys, t.lang)
			t.printf("%s", prompt)
			continue
		}
		o, reason := parseKeys(ln.Text, s, d, keys, t.lang)
		if reason != "" {
			t.printf("%s\n%s", reason, prompt)
			continue
		}
		if o < 0 {
			o = d.Default
		}
		if o < 0 {
			t.model.Decided(d.ID, "")
			return def.Action, nil
		}
		t.model.Decided(d.ID, "")
		return d.Options[o].Action, nil
	}
}

// nextKeys numbers the hand of s keeping the numbers of the last prompt
// of the same deal (the caller holds t.mu).
func (t *Table) nextKeys(s screen.Snapshot) Keys {
	if t.keysHand != len(s.Hands) {
		t.keys, t.keysHand = nil, len(s.Hands)
	}
	return t.keys.next(s)
}

// writeOptions lists the decision's options as commands, tiles numbered
// by k (nil: afresh), in l's language (the commands stay the words typed).
func writeOptions(w io.Writer, s screen.Snapshot, d screen.Decision, k Keys, l *i18n.Lang) {
	var words []string
	var discards, riichi []string
	groups := map[string][]screen.Option{}
	for _, o := range d.Options {
		groups[o.Kind] = append(groups[o.Kind], o)
	}
	if ds := groups["discard"]; len(ds) > 0 {
		ok := map[string]bool{}
		for _, o := range ds {
			ok[s.TileName(o.Tile)] = true
		}
		for _, t := range keyedHand(s, k) {
			if !ok[s.TileName(t.tile)] {
				discards = append(discards, fmt.Sprintf("%d:%s", t.n, s.TileName(t.tile)))
			}
		}
	}
	for _, o := range groups["riichi"] {
		riichi = append(riichi, s.TileName(o.Tile))
	}
	if s.Offer >= 0 && d.Options[0].Kind != "discard" {
		fmt.Fprintf(w, "%s\n", l.T("term.offer", tileName(s, s.Offer, l), s.Seats[s.OfferFrom].Name, l.Wind(s.Seats[s.OfferFrom].Wind)))
	}
	for _, k := range []string{"tsumo", "ron", "kyuushu", "pon", "chi", "daiminkan", "ankan", "kakan", "pass", "tenpai", "noten"} {
		os := groups[k]
		switch {
		case len(os) == 0:
		case len(os) == 1:
			words = append(words, os[0].Label)
		default:
			var vs []string
			for i, o := range os {
				vs = append(vs, fmt.Sprintf("%s %d = %s", verb(k), i+1, o.Label))
			}
			words = append(words, strings.Join(vs, ", "))
		}
	}
	if len(words) > 0 {
		fmt.Fprintf(w, "%s\n", l.T("term.may", strings.Join(words, " | ")))
	}
	if len(riichi) > 0 {
		fmt.Fprintf(w, "%s\n", l.T("term.riichi_by", strings.Join(riichi, " ")))
	}
	switch {
	case len(groups["discard"]) > 0 && len(discards) > 0:
		fmt.Fprintf(w, "%s\n", l.T("term.discard_not", strings.Join(discards, " ")))
	case len(groups["discard"]) > 0:
		fmt.Fprintln(w, l.T("term.discard"))
	}
}

// riichiRefusal says which of riichi's conditions fails for the player of
// s, whose decision d offers no riichi discard: the first that fails of
// its turn, not yet in riichi, a closed hand, 1000 points, 4 tiles left
// in the live wall, and a tenpai hand after some discard.
func riichiRefusal(s screen.Snapshot, d screen.Decision, l *i18n.Lang) string {
	var me screen.SeatView
	if s.Self >= 0 && s.Self < len(s.Seats) {
		me = s.Seats[s.Self]
	}
	open := slices.ContainsFunc(me.Melds, func(m screen.Meld) bool { return m.Type != "ankan" })
	switch {
	case !slices.ContainsFunc(d.Options, func(o screen.Option) bool { return o.Kind == "discard" }):
		return l.T("term.no.riichi_turn")
	case me.Riichi:
		return l.T("term.no.riichi_already")
	case open:
		return l.T("term.no.riichi_open")
	case me.Score < 1000:
		return l.T("term.no.riichi_points", me.Score)
	case s.TilesLeft < 4:
		return l.T("term.no.riichi_wall", s.TilesLeft)
	}
	return l.T("term.no.riichi_tenpai")
}

func verb(kind string) string {
	if kind == "daiminkan" || kind == "ankan" || kind == "kakan" {
		return "kan"
	}
	return kind
}

// Parse is ParseKeys with the hand numbered afresh (Keys.next of nil).
func Parse(line string, s screen.Snapshot, d screen.Decision) (int, string) {
	return ParseKeys(line, s, d, nil)
}

// ParseKeys reads one line of input against decision d shown with
// snapshot s, the hand numbered by k as the prompt showed it (nil:
// afresh, 1..13 sorted and 14 the drawn tile; 0 is the drawn tile
// either way). It returns the option index chosen (-1 for the default, on an empty
// line) or, when the line names no legal action, a reason in words:
// "6z is not in your hand", "riichi needs a tenpai closed hand …".
func ParseKeys(line string, s screen.Snapshot, d screen.Decision, k Keys) (int, string) {
	return parseKeys(line, s, d, k, nil)
}

// keyRange says which numbers the hand of s has: "1..13", "1..13, 0
// the drawn tile".
func keyRange(s screen.Snapshot, k Keys, l *i18n.Lang) string {
	if s.Drawn >= 0 {
		return l.T("term.keys_drawn", k.max())
	}
	return l.T("term.keys", k.max())
}

// honourWords are the honours' names a player may type, by kind from 1z:
// the table's words (screen.HonourNames), their first letters where
// unambiguous, and the faces.
var honourWords = [7][]string{
	{"east", "e", "東"}, {"south", "s", "南"}, {"west", "w", "西"}, {"north", "n", "北"},
	{"white", "haku", "白"}, {"green", "hatsu", "發", "発"}, {"red", "chun", "中"},
}

// parseTile reads a tile as the player types it: "5m", "0p" (a red
// five), "7z", or an honour's name ("west", "白").
func parseTile(arg string) (wall.Kind, bool, error) {
	a := strings.ToLower(arg)
	for i, ws := range honourWords {
		if slices.Contains(ws, a) {
			return wall.Kind(27 + i), false, nil
		}
	}
	return wall.ParseTileName(arg)
}

func variantList(os []screen.Option) string {
	var vs []string
	for i, o := range os {
		vs = append(vs, fmt.Sprintf("%d = %s", i+1, o.Label))
	}
	return strings.Join(vs, ", ")
}

func optionsHint(d screen.Decision, l *i18n.Lang) string {
	seen := map[string]bool{}
	var ks []string
	for _, o := range d.Options {
		k := verb(o.Kind)
		if k == "discard" {
			k = l.T("term.a_discard")
		}
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	return l.T("term.may", strings.Join(ks, ", "))
}
