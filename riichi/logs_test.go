package riichi

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/wall"
)

// logWin is one <AGARI> of a four-player log with the WinContext rebuilt
// from the round's events and Tenhou's own evaluation of it.
type logWin struct {
	where string // file:agari-number, for messages
	ctx   WinContext
	// Tenhou's evaluation.
	fu, points, limit int
	yaku              []Yaku
	yakuman           []int
	// Score changes (sc deltas, in points) and who won from whom.
	delta     [4]int
	who, from int
	pao       bool
	paoWho    int
	chip      bool // chip-lobby game: points and payments not comparable
	oya       int
}

// goTypeThreePlayer is the <GO type> bit of three-player games.
const goTypeThreePlayer = 0x10

// goTypeChip is the <GO type> bit of the chip (shuugi) lobby games in the
// corpus (types 553 and 1569). Their points and payments follow other
// rules (e.g. a 30 fu 4 han dealer tsumo is recorded as 12000, limit 0),
// so only yaku, yakuman, fu and limit are compared for them.
const goTypeChip = 0x200

// roundState tracks what a WinContext needs while reading one kyoku.
type roundState struct {
	oya, kyoku, honba, sticks int
	dora                      []wall.Tile
	draws                     int    // all draws so far, rinshan included
	drawsBy                   [4]int // draws per player
	discards                  [4]int // discards per player
	called                    bool   // any N (call or kan) so far
	riichi, double, ippatsu   [4]bool
	pendingRiichi             [4]bool
	rinshanNext               [4]bool        // next draw of the player is a rinshan draw
	lastRinshan               bool           // the last draw was a rinshan draw
	lastKakan                 bool           // the last event was a kakan
	ippatsuBeforeKakan        [4]bool        // ippatsu flags before the last kakan (chankan keeps ippatsu)
	chipRules                 bool           // <GO type> has goTypeChip
	hands                     [4][]wall.Tile // concealed tiles, tracked from INIT, draws, discards and calls
	melds                     [4][]Meld      // declared melds in call order (kakan in place of its pon)
	honbaTaken                bool           // an earlier winner of a double ron took the honba
}

// parseInts parses a comma-separated list of integers.
func parseInts(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	out := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("integer list %q: %w", s, err)
		}
		out[i] = v
	}
	return out, nil
}

func tilesOf(v []int) []wall.Tile {
	out := make([]wall.Tile, len(v))
	for i, x := range v {
		out[i] = wall.Tile(x)
	}
	return out
}

// decodeTenhouMeld decodes the m attribute of an mjlog <N> / <AGARI> (the
// documented Tenhou bit layout: bit 2 chi, bit 3 pon, bit 4 kakan, none of
// them a daiminkan/ankan; the low two bits are the relative seat called
// from).
func decodeTenhouMeld(m int) (Meld, error) {
	from := m & 3
	switch {
	case m&(1<<2) != 0: // chi
		t := m >> 10
		r := t % 3
		t /= 3
		base := t/7*9 + t%7
		if base > 24 {
			return Meld{}, fmt.Errorf("chi code %d: bad base", m)
		}
		tiles := []wall.Tile{
			wall.Tile(4*base + (m>>3)&3),
			wall.Tile(4*(base+1) + (m>>5)&3),
			wall.Tile(4*(base+2) + (m>>7)&3),
		}
		return Meld{Type: Chi, Tiles: tiles, Called: tiles[r], From: from}, nil
	case m&(1<<3) != 0 || m&(1<<4) != 0: // pon, kakan
		t := m >> 9
		r := t % 3
		kind := t / 3
		if kind >= 34 {
			return Meld{}, fmt.Errorf("pon code %d: bad kind", m)
		}
		unused := (m >> 5) & 3
		var pon []wall.Tile
		for i := 0; i < 4; i++ {
			if i != unused {
				pon = append(pon, wall.Tile(4*kind+i))
			}
		}
		if m&(1<<3) != 0 {
			return Meld{Type: Pon, Tiles: pon, Called: pon[r], From: from}, nil
		}
		all := append(slices.Clone(pon), wall.Tile(4*kind+unused))
		return Meld{Type: Kakan, Tiles: all, Called: pon[r], From: from}, nil
	case m&(1<<5) != 0:
		return Meld{}, fmt.Errorf("meld code %d: nukidora (three-player)", m)
	default: // daiminkan, ankan
		hai := m >> 8
		kind := hai / 4
		if kind >= 34 {
			return Meld{}, fmt.Errorf("kan code %d: bad kind", m)
		}
		tiles := []wall.Tile{wall.Tile(4 * kind), wall.Tile(4*kind + 1), wall.Tile(4*kind + 2), wall.Tile(4*kind + 3)}
		if from == 0 {
			return Meld{Type: Ankan, Tiles: tiles, Called: -1}, nil
		}
		return Meld{Type: Daiminkan, Tiles: tiles, Called: wall.Tile(hai), From: from}, nil
	}
}

