package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/selfplay"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// tally counts what happened over self-play matches. Calls are counted
// from the melds standing at the end of each kyoku (a chosen call that
// lost to a higher-priority answer is not counted).
type tally struct {
	matches, kyoku, decisions         int
	south, west, bust                 int // matches that reached South / West, or ended by tobi
	tsumo, ron, doubleRon             int
	riichi                            int // riichi declarations accepted or ronned
	chi, pon, daiminkan, ankan, kakan int
	rinshan, chankan, kanDora         int // kanDora: kyoku ending with more than one indicator
	exhaustive, tenpaiPay, nagashi    int // tenpaiPay: exhaustive draws with 1..3 tenpai seats
	abort                             map[game.Abort]int
	yaku                              map[int]int // yaku id → wins with it (yakuman ids included)
	maxKyoku                          int         // most kyoku in one match
	log                               []string    // one line per kyoku: round, end, deltas
	// onDecision, if set, is called before each decision of playKyoku.
	onDecision func(k *game.Kyoku, s game.Seat)
}

func newTally() *tally {
	return &tally{abort: map[game.Abort]int{}, yaku: map[int]int{}}
}

func (t *tally) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d hanchan, %d kyoku (max %d in a match), %d bot decisions; %d went into South, %d into West, %d ended by tobi\n",
		t.matches, t.kyoku, t.maxKyoku, t.decisions, t.south, t.west, t.bust)
	fmt.Fprintf(&b, "wins: %d tsumo, %d ron (%d double ron), %d rinshan kaihou, %d chankan\n", t.tsumo, t.ron, t.doubleRon, t.rinshan, t.chankan)
	fmt.Fprintf(&b, "riichi %d; calls: chi %d, pon %d, daiminkan %d, ankan %d, kakan %d; kyoku with kan-dora %d\n",
		t.riichi, t.chi, t.pon, t.daiminkan, t.ankan, t.kakan, t.kanDora)
	fmt.Fprintf(&b, "draws: exhaustive %d (%d with tenpai payments, %d nagashi mangan); abortive", t.exhaustive, t.tenpaiPay, t.nagashi)
	for _, a := range []game.Abort{game.AbortKyuushu, game.AbortSuufon, game.AbortSuucha, game.AbortSuukan, game.AbortSanchahou} {
		fmt.Fprintf(&b, " %s %d", a.TenhouCode(), t.abort[a])
	}
	b.WriteString("\nyaku (id:wins):")
	ids := make([]int, 0, len(t.yaku))
	for id := range t.yaku {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, " %d:%d", id, t.yaku[id])
	}
	return b.String()
}

// wallFor returns the yama of one kyoku: a permutation of the 136 tile
// ids drawn from r.
func wallFor(r *rand.Rand) []wall.Tile {
	yama := make([]wall.Tile, wall.NumTiles)
	for i, x := range r.Perm(wall.NumTiles) {
		yama[i] = wall.Tile(x)
	}
	return yama
}

// playKyoku drives k to its end with bots choosing every action
// (selfplay.Play); the engine rejects any illegal one. It checks after
// every step that the scores plus the riichi sticks on the table sum to
// 100000.
func playKyoku(k *game.Kyoku, yama []wall.Tile, bots [4]*Bot, tl *tally) error {
	var choose [4]selfplay.Chooser
	for s, b := range bots {
		choose[s] = b.Choose
	}
	return selfplay.Play(k, yama, choose, selfplay.Hooks{
		Decide: func(k *game.Kyoku, s game.Seat) {
			if tl.onDecision != nil {
				tl.onDecision(k, s)
			}
			tl.decisions++
		},
		Applied: func(k *game.Kyoku, a game.Action) error {
			if sum := total(k.Scores()) + 1000*k.Kyotaku(); sum != 100000 {
				return fmt.Errorf("after %v: scores %v + %d sticks sum to %d", a, k.Scores(), k.Kyotaku(), sum)
			}
			return nil
		},
	})
}

func total(s [4]int) int { return s[0] + s[1] + s[2] + s[3] }

