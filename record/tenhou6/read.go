package tenhou6

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/record/internal/builder"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
	"github.com/mentalmj/mentalmj/wall"
)

// ErrNotTenhou6 is wrapped by Read's error for content that is not a
// tenhou.net/6 document: not a JSON object with a "log" key (an mjai log,
// whose first line is an event object, among them).
var ErrNotTenhou6 = errors.New("not tenhou.net/6 JSON")

// Read reads a tenhou.net/6 JSON document (data, named name in errors)
// into the mjlog game it records: the order of play rebuilt from each
// seat's takes and discards (fromJSON), each tile given an unused Tenhou
// id of its kind (record/internal/builder), and the results as the record
// gives them (sc= from the deltas, ten= from the score string, the tenpai
// seats of an exhaustive draw from its payments, the final owari unless
// every seat's game points are 0, the mark of a game cut short). It does
// not replay the game through the rules engine. Its errors start with
// name and a colon and wrap the reason (errors.Unwrap gives it without
// the name); one wraps ErrNotTenhou6 for content that is not a
// tenhou.net/6 document, the others say what is wrong with a document
// that cannot be read (JSON that does not decode, an empty "log", a kyoku
// of another shape, a fifth tile of a kind).
func Read(data []byte, name string) (*mjlog.Game, error) {
	if !slices.Contains(Keys(data), "log") {
		return nil, fmt.Errorf("%s: %w: no JSON object with a \"log\" array", name, ErrNotTenhou6)
	}
	g, err := fromJSON(data, name)
	if err == nil && len(g.Rounds) == 0 {
		err = errors.New("it holds no kyoku")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, nil
}

// Keys returns the keys of the top-level JSON object that begins data (after
// white space), as far as data goes: a tenhou.net/6 document has "log"
// among them. It returns nil for data that does not begin with an object.
func Keys(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimLeft(data, " \t\r\n\ufeff")))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		k, ok := t.(string)
		if !ok {
			break
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return keys
}

// readLog is the part of a tenhou.net/6 document Read reads (the package
// documentation describes the format; Log is what Convert writes).
type readLog struct {
	Log  []json.RawMessage `json:"log"`
	Rule struct {
		Disp  string `json:"disp"`
		Aka   int    `json:"aka"`
		Aka51 *int   `json:"aka51"`
	} `json:"rule"`
	Sc   []float64 `json:"sc"`
	Name []string  `json:"name"`
}

// fromJSON reads tenhou.net/6 JSON into an mjlog game. The JSON lists
// each seat's takes and discards apart; the order of play is rebuilt the
// way Tenhou's viewer does: from the dealer, each seat draws its next
// take and plays its next discard, and a discarded tile goes to the seat
// whose next take is a call naming the discarder (a pon or kan before a
// chi); the kyoku ends when the seat to act has nothing left.
func fromJSON(data []byte, name string) (*mjlog.Game, error) {
	var l readLog
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("its JSON does not decode: %w", err)
	}
	if len(l.Log) == 0 {
		return nil, errors.New(`its "log" array is empty`)
	}
	disp := l.Rule.Disp
	players := 4
	if strings.Contains(disp, "三") || len(l.Name) == 4 && l.Name[3] == "" {
		players = 3
	}
	aka := l.Rule.Aka51 == nil || *l.Rule.Aka51 == 1 || l.Rule.Aka > 0
	hanchan := !strings.Contains(disp, "東")
	kuitan := disp == "" || strings.Contains(disp, "喰")
	rules := game.TenhouRules(hanchan, aka, kuitan)
	if players == 3 {
		rules = game.TenhouSanmaRules(hanchan, aka, kuitan)
	}
	var names [4]string
	copy(names[:], l.Name)
	g := record.Game(names, rules, nil, game.Standings{})
	g.File = name
	b := builder.New(g, aka, players)
	for i, raw := range l.Log {
		if err := t6Kyoku(b, raw); err != nil {
			return nil, fmt.Errorf("kyoku %d of its \"log\": %w", i, err)
		}
	}
	// A record of a game cut short has the scores so far and 0 game
	// points for everyone (Convert): no final result. A finished
	// game's points are never all 0 (uma).
	finished := false
	for i := 1; i < len(l.Sc); i += 2 {
		finished = finished || l.Sc[i] != 0
	}
	if len(l.Sc) >= 2*players && finished {
		o := &mjlog.Owari{}
		for s := range 4 {
			if 2*s+1 < len(l.Sc) {
				o.Scores = append(o.Scores, int(l.Sc[2*s])/100)
				o.Points = append(o.Points, l.Sc[2*s+1])
			} else {
				o.Scores, o.Points = append(o.Scores, 0), append(o.Points, 0)
			}
		}
		g.Owari = o
		if n := len(g.Rounds); n > 0 {
			// The owari goes on the game's last result too, where an
			// mjlog carries it (mjlog.Write).
			evs := g.Rounds[n-1].Events
			for i := len(evs) - 1; i >= 0; i-- {
				switch e := evs[i].(type) {
				case mjlog.Agari:
					e.Owari = o
					evs[i] = e
				case mjlog.Ryuukyoku:
					e.Owari = o
					evs[i] = e
				default:
					continue
				}
				break
			}
		}
	}
	return g, nil
}

