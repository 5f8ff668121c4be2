package tenhou6

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	houserules "github.com/mentalmj/mentalmj/riichi/rules"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall"
)

// refPattern matches a Tenhou log id at the start of a file name:
// YYYYMMDDHHgm-TTTT-LLLL-HHHHHHHH (lobby field 4 or 5 digits).
var refPattern = regexp.MustCompile(`^[0-9]{10}gm-[0-9a-f]{4}-[0-9]{4,5}-[0-9a-f]{8}`)

// Ref returns the Tenhou log id at the start of the base name of path
// ("logs/2019021004gm-00a9-0000-e2f6516d.xml" gives
// "2019021004gm-00a9-0000-e2f6516d"), or "" when the name has no such id.
func Ref(path string) string {
	return refPattern.FindString(filepath.Base(path))
}

// danNames are Tenhou's rank names by <UN dan=> index (0..20).
var danNames = [...]string{"新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級",
	"初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳"}

// ErrHidden is wrapped by Convert's error for a record with hidden tiles
// (mjlog.Hidden: one player's view of a Mental Mahjong private-hands
// game), which tenhou.net/6 JSON cannot express: every haipai tile and
// draw must be known.
var ErrHidden = errors.New("the record hides the tiles its player never saw (a private-hands game); tenhou.net/6 JSON needs every tile")

// Convert returns the tenhou.net/6 form of g. Ref is taken from g.File
// (see Ref). A game without <UN> gets empty names, rank 新人, rate 1500
// and sx "C"; a game without owari= gets the scores after its last kyoku
// and results 0. It returns an error naming g.File, the kyoku and the tag
// for what cannot be converted: a kyoku without a result, a tile or meld a
// seat cannot have played (a discard without a draw, say), a result
// without its score changes, and ErrHidden (wrapped) for one player's
// view of a private-hands game (mjlog.Game.HasHidden): tenhou.net/6 JSON
// has no hidden tile.
func Convert(g *mjlog.Game) (*Log, error) {
	if g.HasHidden() {
		return nil, fmt.Errorf("%s: %w", g.File, ErrHidden)
	}
	n := g.Go.Players()
	rl, red, err := rule(g.Go)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.File, err)
	}
	l := &Log{
		Ver:     2.3,
		Ref:     Ref(g.File),
		RatingC: "PF" + strconv.Itoa(n),
		Rule:    rl,
		Lobby:   g.Go.Lobby,
		Log:     make([]Kyoku, 0, len(g.Rounds)),
	}
	for s := range 4 {
		p := mjlog.Player{Rate: 1500, Sex: "C"}
		if s < len(g.Players) {
			p = g.Players[s]
		}
		dan := "新人"
		if p.Dan >= 0 && p.Dan < len(danNames) {
			dan = danNames[p.Dan]
		}
		l.Dan = append(l.Dan, dan)
		l.Rate = append(l.Rate, p.Rate)
		l.Sx = append(l.Sx, p.Sex)
		l.Name = append(l.Name, p.Name)
	}
	for _, e := range g.Prelude {
		l.Connection = append(l.Connection, connection(e, -1, 0)...)
	}
	var last []int
	for i := range g.Rounds {
		k, after, err := kyoku(&g.Rounds[i], red)
		if err != nil {
			return nil, fmt.Errorf("%s: kyoku %d (%s): %w", g.File, i+1, roundName(g.Rounds[i].Init.Kyoku, n), err)
		}
		l.Log = append(l.Log, k)
		last = after
		step := 0
		for _, e := range g.Rounds[i].Events {
			switch e.(type) {
			case mjlog.Draw, mjlog.Discard, mjlog.Call:
				step++
			}
			l.Connection = append(l.Connection, connection(e, i, step)...)
		}
	}
	if o := g.Owari; o != nil {
		for s := 0; s < 4 && s < len(o.Scores) && s < len(o.Points); s++ {
			l.Sc = append(l.Sc, float64(100*o.Scores[s]), o.Points[s])
		}
	} else {
		for s := range 4 {
			score := 0
			if s < len(last) {
				score = last[s]
			}
			l.Sc = append(l.Sc, float64(score), 0)
		}
	}
	return l, nil
}

