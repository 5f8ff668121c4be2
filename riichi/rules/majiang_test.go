package rules

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// Differential tests against @kobalab/majiang-core (npm), a second
// implementation with rule options for most switches, run under Node.js
// through testdata/majiang_shim.js. They run when
// $MENTALMJ_MAJIANG_NODE_PATH names a node_modules directory holding
// @kobalab/majiang-core (.ci/run installs 1.4.1 there) and node is on the
// PATH; otherwise they skip saying so.

// majiang is a running shim: one JSON request per line, one answer per
// line.
type majiang struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startMajiang(t *testing.T) *majiang {
	t.Helper()
	dir := os.Getenv("MENTALMJ_MAJIANG_NODE_PATH")
	if dir == "" {
		t.Skip("MENTALMJ_MAJIANG_NODE_PATH not set (npm install @kobalab/majiang-core@1.4.1 and point it at node_modules)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on the PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "@kobalab", "majiang-core")); err != nil {
		t.Skipf("@kobalab/majiang-core not in %s: %v", dir, err)
	}
	cmd := exec.Command(node, "testdata/majiang_shim.js")
	cmd.Env = append(os.Environ(), "NODE_PATH="+dir)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &majiang{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	m.out.Buffer(make([]byte, 1<<16), 1<<20)
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	return m
}

// ask sends the requests and decodes one answer per request into answers
// (a pointer to a slice).
func (m *majiang) ask(t *testing.T, reqs []map[string]any, answers any) {
	t.Helper()
	go func() {
		w := bufio.NewWriter(m.in)
		enc := json.NewEncoder(w)
		for _, r := range reqs {
			enc.Encode(r)
		}
		w.Flush()
	}()
	var raw []json.RawMessage
	deadline := time.AfterFunc(2*time.Minute, func() { m.cmd.Process.Kill() })
	defer deadline.Stop()
	for range reqs {
		if !m.out.Scan() {
			t.Fatalf("majiang shim ended early: %v", m.out.Err())
		}
		raw = append(raw, slices.Clone(m.out.Bytes()))
	}
	b, _ := json.Marshal(raw)
	if err := json.Unmarshal(b, answers); err != nil {
		t.Fatal(err)
	}
}

// majiangRule is the majiang-core rule object for s (four players).
func majiangRule(s Set, hanchan bool) map[string]any {
	red := map[string]int{"m": 0, "p": 0, "s": 0}
	h := s.Game(4, hanchan).Hand
	for id := wall.Tile(16); id < 20; id++ {
		for i, suit := range []string{"m", "p", "s"} {
			if h.IsRed(id + wall.Tile(36*i)) {
				red[suit]++
			}
		}
	}
	renchan := 2
	if s.Renchan == RenchanAgari {
		renchan = 1
	}
	// The engine's extension round gives the dealer's renchan priority
	// (each extension hand ends the match like the last hand: Tenhou, as
	// the engine plays the shared logs): majiang-core's 連荘優先サドンデス.
	west := 0
	if s.West {
		west = 2
	}
	bas := 1
	if hanchan {
		bas = 2
	}
	return map[string]any{
		"配給原点": s.Start, "赤牌": red, "クイタンあり": s.Kuitan, "喰い替え許可レベル": int(s.Kuikae),
		"場数": bas, "途中流局あり": s.Kyuushu, "流し満貫あり": s.Nagashi,
		"最大同時和了数": map[Ron]int{RonAtamahane: 1, RonDouble: 2, RonTriple: 3}[s.Ron],
		"連荘方式":    renchan, "トビ終了あり": s.Tobi, "オーラス止めあり": s.AgariYame, "延長戦方式": west,
		"裏ドラあり": s.Ura, "カンドラあり": s.KanDora, "カン裏あり": s.KanUra, "ツモ番なしリーチあり": s.RiichiNoDraw,
		"役満の複合あり": s.StackedYakuman, "ダブル役満あり": s.DoubleYakuman, "数え役満あり": s.KazoeYakuman,
		"役満パオあり": s.Pao, "切り上げ満貫あり": s.Kiriage,
	}
}

// mjTile is majiang's name of tile t under hand rules r ("m5", "m0" red).
func mjTile(t wall.Tile, r riichi.Rules) string {
	k := int(t.Kind())
	d := k%9 + 1
	if r.IsRed(t) {
		d = 0
	}
	return fmt.Sprintf("%c%d", "mpsz"[k/9], d)
}

// randomWin builds a random complete hand (standard form, sometimes
// chiitoitsu, kokushi or honour-heavy) with random melds, situation and
// indicators. ids are drawn from a shuffled wall so red fives vary.
func randomWin(rng *rand.Rand, r riichi.Rules) (riichi.WinContext, map[string]any) {
	var pool [34][]wall.Tile
	for k := range pool {
		for i := range 4 {
			pool[k] = append(pool[k], wall.Tile(4*k+i))
		}
		rng.Shuffle(4, func(i, j int) { pool[k][i], pool[k][j] = pool[k][j], pool[k][i] })
	}
	take := func(k int) (wall.Tile, bool) {
		if len(pool[k]) == 0 {
			return 0, false
		}
		t := pool[k][0]
		pool[k] = pool[k][1:]
		return t, true
	}
	type set struct {
		tiles []wall.Tile
		seq   bool
	}
	var sets []set
	var concealed []wall.Tile
	kindPick := func() int {
		if rng.IntN(4) == 0 {
			return 27 + rng.IntN(7)
		}
		return rng.IntN(34)
	}
	switch form := rng.IntN(20); {
	case form == 0: // kokushi
		pair := []int{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}[rng.IntN(13)]
		for _, k := range []int{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, pair} {
			t, _ := take(k)
			concealed = append(concealed, t)
		}
	case form <= 2: // chiitoitsu
		ks := rng.Perm(34)[:7]
		for _, k := range ks {
			a, _ := take(k)
			b, _ := take(k)
			concealed = append(concealed, a, b)
		}
	default:
		for len(sets) < 4 {
			var s set
			if rng.IntN(10) < 6 {
				suit, start := rng.IntN(3), rng.IntN(7)
				k := 9*suit + start
				if len(pool[k]) == 0 || len(pool[k+1]) == 0 || len(pool[k+2]) == 0 {
					continue
				}
				for i := range 3 {
					t, _ := take(k + i)
					s.tiles = append(s.tiles, t)
				}
				s.seq = true
			} else {
				k := kindPick()
				if len(pool[k]) < 3 {
					continue
				}
				for range 3 {
					t, _ := take(k)
					s.tiles = append(s.tiles, t)
				}
			}
			sets = append(sets, s)
		}
		for {
			k := kindPick()
			if len(pool[k]) >= 2 {
				a, _ := take(k)
				b, _ := take(k)
				concealed = append(concealed, a, b)
				break
			}
		}
	}
	ctx := riichi.WinContext{Rules: r}
	var melds []string
	dirs := []string{"+", "=", "-"}
	for _, s := range sets {
		if rng.IntN(4) == 0 && len(ctx.Melds) < 2 {
			called := s.tiles[rng.IntN(3)]
			m := riichi.Meld{Tiles: slices.Clone(s.tiles), Called: called}
			var str strings.Builder
			str.WriteByte("mpsz"[int(called.Kind())/9])
			if s.seq {
				m.Type, m.From = riichi.Chi, 3
				sorted := slices.Clone(s.tiles)
				slices.Sort(sorted)
				for _, t := range sorted {
					str.WriteString(mjTile(t, r)[1:])
					if t == called {
						str.WriteString("-")
					}
				}
			} else {
				d := rng.IntN(3)
				m.Type, m.From = riichi.Pon, d+1
				for _, t := range s.tiles {
					if t != called {
						str.WriteString(mjTile(t, r)[1:])
					}
				}
				str.WriteString(mjTile(called, r)[1:] + dirs[d])
			}
			ctx.Melds = append(ctx.Melds, m)
			melds = append(melds, str.String())
			continue
		}
		concealed = append(concealed, s.tiles...)
	}
	win := concealed[rng.IntN(len(concealed))]
	ctx.Hand, ctx.WinTile = concealed, win
	ctx.Tsumo = rng.IntN(2) == 0
	menfeng, zhuangfeng := rng.IntN(4), rng.IntN(2)
	ctx.SeatWind, ctx.RoundWind = wall.Kind(27+menfeng), wall.Kind(27+zhuangfeng)
	lizhi, haidi, tianhu := 0, 0, 0
	closed := len(ctx.Melds) == 0
	if closed && rng.IntN(10) < 4 {
		ctx.Riichi, lizhi = true, 1
		if rng.IntN(10) == 0 {
			ctx.DoubleRiichi, lizhi = true, 2
		}
		ctx.Ippatsu = rng.IntN(3) == 0
	}
	if rng.IntN(20) == 0 {
		if ctx.Tsumo {
			ctx.Haitei, haidi = true, 1
		} else {
			ctx.Houtei, haidi = true, 2
		}
	}
	if closed && !ctx.Riichi && ctx.Tsumo && rng.IntN(30) == 0 {
		if menfeng == 0 {
			ctx.Tenhou, tianhu = true, 1
		} else {
			ctx.Chiihou, tianhu = true, 2
		}
	}
	indicator := func() wall.Tile {
		for {
			if t, ok := take(rng.IntN(34)); ok {
				return t
			}
		}
	}
	for range 1 + rng.IntN(3) {
		ctx.DoraIndicators = append(ctx.DoraIndicators, indicator())
		ctx.UraIndicators = append(ctx.UraIndicators, indicator())
	}
	if !ctx.Riichi {
		ctx.UraIndicators = nil
	}
	ctx.Honba = rng.IntN(3)

	// majiang: concealed tiles without the winning tile, then the winning
	// tile (tsumo) or the rongpai with the discarder's direction.
	var rest []wall.Tile
	dropped := false
	for _, t := range concealed {
		if t == win && !dropped {
			dropped = true
			continue
		}
		rest = append(rest, t)
	}
	slices.Sort(rest)
	var sp strings.Builder
	for _, t := range rest {
		sp.WriteString(mjTile(t, r))
	}
	var rongpai any
	if ctx.Tsumo {
		sp.WriteString(mjTile(win, r))
	} else {
		rongpai = mjTile(win, r) + dirs[rng.IntN(3)]
	}
	shoupai := sp.String()
	for _, m := range melds {
		shoupai += "," + m
	}
	names := func(ts []wall.Tile) []string {
		var out []string
		for _, t := range ts {
			out = append(out, mjTile(t, r))
		}
		return out
	}
	baopai := names(ctx.DoraIndicators)
	var fubaopai any
	if ctx.Riichi {
		fubaopai = names(ctx.UraIndicators)
	}
	if r.NoKanDora {
		baopai = baopai[:1]
	}
	if ctx.Riichi && r.NoUra {
		fubaopai = nil
	} else if ctx.Riichi && r.NoKanUra {
		fubaopai = names(ctx.UraIndicators[:1])
	}
	return ctx, map[string]any{
		"kind": "hule", "shoupai": shoupai, "rongpai": rongpai, "zhuangfeng": zhuangfeng, "menfeng": menfeng,
		"lizhi": lizhi, "yifa": ctx.Ippatsu, "haidi": haidi, "tianhu": tianhu,
		"baopai": baopai, "fubaopai": fubaopai, "changbang": ctx.Honba,
	}
}

// TestMajiangScoring scores random hands under every preset (and the
// tenhou preset with the scoring switches flipped) with riichi.Score and
// with majiang-core's Util.hule under the same rule options: han, fu,
// points and every payment must agree, and both must agree on whether the
// hand wins.
func TestMajiangScoring(t *testing.T) {
	mj := startMajiang(t)
	var sets []Set
	for _, name := range PresetNames() {
		s, _ := Preset(name)
		sets = append(sets, s)
	}
	flipped, _ := Parse("tenhou", []string{"kiriage=on", "kazoe=sanbaiman", "double-yakuman=on", "stacked-yakuman=off", "aka=4", "kuitan=off", "ura=off", "kan-dora=off"})
	sets = append(sets, flipped)
	kanura, _ := Parse("majsoul", []string{"kan-ura=off", "aka=2", "stacked-yakuman=off"})
	sets = append(sets, kanura)
	const perSet = 1500
	wins, total := 0, 0
	for si, s := range sets {
		rng := rand.New(rand.NewPCG(uint64(si), 20))
		r := s.Game(4, true).Hand
		var ctxs []riichi.WinContext
		var reqs []map[string]any
		rule := majiangRule(s, true)
		for range perSet {
			ctx, req := randomWin(rng, r)
			req["rule"] = rule
			ctxs, reqs = append(ctxs, ctx), append(reqs, req)
		}
		var ans []struct {
			OK                           bool
			Fanshu, Fu, Damanguan, Defen int
			Fenpei                       [4]int
			Error                        string
		}
		mj.ask(t, reqs, &ans)
		bad := 0
		for i, ctx := range ctxs {
			a := ans[i]
			if a.Error != "" {
				t.Fatalf("%s: majiang error %s for %v", s.Summary(), a.Error, reqs[i])
			}
			total++
			res, err := riichi.Score(ctx)
			if err != nil && !errors.Is(err, riichi.ErrNoYaku) && !errors.Is(err, riichi.ErrNotComplete) {
				t.Fatalf("%s: %v for %v", s.Summary(), err, reqs[i]["shoupai"])
			}
			mismatch := ""
			switch {
			case (err == nil) != a.OK:
				mismatch = fmt.Sprintf("wins %v (%v), majiang %v", err == nil, err, a.OK)
			case err != nil:
			case len(res.Yakuman) > 0 && res.Han != 13*a.Damanguan:
				mismatch = fmt.Sprintf("yakuman %v han %d, majiang %d yakuman", res.Yakuman, res.Han, a.Damanguan)
			case len(res.Yakuman) == 0 && (res.Han != a.Fanshu || res.Fu != a.Fu):
				mismatch = fmt.Sprintf("%d han %d fu (%v), majiang %d han %d fu", res.Han, res.Fu, res.Yaku, a.Fanshu, a.Fu)
			case res.Points != a.Defen:
				mismatch = fmt.Sprintf("%d points, majiang %d", res.Points, a.Defen)
			default:
				menfeng := int(ctx.SeatWind - 27)
				if got := paid(res.Pay, ctx.Tsumo, menfeng == 0); got != a.Fenpei[menfeng] {
					mismatch = fmt.Sprintf("receives %d (%+v), majiang %d", got, res.Pay, a.Fenpei[menfeng])
				}
			}
			if err == nil {
				wins++
			}
			if mismatch != "" {
				bad++
				if bad <= 10 {
					t.Errorf("%s: %s %v: %s", s.Summary(), reqs[i]["shoupai"], reqs[i]["rongpai"], mismatch)
				}
			}
		}
		if bad > 10 {
			t.Errorf("%s: %d of %d hands differ", s.Summary(), bad, perSet)
		}
	}
	t.Logf("%d hands, %d wins compared", total, wins)
	if wins < total/10 {
		t.Errorf("only %d of %d random hands win: the generator is broken", wins, total)
	}
}

// paid is what the winner receives from the others, honba included.
func paid(p riichi.Payment, tsumo, dealer bool) int {
	if !tsumo {
		return p.Ron
	}
	if dealer {
		return 3 * p.TsumoNonDealer
	}
	return p.TsumoDealer + 2*p.TsumoNonDealer
}

// TestMajiangEndOfGame compares the end of the match (Match.End: tobi,
// agari-yame/tenpai-yame, the west round, the last hand) with
// majiang-core's Game.last over random hand results under every preset,
// hanchan and east-only.
func TestMajiangEndOfGame(t *testing.T) {
	mj := startMajiang(t)
	for _, name := range PresetNames() {
		s, _ := Preset(name)
		for _, hanchan := range []bool{true, false} {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			var reqs []map[string]any
			type state struct {
				round int
				res   game.Result
			}
			var states []state
			rule := majiangRule(s, hanchan)
			last := 7
			if !hanchan {
				last = 3
			}
			for range 2000 {
				round := last - 1 + rng.IntN(6) // up to the last hand of the extension
				if !s.West && round > last {
					round = last
				}
				var res game.Result
				switch rng.IntN(3) {
				case 0:
					res.End, res.Renchan = game.EndAgari, rng.IntN(2) == 0
				case 1:
					res.End, res.Renchan = game.EndExhaustive, rng.IntN(2) == 0
				default:
					res.End, res.Renchan = game.EndAbortive, true
				}
				// Scores in hundreds around the target, summing to 100000.
				sc := [4]int{}
				sum := 0
				for i := range 3 {
					sc[i] = 100 * (rng.IntN(400) - 50)
					sum += sc[i]
				}
				sc[3] = 100000 - sum
				res.Scores = sc
				states = append(states, state{round, res})
				oya := round % 4
				reqs = append(reqs, map[string]any{"kind": "last", "rule": rule, "zhuangfeng": round / 4, "jushu": round % 4,
					"lianzhuang": res.Renchan, "no_game": res.End == game.EndAbortive, "defen": sc[:],
					"player_id": []int{oya, (oya + 1) % 4, (oya + 2) % 4, (oya + 3) % 4}})
			}
			var ans []struct {
				Jieju             bool
				Zhuangfeng, Jushu int
			}
			mj.ask(t, reqs, &ans)
			bad := 0
			for i, st := range states {
				m := game.NewMatch(s.Game(4, hanchan))
				oya := game.Seat(st.round % 4)
				m.Resync(game.Deal{Round: st.round, Oya: oya, Scores: [4]int{25000, 25000, 25000, 25000}})
				res := st.res
				if err := m.End(&res); err != nil {
					t.Fatal(err)
				}
				next, _ := m.Next()
				a := ans[i]
				if m.Over() != a.Jieju || (!a.Jieju && next.Round != 4*a.Zhuangfeng+a.Jushu) {
					bad++
					if bad <= 10 {
						t.Errorf("%s hanchan %v: %s renchan %v end %d scores %v: over %v next %s; majiang over %v next %d",
							name, hanchan, game.RoundName(st.round), res.Renchan, res.End, res.Scores, m.Over(), game.RoundName(next.Round), a.Jieju, 4*a.Zhuangfeng+a.Jushu)
					}
				}
			}
			if bad > 10 {
				t.Errorf("%s hanchan %v: %d of %d differ", name, hanchan, bad, len(states))
			}
		}
	}
}