// t6Ten returns the fu, hand value and limit (AGARI ten=) that a
// tenhou.net/6 score string says: "30符4飜7700点" (a ron),
// "満貫2000-4000点" (a non-dealer's tsumo), "跳満6000点∀" (a dealer's
// tsumo). The value is what Tenhou's ten= holds: a tsumo's payments added
// up over the players who pay (in three-player games, one non-dealer
// fewer). ok is false for a string of another shape.
func t6Ten(score string, players int) (fu, points, limit int, ok bool) {
	if f, rest, found := strings.Cut(score, "符"); found {
		n, err := strconv.Atoi(f)
		if err != nil {
			return 0, 0, 0, false
		}
		fu = n
		if _, rest, found = strings.Cut(rest, "飜"); !found {
			return 0, 0, 0, false
		}
		score = rest
	} else {
		for i, name := range [...]string{"満貫", "跳満", "倍満", "三倍満", "役満"} {
			if rest, found := strings.CutPrefix(score, name); found {
				limit, score = i+1, rest
				break
			}
		}
		if limit == 0 {
			return 0, 0, 0, false
		}
	}
	num, found := strings.CutSuffix(score, "点")
	all := false
	if !found {
		if num, found = strings.CutSuffix(score, "点∀"); !found {
			return 0, 0, 0, false
		}
		all = true
	}
	a, b, pair := strings.Cut(num, "-")
	x, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, 0, false
	}
	switch {
	case pair:
		y, err := strconv.Atoi(b)
		if err != nil {
			return 0, 0, 0, false
		}
		points = (players-2)*x + y
	case all:
		points = (players - 1) * x
	default:
		points = x
	}
	return fu, points, limit, true
}

// t6Sc returns an mjlog sc= list, (score, delta) pairs in 100s for four
// seats, from the kyoku's start scores and a result's deltas in points
// (nil: all zero).
func t6Sc(ten []int, deltas []any) []int {
	sc := make([]int, 0, 8)
	for s := range 4 {
		start, d := 0, 0
		if s < len(ten) {
			start = ten[s]
		}
		if s < len(deltas) {
			v, _ := deltas[s].(float64)
			d = int(v) / 100
		}
		sc = append(sc, start, d)
	}
	return sc
}

// t6Code returns the tile key of a tenhou.net/6 tile code (11–47, 51–53).
func t6Code(b *builder.Builder, c int) (builder.Key, error) {
	switch {
	case c >= 51 && c <= 53:
		return builder.Key{Kind: wall.Kind(9*(c-51) + 4), Red: b.Aka}, nil
	case c >= 11 && c <= 39 && c%10 >= 1, c >= 41 && c <= 47:
		return builder.Key{Kind: wall.Kind(9*(c/10-1) + c%10 - 1), Red: false}, nil
	}
	return builder.Key{}, fmt.Errorf("tile code %d is not a tile", c)
}