// readLogWins extracts every <AGARI> of one mjlog file; it returns nil for
// three-player games.
func readLogWins(path string, ryuukyokuChecks *int) ([]logWin, error) {
	raw, err := tenhoucorpus.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := xml.NewDecoder(bytes.NewReader(raw))
	var st roundState
	var wins []logWin
	name := tenhoucorpus.Name(path)
	attrs := map[string]string{}
	chip := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return wins, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		clear(attrs)
		for _, a := range se.Attr {
			attrs[a.Name.Local] = a.Value
		}
		tag := se.Name.Local
		bad := func(err error) error { return fmt.Errorf("%s: <%s>: %w", name, tag, err) }
		switch {
		case tag == "GO":
			typ, err := strconv.Atoi(attrs["type"])
			if err != nil {
				return nil, bad(err)
			}
			if typ&goTypeThreePlayer != 0 {
				return nil, nil
			}
			chip = typ&goTypeChip != 0
		case tag == "INIT":
			seed, err := parseInts(attrs["seed"])
			if err != nil || len(seed) != 6 {
				return nil, bad(fmt.Errorf("seed %q", attrs["seed"]))
			}
			oya, err := strconv.Atoi(attrs["oya"])
			if err != nil {
				return nil, bad(err)
			}
			st = roundState{chipRules: chip, oya: oya, kyoku: seed[0], honba: seed[1], sticks: seed[2], dora: []wall.Tile{wall.Tile(seed[5])}}
			for p := 0; p < 4; p++ {
				hai, err := parseInts(attrs[fmt.Sprintf("hai%d", p)])
				if err != nil || len(hai) != 13 {
					return nil, bad(fmt.Errorf("hai%d %q", p, attrs[fmt.Sprintf("hai%d", p)]))
				}
				st.hands[p] = tilesOf(hai)
			}
		case tag == "DORA":
			h, err := strconv.Atoi(attrs["hai"])
			if err != nil {
				return nil, bad(err)
			}
			st.dora = append(st.dora, wall.Tile(h))
		case tag == "REACH":
			who, err1 := strconv.Atoi(attrs["who"])
			step, err2 := strconv.Atoi(attrs["step"])
			if err := errors.Join(err1, err2); err != nil {
				return nil, bad(err)
			}
			if step == 1 {
				st.pendingRiichi[who] = true
				st.double[who] = st.discards[who] == 0 && !st.called
			} else {
				st.riichi[who] = true
				st.sticks++
			}
		case tag == "N":
			who, err1 := strconv.Atoi(attrs["who"])
			m, err2 := strconv.Atoi(attrs["m"])
			if err := errors.Join(err1, err2); err != nil {
				return nil, bad(err)
			}
			meld, err := decodeTenhouMeld(m)
			if err != nil {
				return nil, bad(err)
			}
			if err := st.applyMeld(who, meld); err != nil {
				return nil, bad(err)
			}
			st.called = true
			st.ippatsuBeforeKakan = st.ippatsu
			st.ippatsu = [4]bool{}
			if meld.IsKan() {
				st.rinshanNext[who] = true
			}
			st.lastKakan = meld.Type == Kakan
		case tag == "RYUUKYOKU":
			if _, typed := attrs["type"]; typed {
				break
			}
			for p := 0; p < 4; p++ {
				shown, tenpai := attrs[fmt.Sprintf("hai%d", p)]
				c := CountsOf(st.hands[p])
				waits := Waits(&c, len(st.melds[p]))
				if tenpai != (waits != nil) {
					return nil, bad(fmt.Errorf("player %d hand %s melds %v: Tenhou tenpai=%v, Waits %v", p, FormatHand(st.hands[p]), st.melds[p], tenpai, waits))
				}
				if tenpai {
					hai, err := parseInts(shown)
					if err != nil || !sameTiles(tilesOf(hai), st.hands[p]) {
						return nil, bad(fmt.Errorf("player %d shows %q, tracked %v", p, shown, st.hands[p]))
					}
				}
			}
			*ryuukyokuChecks += 4
		case tag == "AGARI":
			w, err := parseAgari(attrs, &st)
			if err != nil {
				return nil, bad(err)
			}
			w.where = fmt.Sprintf("%s#%d", name, len(wins))
			wins = append(wins, w)
			// Double ron: the riichi sticks and the honba go to the first
			// winner only (Tenhou's kamicha priority); ba= still shows the
			// honba for the second winner.
			st.sticks = 0
			st.honbaTaken = true
		case len(tag) >= 2 && strings.ContainsRune("TUVWDEFG", rune(tag[0])) && tag[1] >= '0' && tag[1] <= '9':
			if _, err := strconv.Atoi(tag[1:]); err != nil {
				continue
			}
			id, _ := strconv.Atoi(tag[1:])
			if p := strings.IndexByte("TUVW", tag[0]); p >= 0 {
				st.hands[p] = append(st.hands[p], wall.Tile(id))
				st.draws++
				st.drawsBy[p]++
				st.lastRinshan = st.rinshanNext[p]
				st.rinshanNext[p] = false
			} else {
				p := strings.IndexByte("DEFG", tag[0])
				if !st.take(p, wall.Tile(id)) {
					return nil, bad(fmt.Errorf("player %d discards %d not in hand", p, id))
				}
				st.discards[p]++
				if st.pendingRiichi[p] {
					st.pendingRiichi[p] = false
					st.ippatsu[p] = true
				} else {
					st.ippatsu[p] = false
				}
			}
			st.lastKakan = false
		}
	}
}

