package game

import (
	"math/rand/v2"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// TestRandomSelfPlay plays kyoku on random walls, each seat choosing at
// random among LegalActions (wins taken when offered, most of the time).
// Every listed action must be accepted by Apply (on a Clone, which must
// leave the original untouched), every kyoku must end, and points are
// conserved: scores plus riichi sticks on the table sum to the start.
func randomYama(rng *rand.Rand) []wall.Tile {
	yama := make([]wall.Tile, wall.NumTiles)
	for i := range yama {
		yama[i] = wall.Tile(i)
	}
	rng.Shuffle(len(yama), func(i, j int) { yama[i], yama[j] = yama[j], yama[i] })
	return yama
}

// haipaiOf returns the haipai of every seat from yama per wall.Layout.
func haipaiOf(yama []wall.Tile, oya Seat) (hai [4][]wall.Tile) {
	for s := Seat(0); s < 4; s++ {
		for _, pos := range wall.FourPlayer.Haipai(oya.Relative(s)) {
			hai[s] = append(hai[s], yama[pos])
		}
	}
	return hai
}

// playKyoku plays k to its end on wall yama with the greedy policy,
// checking that every listed action is accepted by Apply on a Clone.
func playKyoku(t *testing.T, rng *rand.Rand, k *Kyoku, yama []wall.Tile) *Result {
	t.Helper()
	lay := wall.FourPlayer
	for i := 0; i < 5; i++ { // kan-dora and ura indicators, known up front
		for _, pos := range []int{lay.DoraIndicatorIndex(i), lay.UraIndicatorIndex(i)} {
			if err := k.Reveal(pos, yama[pos]); err != nil {
				t.Fatal(err)
			}
		}
	}
	pick := func(s Seat) {
		acts := k.LegalActions(s)
		if len(acts) == 0 {
			t.Fatalf("seat %d has no legal action in phase %s", s, k.Phase())
		}
		for _, a := range acts {
			c := k.Clone()
			if err := c.Apply(a); err != nil {
				t.Fatalf("listed action refused: %v", err)
			}
		}
		chosen := policy(rng, k, s, acts)
		phase, turn := k.Phase(), k.Turn()
		if err := k.Apply(chosen); err != nil {
			t.Fatalf("%v (phase %s turn %d before)", err, phase, turn)
		}
	}
	for steps := 0; k.Phase() != PhaseEnd; steps++ {
		if steps > 2000 {
			t.Fatal("kyoku does not end")
		}
		switch k.Phase() {
		case PhaseDraw:
			_, pos, _, _ := k.NextDraw()
			if _, err := k.Draw(yama[pos]); err != nil {
				t.Fatal(err)
			}
		case PhaseTurn:
			pick(k.Turn())
		case PhaseResponse:
			pick(k.Awaiting()[0])
		default:
			t.Fatalf("phase %s with every hand known", k.Phase())
		}
	}
	return k.Result()
}

// TestRandomSelfPlay plays kyoku on random walls, each seat choosing among
// LegalActions by a greedy policy. Every listed action must be accepted by
// Apply (on a Clone, which must leave the original untouched), every kyoku
// must end, and points are conserved: scores plus riichi sticks on the
// table sum to the start.
func TestRandomSelfPlay(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	ends := map[string]int{}
	for n := 0; n < 150; n++ {
		yama := randomYama(rng)
		d := Deal{Round: rng.IntN(8), Honba: rng.IntN(3), Kyotaku: rng.IntN(2), Oya: Seat(rng.IntN(4)), Scores: [4]int{25000, 25000, 25000, 25000}}
		d.Haipai = haipaiOf(yama, d.Oya)
		d.DoraIndicator = yama[wall.FourPlayer.DoraIndicatorIndex(0)]
		k, err := NewKyoku(TenhouRules(true, true, true), d)
		if err != nil {
			t.Fatal(err)
		}
		res := playKyoku(t, rng, k, yama)
		sum := 1000 * res.Kyotaku
		for _, v := range res.Scores {
			sum += v
		}
		if want := 100000 + 1000*d.Kyotaku; sum != want {
			t.Fatalf("kyoku %d (%+v): points not conserved: %d, want %d", n, res, sum, want)
		}
		key := map[EndKind]string{EndAgari: "agari", EndExhaustive: "exhaustive", EndAbortive: "abort " + res.Abort.TenhouCode()}[res.End]
		ends[key]++
	}
	t.Logf("endings: %v", ends)
	if ends["agari"] < 30 || ends["exhaustive"] == 0 {
		t.Errorf("endings %v: random play should reach wins and exhaustive draws", ends)
	}
}

// TestRandomMatches plays whole matches: each must end within the
// extension, with final scores summing to 100000 and final points to 0.
func TestRandomMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 12; n++ {
		m := NewMatch(TenhouRules(n%2 == 0, true, true))
		kyoku := 0
		for !m.Over() {
			if kyoku++; kyoku > 60 {
				t.Fatalf("match %d does not end", n)
			}
			d, _ := m.Next()
			if d.Round > 11 {
				t.Fatalf("match %d reached round %d", n, d.Round)
			}
			yama := randomYama(rng)
			k, err := m.Start(haipaiOf(yama, d.Oya), yama[wall.FourPlayer.DoraIndicatorIndex(0)])
			if err != nil {
				t.Fatal(err)
			}
			if err := m.End(playKyoku(t, rng, k, yama)); err != nil {
				t.Fatal(err)
			}
		}
		st := m.Standings()
		ss, ps := 0, 0
		for s := range st.Scores {
			ss += st.Scores[s]
			ps += st.Points[s]
		}
		if ss != 100000 || ps != 0 {
			t.Errorf("match %d: final scores %v (sum %d), points %v (sum %d)", n, st.Scores, ss, st.Points, ps)
		}
		top := st.Order[0]
		for _, s := range st.Order[1:] {
			if st.Scores[s] > st.Scores[top] {
				t.Errorf("match %d: order %v does not follow scores %v", n, st.Order, st.Scores)
			}
		}
	}
}