func connection(e mjlog.Event, log, step int) []Connection {
	switch e := e.(type) {
	case mjlog.Bye:
		return []Connection{{What: 0, Log: log, Who: e.Who, Step: step}}
	case mjlog.Reconnect:
		return []Connection{{What: 1, Log: log, Who: e.Who, Step: step}}
	}
	return nil
}

// roundName names kyoku index k ("E1", "S3") for errors.
func roundName(k, players int) string {
	_ = players
	return fmt.Sprintf("%c%d", "ESWN"[(k/4)%4], k%4+1)
}

// rule returns the rule object for <GO type=> bits and the red fives:
// the bits say red fives or none (one per suit: aka51-53 1), and a
// Mental Mahjong record's rules.RecordAttr says the rest (1, 2 or 4 red
// fives set aka51-53 to the count per suit; the attribute is copied to
// Rule.House). It returns an error for an attribute this build cannot
// read.
func rule(g mjlog.GoRule) (Rule, func(wall.Tile) bool, error) {
	var b strings.Builder
	if g.Players() == 3 {
		b.WriteString("三")
	}
	b.WriteString([]string{"般", "上", "特", "鳳"}[g.Level()])
	if g.Hanchan() {
		b.WriteString("南")
	} else {
		b.WriteString("東")
	}
	if g.Kuitan() {
		b.WriteString("喰")
	}
	if g.Aka() {
		b.WriteString("赤")
	}
	if g.Fast() {
		b.WriteString("速")
	}
	r := Rule{Disp: b.String()}
	hand := riichi.Rules{Aka: g.Aka()}
	for _, a := range g.Extra {
		if a.Name != houserules.RecordAttr {
			continue
		}
		house, err := houserules.FromRecord(a.Value, g.Players(), g.Hanchan())
		if err != nil {
			return Rule{}, nil, err
		}
		if house.Hand.Aka != g.Aka() {
			return Rule{}, nil, fmt.Errorf("%s=%q contradicts GO type %#x", houserules.RecordAttr, a.Value, g.Type)
		}
		hand = house.Hand
		r.House = a.Value
	}
	for id := wall.Tile(16); id < 20; id++ {
		r.Aka51 += b2i(hand.IsRed(id))
		r.Aka52 += b2i(hand.IsRed(id + 36))
		r.Aka53 += b2i(hand.IsRed(id + 72))
	}
	return r, hand.IsRed, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// seatPlay collects one seat's takes and discards.
type seatPlay struct {
	takes, discards []any
	lastDraw        wall.Tile // the tile just drawn, -1 after a call or discard
	reach           bool      // REACH step 1 seen, discard pending
}

// kyoku converts one round; after are the scores (points) after it.
func kyoku(rd *mjlog.Round, red func(wall.Tile) bool) (Kyoku, []int, error) {
	in := &rd.Init
	code := func(t wall.Tile) int { return codeRed(t, red) }
	var scores []int
	for s := range 4 {
		v := 0
		if s < len(in.Ten) {
			v = 100 * in.Ten[s]
		}
		scores = append(scores, v)
	}
	dora := []int{code(in.DoraIndicator)}
	ura := []int{}
	var seats [4]seatPlay
	for s := range seats {
		seats[s] = seatPlay{takes: []any{}, discards: []any{}, lastDraw: -1}
	}
	var result []any
	after := slices.Clone(scores)
	for _, e := range rd.Events {
		if result != nil {
			switch e.(type) {
			case mjlog.Agari:
			case mjlog.Bye, mjlog.Reconnect, mjlog.Unknown:
				continue
			default:
				return nil, nil, fmt.Errorf("%T after the result", e)
			}
		}
		switch e := e.(type) {
		case mjlog.Draw:
			p := &seats[e.Who]
			p.takes = append(p.takes, code(e.Tile))
			p.lastDraw = e.Tile
		case mjlog.Discard:
			p := &seats[e.Who]
			var d any = code(e.Tile)
			if e.Tile == p.lastDraw {
				d = Tsumogiri
			}
			if p.reach {
				d = "r" + strconv.Itoa(d.(int))
				p.reach = false
			}
			p.discards = append(p.discards, d)
			p.lastDraw = -1
		case mjlog.Reach:
			if e.Step == 1 {
				seats[e.Who].reach = true
			}
		case mjlog.Call:
			p := &seats[e.Who]
			s, take, err := meldString(e.Meld, red)
			if err != nil {
				return nil, nil, err
			}
			if take {
				p.takes = append(p.takes, s)
				if e.Meld.Type == riichi.Daiminkan {
					p.discards = append(p.discards, 0)
				}
			} else {
				p.discards = append(p.discards, s)
			}
			p.lastDraw = -1
		case mjlog.Dora:
			dora = append(dora, code(e.Tile))
		case mjlog.Agari:
			if result == nil {
				result = []any{"和了"}
			}
			deltas, sc, err := scDeltas(e.Sc)
			if err != nil {
				return nil, nil, fmt.Errorf("<AGARI>: %w", err)
			}
			after = sc
			detail, err := agariDetail(e, in.Oya)
			if err != nil {
				return nil, nil, fmt.Errorf("<AGARI>: %w", err)
			}
			result = append(result, deltas, detail)
			if len(ura) == 0 && len(e.DoraHaiUra) > 0 {
				for _, t := range e.DoraHaiUra {
					ura = append(ura, code(t))
				}
			}
		case mjlog.Ryuukyoku:
			deltas, sc, err := scDeltas(e.Sc)
			if err != nil {
				return nil, nil, fmt.Errorf("<RYUUKYOKU>: %w", err)
			}
			after = sc
			result = []any{drawName(e, activeSeats(in))}
			if slices.ContainsFunc(deltas, func(d int) bool { return d != 0 }) {
				result = append(result, deltas)
			}
		}
	}
	if result == nil {
		return nil, nil, fmt.Errorf("no <AGARI> or <RYUUKYOKU>")
	}
	// A daiminkan answered by a rinshan win leaves a trailing 0.
	for s := range seats {
		d := seats[s].discards
		for len(d) > 0 && d[len(d)-1] == 0 {
			d = d[:len(d)-1]
		}
		seats[s].discards = d
	}
	k := Kyoku{[]int{in.Kyoku, in.Honba, in.Kyotaku}, scores, dora, ura}
	for s := range 4 {
		hai := make([]int, 0, len(in.Hai[s]))
		for _, t := range in.Hai[s] {
			hai = append(hai, code(t))
		}
		slices.SortStableFunc(hai, func(a, b int) int { return sortKey(a) - sortKey(b) })
		k = append(k, hai, seats[s].takes, seats[s].discards)
	}
	k = append(k, result)
	return k, after, nil
}

// activeSeats counts the seats dealt a haipai (3 or 4).
func activeSeats(in *mjlog.Init) int {
	n := 0
	for _, h := range in.Hai {
		if len(h) > 0 {
			n++
		}
	}
	return n
}

// scDeltas splits sc="score,delta,…" (100s) into four deltas and four
// scores after, in points. Chip games append four more pairs (the chips),
// which are left out.
func scDeltas(sc []int) (deltas, after []int, err error) {
	if len(sc)%2 != 0 || len(sc) < 6 {
		return nil, nil, fmt.Errorf("sc= has %d values, want 8 (score, delta per seat)", len(sc))
	}
	deltas, after = make([]int, 4), make([]int, 4)
	for s := 0; 2*s < len(sc) && s < 4; s++ {
		deltas[s] = 100 * sc[2*s+1]
		after[s] = 100 * (sc[2*s] + sc[2*s+1])
	}
	return deltas, after, nil
}

// drawNames are the result names of Tenhou's RYUUKYOKU type= codes.
var drawNames = map[string]string{
	"yao9": "九種九牌", "reach4": "四家立直", "ron3": "三家和了", "kan4": "四槓散了",
	"kaze4": "四風連打", "nm": "流し満貫",
}

// drawName names a drawn kyoku: the abortive draw, or for the exhaustive
// draw 全員聴牌 when all active seats show their hands, 全員不聴 when none
// does, else 流局.
func drawName(rk mjlog.Ryuukyoku, active int) string {
	if n, ok := drawNames[rk.Type]; ok {
		return n
	}
	if rk.Type != "" {
		return rk.Type
	}
	shown := 0
	for _, h := range rk.Hai {
		if h != nil {
			shown++
		}
	}
	switch shown {
	case active:
		return "全員聴牌"
	case 0:
		return "全員不聴"
	}
	return "流局"
}