// take removes tile id from player p's tracked hand.
func (st *roundState) take(p int, id wall.Tile) bool {
	i := slices.Index(st.hands[p], id)
	if i < 0 {
		return false
	}
	st.hands[p] = slices.Delete(st.hands[p], i, i+1)
	return true
}

// applyMeld moves the meld's own tiles out of player p's hand and records
// the meld (a kakan replaces its pon in place).
func (st *roundState) applyMeld(p int, m Meld) error {
	switch m.Type {
	case Chi, Pon, Daiminkan:
		for _, t := range m.Tiles {
			if t != m.Called && !st.take(p, t) {
				return fmt.Errorf("player %d calls %v without holding %d", p, m.Tiles, t)
			}
		}
		st.melds[p] = append(st.melds[p], m)
	case Ankan:
		for _, t := range m.Tiles {
			if !st.take(p, t) {
				return fmt.Errorf("player %d ankan %v without holding %d", p, m.Tiles, t)
			}
		}
		st.melds[p] = append(st.melds[p], m)
	case Kakan:
		added := m.Tiles[3]
		if !st.take(p, added) {
			return fmt.Errorf("player %d kakan without holding %d", p, added)
		}
		i := slices.IndexFunc(st.melds[p], func(o Meld) bool { return o.Type == Pon && o.Kind() == m.Kind() })
		if i < 0 {
			return fmt.Errorf("player %d kakan %v without a pon", p, m.Tiles)
		}
		st.melds[p][i] = m
	}
	return nil
}