// t6Kyoku reads one kyoku array.
func t6Kyoku(b *builder.Builder, raw json.RawMessage) error {
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil || len(parts) != 17 {
		return fmt.Errorf("not a 17-element kyoku array")
	}
	var head, scores, dora, ura []int
	for i, dst := range []*[]int{&head, &scores, &dora, &ura} {
		if err := json.Unmarshal(parts[i], dst); err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	if len(head) != 3 || len(scores) != 4 || len(dora) == 0 {
		return fmt.Errorf("its round, scores or dora indicators are malformed")
	}
	var hai [4][]*builder.Key
	var takes, discards [4][]any
	for s := range 4 {
		var codes []int
		if err := json.Unmarshal(parts[4+3*s], &codes); err != nil {
			return fmt.Errorf("seat %d haipai: %w", s, err)
		}
		for _, c := range codes {
			k, err := t6Code(b, c)
			if err != nil {
				return fmt.Errorf("seat %d haipai: %w", s, err)
			}
			hai[s] = append(hai[s], &k)
		}
		if json.Unmarshal(parts[5+3*s], &takes[s]) != nil || json.Unmarshal(parts[6+3*s], &discards[s]) != nil {
			return fmt.Errorf("seat %d takes or discards are not arrays", s)
		}
	}
	var result []any
	if err := json.Unmarshal(parts[16], &result); err != nil || len(result) == 0 {
		return fmt.Errorf("its result is not an array")
	}
	in := mjlog.Init{Kyoku: head[0], Honba: head[1], Kyotaku: head[2], Oya: head[0] % 4, Ten: make([]int, 4)}
	for s, v := range scores {
		in.Ten[s] = v / 100
	}
	d0, err := t6Code(b, dora[0])
	if err != nil {
		return err
	}
	if err := b.StartKyoku(in, hai, d0); err != nil {
		return err
	}
	p := t6Play{b: b, takes: takes, discards: discards, dora: dora, ura: ura, lastDiscard: -1}
	return p.run(result)
}

// t6Play rebuilds the order of play of one kyoku.
type t6Play struct {
	b               *builder.Builder
	takes, discards [4][]any
	ti, di          [4]int
	dora, ura       []int
	doraShown       int
	doraDue         int // a kakan or daiminkan's dora, shown before the next discard
	riichi          [4]bool
	lastDiscard     wall.Tile
	lastFrom        int
}

func (p *t6Play) next(s int) int { return (s + 1) % p.b.Players }

// kanDora appends the next kan-dora indicator.
func (p *t6Play) kanDora() error {
	p.doraShown++
	if p.doraShown >= len(p.dora) {
		return nil // the record shows no more: the game will say so
	}
	k, err := t6Code(p.b, p.dora[p.doraShown])
	if err != nil {
		return err
	}
	t, err := p.b.Alloc(&k)
	if err != nil {
		return fmt.Errorf("kan-dora: %w", err)
	}
	p.b.Event(mjlog.Dora{Tile: t})
	return nil
}

func (p *t6Play) run(result []any) error {
	b := p.b
	turn := b.Round.Init.Oya
	draw := true
	for steps := 0; steps < 1000; steps++ {
		if draw {
			if p.ti[turn] >= len(p.takes[turn]) {
				return p.end(result, turn)
			}
			c, ok := p.takes[turn][p.ti[turn]].(float64)
			if !ok {
				return fmt.Errorf("seat %d take %d: a call where a draw was expected", turn, p.ti[turn])
			}
			p.ti[turn]++
			k, err := t6Code(b, int(c))
			if err != nil {
				return err
			}
			if err := b.Draw(turn, &k); err != nil {
				return err
			}
		}
		if p.di[turn] >= len(p.discards[turn]) {
			return p.end(result, turn)
		}
		d := p.discards[turn][p.di[turn]]
		p.di[turn]++
		if str, ok := d.(string); ok && !strings.HasPrefix(str, "r") {
			// ankan, kakan or kita: a rinshan draw follows.
			if err := p.selfCall(turn, str); err != nil {
				return err
			}
			draw = true
			continue
		}
		for ; p.doraDue > 0; p.doraDue-- {
			if err := p.kanDora(); err != nil {
				return err
			}
		}
		code, reach := 0, false
		switch v := d.(type) {
		case float64:
			code = int(v)
		case string:
			n, err := strconv.Atoi(v[1:])
			if err != nil {
				return fmt.Errorf("seat %d discard %q", turn, v)
			}
			code, reach = n, true
		}
		if reach {
			b.Event(mjlog.Reach{Who: turn, Step: 1})
		}
		var t wall.Tile
		var err error
		if code == 60 {
			t, err = b.Discard(turn, builder.Key{}, true)
		} else {
			var k builder.Key
			if k, err = t6Code(b, code); err == nil {
				t, err = b.Discard(turn, k, false)
			}
		}
		if err != nil {
			return fmt.Errorf("seat %d: %w", turn, err)
		}
		p.lastDiscard, p.lastFrom = t, turn
		caller, typ, meld := p.caller(turn, t)
		if reach && !(caller < 0 && p.exhausted() && p.ronOnLast(result)) {
			b.Event(mjlog.Reach{Who: turn, Step: 2})
			p.riichi[turn] = true
		}
		if caller < 0 {
			turn, draw = p.next(turn), true
			continue
		}
		p.ti[caller]++
		if err := b.Call(caller, typ, turn, t, meld); err != nil {
			return err
		}
		turn, draw = caller, typ == riichi.Daiminkan
		if typ == riichi.Daiminkan {
			p.doraDue++
			if p.di[caller] < len(p.discards[caller]) {
				p.di[caller]++ // the 0 standing for the kan's turn
			}
		}
	}
	return errors.New("too many steps")
}

// meldCodes splits a call string into its tile codes, the letter and the
// number of codes before it.
func meldCodes(s string) (codes []int, letter byte, at int, err error) {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 'a' && c <= 'z' {
			letter, at = c, len(codes)
			i++
			continue
		}
		if i+2 > len(s) {
			return nil, 0, 0, fmt.Errorf("call %q is malformed", s)
		}
		n, err := strconv.Atoi(s[i : i+2])
		if err != nil {
			return nil, 0, 0, fmt.Errorf("call %q is malformed", s)
		}
		codes = append(codes, n)
		i += 2
	}
	if letter == 0 {
		return nil, 0, 0, fmt.Errorf("call %q has no letter", s)
	}
	return codes, letter, at, nil
}