// policy plays greedily: wins when it can (mostly), riichi half of the
// time it may, calls a quarter of the time, else a discard of least
// shanten (ties at random).
func policy(rng *rand.Rand, k *Kyoku, s Seat, acts []Action) Action {
	var wins, riichis, calls, kans, discards []Action
	for _, a := range acts {
		switch {
		case a.Type == Ron || a.Type == TsumoAgari:
			wins = append(wins, a)
		case a.Type == Discard && a.Riichi:
			riichis = append(riichis, a)
		case a.Type == Chi || a.Type == Pon || a.Type == Daiminkan:
			calls = append(calls, a)
		case a.Type == Ankan || a.Type == Kakan:
			kans = append(kans, a)
		case a.Type == Discard:
			discards = append(discards, a)
		}
	}
	switch {
	case len(wins) > 0 && rng.IntN(10) < 9:
		return wins[0]
	case len(riichis) > 0 && rng.IntN(2) == 0:
		return riichis[rng.IntN(len(riichis))]
	case len(calls) > 0 && rng.IntN(4) == 0:
		return calls[rng.IntN(len(calls))]
	case len(kans) > 0 && rng.IntN(3) == 0:
		return kans[rng.IntN(len(kans))]
	case len(discards) > 0:
		p := &k.p[s]
		best, bestN := []Action{}, 99
		for _, a := range discards {
			c := p.counts
			c[a.Tile.Kind()]--
			n := riichi.Shanten(&c, len(p.melds))
			if n < bestN {
				best, bestN = nil, n
			}
			if n == bestN {
				best = append(best, a)
			}
		}
		return best[rng.IntN(len(best))]
	}
	for _, a := range acts {
		if a.Type == Pass {
			return a
		}
	}
	return acts[rng.IntN(len(acts))]
}
