package terminal

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// keyLine reads one line of a player's input against a decision: the
// steps of parseKeys.
type keyLine struct {
	line string
	s    screen.Snapshot
	d    screen.Decision
	k    Keys
	l    *i18n.Lang
	hand []int     // the hand in the order the prompt numbered it
	reds wall.Reds // "0p" names a red five only where the table plays it
}

// parseKeys is ParseKeys with the reasons in l's language (nil: English).
func parseKeys(line string, s screen.Snapshot, d screen.Decision, k Keys, l *i18n.Lang) (int, string) {
	if k == nil {
		k = Keys(nil).next(s)
	}
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 {
		return -1, ""
	}
	p := &keyLine{line: line, s: s, d: d, k: k, l: l, hand: handOrder(s), reds: s.Reds()}
	return p.command(f[0], f[1:])
}

// command reads a line whose first word is word: an action's name or
// the browser table's key for it, riichi with its tile, or a tile alone
// (a discard).
func (p *keyLine) command(word string, args []string) (int, string) {
	l := p.l
	switch word {
	case "pass", "skip":
		return p.pick(word, args, "pass")
	case "tsumo", "ron", "pon", "chi", "kyuushu", "tenpai", "noten":
		return p.pick(word, args, word)
	case "kan":
		return p.pick(word, args, "daiminkan", "ankan", "kakan")
	case "r", "t", "p", "c", "k", "x", "q", "y", "n":
		// The browser table's keys: r ron, t tsumo, p pon, c chi, k kan,
		// x pass, q kyuushu, y tenpai, n noten; i is riichi.
		if word == "r" && len(args) == 1 {
			return 0, l.T("term.no.r_is_ron", args[0])
		}
		full := map[string]string{"r": "ron", "t": "tsumo", "p": "pon", "c": "chi", "k": "kan", "x": "pass", "q": "kyuushu", "y": "tenpai", "n": "noten"}[word]
		return parseKeys(strings.Join(append([]string{full}, args...), " "), p.s, p.d, p.k, l)
	case "riichi", "i", "reach":
		if len(args) != 1 {
			return 0, l.T("term.no.which")
		}
		t, why := p.tileArg(args[0])
		if why != "" {
			return 0, why
		}
		return p.discard(t, true)
	}
	if len(args) > 0 {
		return 0, l.T("term.no.unknown", p.line)
	}
	t, why := p.tileArg(word)
	if why != "" {
		if _, err := strconv.Atoi(word); err != nil {
			if _, _, err := parseTile(word); err != nil {
				return 0, l.T("term.no.unknown", p.line)
			}
		}
		return 0, why
	}
	return p.discard(t, false)
}

// options returns the decision's options of the given kinds, in order.
func (p *keyLine) options(kinds ...string) []screen.Option {
	var out []screen.Option
	for _, o := range p.d.Options {
		if slices.Contains(kinds, o.Kind) {
			out = append(out, o)
		}
	}
	return out
}

// pick chooses the option of the kinds word names: the only one, or the
// variant args[0] numbers (1-based) when there are several.
func (p *keyLine) pick(word string, args []string, kinds ...string) (int, string) {
	l := p.l
	os := p.options(kinds...)
	if len(os) == 0 {
		return 0, l.T("term.no.now", word, optionsHint(p.d, l))
	}
	if len(args) == 0 {
		if len(os) > 1 {
			return 0, l.T("term.no.how", word, variantList(os))
		}
		return os[0].ID, ""
	}
	if n, err := strconv.Atoi(args[0]); err == nil && n >= 1 && n <= len(os) {
		return os[n-1].ID, ""
	}
	return 0, l.T("term.no.choice", args[0], variantList(os))
}

// discard chooses the discard (with riichiDecl, the riichi declaration)
// of tile, or of another copy of its kind with the same redness.
func (p *keyLine) discard(tile int, riichiDecl bool) (int, string) {
	l, s := p.l, p.s
	kind := "discard"
	if riichiDecl {
		kind = "riichi"
	}
	os := p.options(kind)
	if len(os) == 0 {
		if riichiDecl {
			return 0, riichiRefusal(s, p.d, l)
		}
		return 0, l.T("term.no.discard")
	}
	for _, o := range os {
		if o.Tile == tile || wall.Tile(o.Tile).Kind() == wall.Tile(tile).Kind() && p.reds.Has(wall.Tile(o.Tile)) == p.reds.Has(wall.Tile(tile)) {
			return o.ID, ""
		}
	}
	if riichiDecl {
		var ts []string
		for _, o := range os {
			ts = append(ts, s.TileName(o.Tile))
		}
		return 0, l.T("term.no.riichi_tile", s.TileName(tile), strings.Join(ts, " "))
	}
	return 0, l.T("term.no.kuikae", s.TileName(tile))
}

// tileArg reads a tile of the hand: a key number as the prompt numbered
// the hand, or a tile name ("5m", "0p" for a red five, "7z").
func (p *keyLine) tileArg(arg string) (int, string) {
	l, s, k := p.l, p.s, p.k
	if n, err := strconv.Atoi(arg); err == nil && len(arg) <= 2 && (arg[0] != '0' || arg == "0") {
		t, ok := k.tile(s, n)
		if !ok {
			return -1, l.T("term.no.key", n, keyRange(s, k, l))
		}
		return t, ""
	}
	kind, red, err := parseTile(arg)
	if err != nil {
		return -1, l.T("term.no.tile", arg, keyRange(s, k, l))
	}
	for _, t := range p.hand {
		if wall.Tile(t).Kind() == kind && p.reds.Has(wall.Tile(t)) == red {
			return t, ""
		}
	}
	for _, t := range p.hand {
		if wall.Tile(t).Kind() == kind && !red {
			return t, "" // "5m" for the only five, a red one
		}
	}
	if red && !slices.ContainsFunc(p.reds.Tiles(), func(t wall.Tile) bool { return t.Kind() == kind }) {
		return -1, l.T("term.no.red", kind)
	}
	return -1, l.T("term.no.in_hand", arg)
}