// playMatch plays one hanchan under Tenhou's rules with walls drawn from a
// PCG seeded with seed, and records what happened in tl. With private set,
// each bot decides on its own seat's private view (playPrivate) instead of
// the engine that knows every tile.
func playMatch(seed uint64, bots [4]*Bot, tl *tally, private bool) error {
	r := rand.New(rand.NewPCG(seed, 0x6d656e74616c6d6a))
	m := game.NewMatch(game.TenhouRules(true, true, true))
	n, maxRound := 0, 0
	for !m.Over() {
		if n++; n > 100 {
			return fmt.Errorf("seed %d: match not over after 100 kyoku", seed)
		}
		yama := wallFor(r)
		d, _ := m.Next()
		k, err := selfplay.Deal(m, yama)
		if err != nil {
			return fmt.Errorf("seed %d kyoku %d: deal: %w", seed, n, err)
		}
		if private {
			err = playPrivate(k, d, m.Rules(), yama, bots, tl)
		} else {
			err = playKyoku(k, yama, bots, tl)
		}
		if err != nil {
			return fmt.Errorf("seed %d kyoku %d (%s, honba %d): %w", seed, n, game.RoundName(k.Round()), k.Honba(), err)
		}
		res := k.Result()
		if sum := total(res.Scores) + 1000*res.Kyotaku; sum != 100000 {
			return fmt.Errorf("seed %d kyoku %d: result scores %v + %d sticks sum to %d", seed, n, res.Scores, res.Kyotaku, sum)
		}
		for s := range res.Before {
			if res.Before[s]+res.Deltas[s] != res.Scores[s] {
				return fmt.Errorf("seed %d kyoku %d: seat %d before %d + delta %d != %d", seed, n, s, res.Before[s], res.Deltas[s], res.Scores[s])
			}
		}
		tl.record(k, res)
		tl.log = append(tl.log, fmt.Sprintf("%s honba %d: end %d abort %d deltas %v", game.RoundName(k.Round()), k.Honba(), res.End, res.Abort, res.Deltas))
		maxRound = max(maxRound, k.Round())
		if err := m.End(res); err != nil {
			return fmt.Errorf("seed %d kyoku %d: end: %w", seed, n, err)
		}
	}
	st := m.Standings()
	if sum := total(st.Scores); sum != 100000 {
		return fmt.Errorf("seed %d: final scores %v sum to %d", seed, st.Scores, sum)
	}
	if sum := total(st.Points); sum != 0 {
		return fmt.Errorf("seed %d: final points %v sum to %d", seed, st.Points, sum)
	}
	tl.matches++
	if maxRound >= 4 {
		tl.south++
	}
	if maxRound >= 8 {
		tl.west++
	}
	if slices.ContainsFunc(st.Scores[:], func(x int) bool { return x < 0 }) {
		tl.bust++
	}
	tl.maxKyoku = max(tl.maxKyoku, n)
	return nil
}

// record counts the events of the finished kyoku k.
func (tl *tally) record(k *game.Kyoku, res *game.Result) {
	tl.kyoku++
	for s := game.Seat(0); s < 4; s++ {
		for _, m := range k.Melds(s) {
			switch m.Type {
			case riichi.Chi:
				tl.chi++
			case riichi.Pon:
				tl.pon++
			case riichi.Daiminkan:
				tl.daiminkan++
			case riichi.Ankan:
				tl.ankan++
			case riichi.Kakan:
				tl.pon++
				tl.kakan++
			}
		}
		for _, rt := range k.River(s) {
			if rt.Riichi {
				tl.riichi++
			}
		}
	}
	if len(k.DoraIndicators()) > 1 {
		tl.kanDora++
	}
	switch res.End {
	case game.EndAgari:
		if len(res.Wins) == 2 {
			tl.doubleRon++
		}
		for _, w := range res.Wins {
			if w.Tsumo {
				tl.tsumo++
			} else {
				tl.ron++
			}
			if w.Chankan {
				tl.chankan++
			}
			for _, y := range w.Value.Yaku {
				if y.ID == riichi.YakuRinshan {
					tl.rinshan++
				}
				tl.yaku[y.ID]++
			}
			for _, y := range w.Value.Yakuman {
				tl.yaku[y]++
			}
		}
	case game.EndExhaustive:
		tl.exhaustive++
		n := 0
		nagashi := false
		for s := range res.Tenpai {
			if res.Tenpai[s] {
				n++
			}
			nagashi = nagashi || res.Nagashi[s]
		}
		if nagashi {
			tl.nagashi++
		} else if n > 0 && n < 4 {
			tl.tenpaiPay++
		}
	case game.EndAbortive:
		tl.abort[res.Abort]++
	}
}

// selfPlay plays n hanchan with seeds base..base+n-1, each seat's bot
// seeded from the match seed.
func selfPlay(n int, base uint64, private bool) (*tally, error) {
	tl := newTally()
	for i := 0; i < n; i++ {
		seed := base + uint64(i)
		var bots [4]*Bot
		for s := range bots {
			bots[s] = New(seed*4 + uint64(s))
		}
		if err := playMatch(seed, bots, tl, private); err != nil {
			return tl, err
		}
	}
	return tl, nil
}

// TestSelfPlay plays 50 hanchan of four bots through riichi/game.Match on
// random walls with every tile known to the engine. The engine is the
// independent judge: every chosen action must be among LegalActions and
// accepted by Apply, every kyoku and match must end, scores plus riichi
// sticks must always sum to 100000 and the final points to 0, and the
// games must show riichi, tsumo, ron, chi, pon, kans, an exhaustive draw
// with tenpai payments and a hanchan that reaches South.
func TestSelfPlay(t *testing.T) {
	n := 50
	if testing.Short() {
		n = 10
	}
	tl, err := selfPlay(n, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("self-play:\n%s", tl)
	want := []struct {
		name string
		n    int
	}{
		{"riichi", tl.riichi}, {"tsumo", tl.tsumo}, {"ron", tl.ron}, {"chi", tl.chi}, {"pon", tl.pon},
		{"kan", tl.daiminkan + tl.ankan + tl.kakan}, {"exhaustive draw with tenpai payments", tl.tenpaiPay},
		{"hanchan reaching South", tl.south},
	}
	for _, w := range want {
		if w.n == 0 {
			t.Errorf("no %s in %d hanchan", w.name, n)
		}
	}
}