// sameTiles reports whether a and b hold the same ids in any order.
func sameTiles(a, b []wall.Tile) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// parseAgari rebuilds the WinContext of one <AGARI> and reads Tenhou's
// evaluation.
func parseAgari(a map[string]string, st *roundState) (logWin, error) {
	var w logWin
	get := func(k string) []int {
		v, err := parseInts(a[k])
		if err != nil {
			panic(err) // recovered below
		}
		return v
	}
	var perr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				perr = fmt.Errorf("%v", r)
			}
		}()
		who, from := get("who"), get("fromWho")
		hai, ms, machi := get("hai"), get("m"), get("machi")
		ten, yaku, yakuman := get("ten"), get("yaku"), get("yakuman")
		doraHai, ura, ba, sc := get("doraHai"), get("doraHaiUra"), get("ba"), get("sc")
		if len(who) != 1 || len(from) != 1 || len(machi) != 1 || len(ten) != 3 || len(ba) != 2 || (len(sc) != 8 && len(sc) != 16) || len(yaku)%2 != 0 {
			perr = fmt.Errorf("malformed attributes %v", a)
			return
		}
		w.who, w.from, w.oya = who[0], from[0], st.oya
		w.fu, w.points, w.limit = ten[0], ten[1], ten[2]
		for i := 0; i < len(yaku); i += 2 {
			w.yaku = append(w.yaku, Yaku{yaku[i], yaku[i+1]})
		}
		w.yakuman = yakuman
		for p := 0; p < 4; p++ {
			w.delta[p] = sc[2*p+1] * 100
		}
		if pw := get("paoWho"); len(pw) == 1 {
			w.pao, w.paoWho = true, pw[0]
		}
		w.chip = st.chipRules
		if !slices.Equal(tilesOf(doraHai), st.dora) {
			perr = fmt.Errorf("doraHai %v but INIT+DORA gave %v", doraHai, st.dora)
			return
		}
		if ba[0] != st.honba || ba[1] != st.sticks {
			perr = fmt.Errorf("ba %v but INIT gave %d,%d", ba, st.honba, st.sticks)
			return
		}
		p := w.who
		tsumo := p == w.from
		ctx := WinContext{
			Hand:           tilesOf(hai),
			WinTile:        wall.Tile(machi[0]),
			Tsumo:          tsumo,
			SeatWind:       wall.Kind(27 + (p-st.oya+4)%4),
			RoundWind:      wall.Kind(27 + st.kyoku/4),
			Riichi:         st.riichi[p] && !st.double[p],
			DoubleRiichi:   st.riichi[p] && st.double[p],
			Ippatsu:        st.riichi[p] && (st.ippatsu[p] || (!tsumo && st.lastKakan && st.ippatsuBeforeKakan[p])),
			Rinshan:        tsumo && st.lastRinshan,
			Chankan:        !tsumo && st.lastKakan,
			Tenhou:         tsumo && p == st.oya && st.drawsBy[p] == 1 && !st.called,
			Chiihou:        tsumo && p != st.oya && st.drawsBy[p] == 1 && !st.called,
			DoraIndicators: st.dora,
			UraIndicators:  tilesOf(ura),
			Honba:          honbaFor(st),
			RiichiSticks:   st.sticks,
			Rules:          TenhouRules,
		}
		liveGone := st.draws == wall.FourPlayer.Size-wall.DeadWallSize-4*wall.HaipaiSize
		ctx.Haitei = tsumo && liveGone && !ctx.Rinshan
		ctx.Houtei = !tsumo && liveGone && !ctx.Chankan
		// <AGARI m=...> lists the melds newest first; WinContext wants call
		// order.
		for i := len(ms) - 1; i >= 0; i-- {
			meld, err := decodeTenhouMeld(ms[i])
			if err != nil {
				perr = err
				return
			}
			ctx.Melds = append(ctx.Melds, meld)
		}
		tracked := slices.Clone(st.hands[p])
		if !tsumo {
			tracked = append(tracked, ctx.WinTile)
		}
		if !sameTiles(tracked, ctx.Hand) {
			perr = fmt.Errorf("hai %v but the tracked hand is %v", hai, tracked)
			return
		}
		if !slices.EqualFunc(ctx.Melds, st.melds[p], func(a, b Meld) bool {
			return a.Type == b.Type && sameTiles(a.Tiles, b.Tiles) && a.From == b.From
		}) {
			perr = fmt.Errorf("m %v but the tracked melds are %v", ctx.Melds, st.melds[p])
			return
		}
		before := CountsOf(ctx.Hand)
		before[ctx.WinTile.Kind()]--
		if !slices.Contains(Waits(&before, len(ctx.Melds)), ctx.WinTile.Kind()) {
			perr = fmt.Errorf("winning tile %v is not among Waits %v", ctx.WinTile, Waits(&before, len(ctx.Melds)))
			return
		}
		w.ctx = ctx
	}()
	return w, perr
}

// honbaFor returns the honba a win is paid: none for the second winner of
// a double ron.
func honbaFor(st *roundState) int {
	if st.honbaTaken {
		return 0
	}
	return st.honba
}

// loadLogWins reads every four-player log of the corpus
// (tenhoucorpus.For).
func loadLogWins(t testing.TB) []logWin {
	wins, _ := loadLogWinsCounted(t)
	return wins
}

// loadLogWinsCounted is loadLogWins that also returns the number of
// tenpai/noten checks made at exhaustive draws.
func loadLogWinsCounted(t testing.TB) ([]logWin, int) {
	ryuukyokuChecks := 0
	t.Helper()
	var all []logWin
	for _, f := range tenhoucorpus.For(t).MustFiles(t) {
		wins, err := readLogWins(f, &ryuukyokuChecks)
		if err != nil {
			t.Fatalf("reading log: %v", err)
		}
		all = append(all, wins...)
	}
	return all, ryuukyokuChecks
}