// caller returns the seat that calls discard t of seat from by its next
// take (a pon or kan first, then a chi from its kamicha), with the call's
// type and the hand tiles; -1 when none does.
func (p *t6Play) caller(from int, t wall.Tile) (int, riichi.MeldType, []builder.Key) {
	best, bestType := -1, riichi.MeldType(0)
	var bestHand []builder.Key
	for i := 1; i < p.b.Players; i++ {
		s := (from + i) % p.b.Players
		if p.ti[s] >= len(p.takes[s]) {
			continue
		}
		str, ok := p.takes[s][p.ti[s]].(string)
		if !ok {
			continue
		}
		codes, letter, at, err := meldCodes(str)
		if err != nil || at >= len(codes) {
			continue
		}
		var typ riichi.MeldType
		var rel int
		switch letter {
		case 'c':
			typ, rel = riichi.Chi, 3
		case 'p', 'm':
			typ = riichi.Pon
			if letter == 'm' {
				typ = riichi.Daiminkan
			}
			rel = map[int]int{0: 3, 1: 2}[at]
			if at == len(codes)-1 {
				rel = 1
			}
		default:
			continue
		}
		if game.Seat(s).Next(rel) != game.Seat(from) {
			continue
		}
		called, err := t6Code(p.b, codes[at])
		if err != nil || called.Kind != t.Kind() {
			continue
		}
		var hand []builder.Key
		for j, c := range codes {
			if j == at {
				continue
			}
			k, err := t6Code(p.b, c)
			if err != nil {
				return -1, 0, nil
			}
			hand = append(hand, k)
		}
		if best < 0 || bestType == riichi.Chi && typ != riichi.Chi {
			best, bestType, bestHand = s, typ, hand
		}
	}
	return best, bestType, bestHand
}

// selfCall plays an ankan ("151515a15"), kakan ("15k151515": the added
// tile after the letter) or kita ("f44") of seat s.
func (p *t6Play) selfCall(s int, str string) error {
	codes, letter, at, err := meldCodes(str)
	if err != nil {
		return fmt.Errorf("seat %d: %w", s, err)
	}
	keys := make([]builder.Key, len(codes))
	for i, c := range codes {
		if keys[i], err = t6Code(p.b, c); err != nil {
			return err
		}
	}
	switch letter {
	case 'a':
		if len(keys) != 4 {
			return fmt.Errorf("seat %d: ankan %q", s, str)
		}
		if err := p.b.Call(s, riichi.Ankan, s, -1, keys); err != nil {
			return err
		}
		return p.kanDora()
	case 'k':
		if at >= len(keys) {
			return fmt.Errorf("seat %d: kakan %q", s, str)
		}
		p.doraDue++
		return p.b.Call(s, riichi.Kakan, s, -1, keys[at:at+1])
	case 'f':
		if len(keys) != 1 {
			return fmt.Errorf("seat %d: kita %q", s, str)
		}
		return p.b.Call(s, riichi.Kita, s, -1, keys)
	}
	return fmt.Errorf("seat %d: discard %q is not a call of its own", s, str)
}

// exhausted reports whether every seat has played all its takes and
// discards.
func (p *t6Play) exhausted() bool {
	for s := range 4 {
		if p.ti[s] < len(p.takes[s]) || p.di[s] < len(p.discards[s]) {
			return false
		}
	}
	return true
}