// TestScoreMatchesTenhouLogs scores every <AGARI> of the shared
// four-player logs and compares yaku (ids, han, order), yakuman, fu, points,
// limit and the payments (sc deltas) with what Tenhou recorded. While
// reading, it also checks the extraction itself (tracked hands and melds
// equal the <AGARI> hai= and m=, INIT+DORA indicators equal doraHai=, ba=),
// that the winning tile is among Waits, and, at every exhaustive draw, that
// Waits is non-empty exactly for the players Tenhou shows as tenpai.
func TestScoreMatchesTenhouLogs(t *testing.T) {
	wins, ryuukyoku := loadLogWinsCounted(t)
	// Every <AGARI> of the four-player logs, counted in their raw text.
	corpus := tenhoucorpus.For(t)
	want, err := corpus.Count(regexp.MustCompile(`<AGARI `), func(_ string, goType int) bool { return goType&goTypeThreePlayer == 0 })
	if err != nil {
		t.Fatal(err)
	}
	if len(wins) != want || want == 0 || ryuukyoku == 0 {
		t.Fatalf("%d wins and %d exhaustive-draw hands read from %s; its four-player logs hold %d <AGARI>", len(wins), ryuukyoku, corpus, want)
	}
	failures, paid := 0, 0
	for _, w := range wins {
		res, err := Score(w.ctx)
		if err != nil {
			t.Errorf("%s: Score(%s %v): %v", w.where, FormatHand(w.ctx.Hand), w.ctx.Melds, err)
			failures++
			continue
		}
		var diffs []string
		if !slices.Equal(res.Yaku, w.yaku) {
			diffs = append(diffs, fmt.Sprintf("yaku %v, Tenhou %v", res.Yaku, w.yaku))
		}
		if !slices.Equal(res.Yakuman, w.yakuman) {
			diffs = append(diffs, fmt.Sprintf("yakuman %v, Tenhou %v", res.Yakuman, w.yakuman))
		}
		if res.Fu != w.fu || res.Limit != w.limit || (res.Points != w.points && !w.chip) {
			diffs = append(diffs, fmt.Sprintf("ten %d,%d,%d, Tenhou %d,%d,%d", res.Fu, res.Points, res.Limit, w.fu, w.points, w.limit))
		}
		if w.pao && !w.chip {
			if d := paoDiff(w, res); d != "" {
				diffs = append(diffs, d)
			} else {
				paid++
			}
		}
		if !w.pao && !w.chip {
			if d := paymentDiff(w, res.Pay); d != "" {
				diffs = append(diffs, d)
			} else {
				paid++
			}
		}
		if len(diffs) > 0 {
			failures++
			t.Errorf("%s: %s melds %v win %v tsumo=%v: %s", w.where, FormatHand(w.ctx.Hand), w.ctx.Melds, w.ctx.WinTile, w.ctx.Tsumo, strings.Join(diffs, "; "))
		}
		if failures > 30 {
			t.Fatal("too many failures")
		}
	}
	t.Logf("checked %d wins from the four-player logs (%d payments) and %d tenpai/noten hands at exhaustive draws", len(wins), paid, ryuukyoku)
	var flags [9]int
	for _, w := range wins {
		c := w.ctx
		for i, f := range []bool{c.Riichi, c.DoubleRiichi, c.Ippatsu, c.Haitei, c.Houtei, c.Rinshan, c.Chankan, c.Tenhou, c.Chiihou} {
			if f {
				flags[i]++
			}
		}
	}
	t.Logf("situational flags rebuilt: riichi %d, double riichi %d, ippatsu %d, haitei %d, houtei %d, rinshan %d, chankan %d, tenhou %d, chiihou %d",
		flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6], flags[7], flags[8])
}

// paoDiff compares PaoPayment with the score changes of a pao win.
func paoDiff(w logWin, res WinResult) string {
	if len(res.Yakuman) != 1 {
		return fmt.Sprintf("pao win with yakuman %v", res.Yakuman)
	}
	liable, discarder := PaoPayment(w.who == w.oya, w.who == w.from, w.ctx.Honba)
	var want [4]int
	want[w.paoWho] -= liable
	if w.from != w.who {
		want[w.from] -= discarder
	}
	for q := 0; q < 4; q++ {
		if q != w.who && w.delta[q] != want[q] {
			return fmt.Sprintf("pao payments %v, Tenhou deltas %v", want, w.delta)
		}
	}
	return ""
}

// paymentDiff compares Pay with the score changes of the losers in sc.
func paymentDiff(w logWin, p Payment) string {
	var want [4]int
	if w.from != w.who {
		want[w.from] = -p.Ron
	} else {
		for q := 0; q < 4; q++ {
			switch {
			case q == w.who:
			case q == w.oya:
				want[q] = -p.TsumoDealer
			default:
				want[q] = -p.TsumoNonDealer
			}
		}
	}
	for q := 0; q < 4; q++ {
		if q != w.who && w.delta[q] != want[q] {
			return fmt.Sprintf("payments %v, Tenhou deltas %v", want, w.delta)
		}
	}
	return ""
}