// ronOnLast reports whether the result is a win on the last discard.
func (p *t6Play) ronOnLast(result []any) bool {
	if r, _ := result[0].(string); r != "和了" || len(result) < 3 {
		return false
	}
	w, _ := result[2].([]any)
	return len(w) >= 2 && w[0] != w[1]
}

// end closes the kyoku with its result: the seat to act (turn) has no
// more takes or no more discards.
// scores returns the seats' scores (in 100s) at the kyoku's end, before
// its result: the kyoku's start (<INIT ten=>) less 1000 for each riichi
// accepted in it, as Tenhou's sc= gives them.
func (p *t6Play) scores() []int {
	ten := slices.Clone(p.b.Round.Init.Ten)
	for _, e := range p.b.Round.Events {
		if r, ok := e.(mjlog.Reach); ok && r.Step == 2 && r.Who < len(ten) {
			ten[r.Who] -= 10
		}
	}
	return ten
}

func (p *t6Play) end(result []any, turn int) error {
	b := p.b
	kind, _ := result[0].(string)
	in := &b.Round.Init
	doraHai := func() []wall.Tile {
		var ts []wall.Tile
		for _, e := range b.Round.Events {
			if d, ok := e.(mjlog.Dora); ok {
				ts = append(ts, d.Tile)
			}
		}
		return append([]wall.Tile{in.DoraIndicator}, ts...)
	}
	switch kind {
	case "和了":
		var group []mjlog.Agari
		var uraIDs []wall.Tile
		for i := 2; i < len(result); i += 2 {
			w, _ := result[i].([]any)
			if len(w) < 3 {
				return errors.New("a win without who and from")
			}
			who, _ := w[0].(float64)
			from, _ := w[1].(float64)
			a := mjlog.Agari{Who: int(who), FromWho: int(from), Honba: in.Honba, Kyotaku: in.Kyotaku, Paowho: -1, DoraHai: doraHai()}
			if a.Who < 0 || a.Who >= b.Players || a.FromWho < 0 || a.FromWho >= b.Players {
				return fmt.Errorf("a win by seat %d from seat %d", a.Who, a.FromWho)
			}
			if a.Who == a.FromWho {
				a.Machi = b.Drawn[a.Who]
				a.Hai = b.Hand(a.Who)
			} else {
				a.Machi = p.lastDiscard
				a.Hai = b.Hand(a.Who, p.lastDiscard)
			}
			if len(w) >= 4 {
				str, _ := w[3].(string)
				if fu, pts, limit, ok := t6Ten(str, b.Players); ok {
					a.Fu, a.Ten, a.Limit = fu, pts, limit
				}
			}
			if d, ok := result[i-1].([]any); ok {
				a.Sc = t6Sc(p.scores(), d)
			}
			if p.riichi[a.Who] {
				if uraIDs == nil {
					for _, c := range p.ura {
						k, err := t6Code(b, c)
						if err != nil {
							return err
						}
						t, err := b.Alloc(&k)
						if err != nil {
							return fmt.Errorf("ura indicator: %w", err)
						}
						uraIDs = append(uraIDs, t)
					}
				}
				a.DoraHaiUra = uraIDs
			}
			a.Melds = b.Melds[a.Who]
			group = append(group, a)
		}
		for _, a := range group {
			b.Event(a)
		}
	default:
		r := mjlog.Ryuukyoku{Honba: in.Honba, Kyotaku: in.Kyotaku}
		switch kind {
		case "九種九牌":
			r.Type = "yao9"
			r.Hai[turn] = b.Hand(turn)
		case "四家立直":
			r.Type = "reach4"
		case "三家和了":
			r.Type = "ron3"
			for s := range b.Players {
				if s != p.lastFrom {
					r.Hai[s] = b.Hand(s)
				}
			}
		case "四槓散了":
			r.Type = "kan4"
		case "四風連打":
			r.Type = "kaze4"
		case "流し満貫":
			r.Type = "nm"
		}
		var deltas []any
		if len(result) >= 2 {
			deltas, _ = result[1].([]any)
		}
		r.Sc = t6Sc(p.scores(), deltas)
		if r.Type == "" {
			// An exhaustive draw: the record names no hands, but the
			// tenpai seats are those paid for it (all or none when it
			// says so).
			for s := range b.Players {
				v := 0.0
				if s < len(deltas) {
					v, _ = deltas[s].(float64)
				}
				if kind == "全員聴牌" || v > 0 {
					r.Hai[s] = b.Hand(s)
				}
			}
		}
		b.Event(r)
	}
	return nil
}
