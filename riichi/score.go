package riichi

import (
	"errors"
	"fmt"

	"github.com/mentalmj/mentalmj/wall"
)

// ErrNotComplete is wrapped by Score when the tiles do not form a complete
// hand.
var ErrNotComplete = errors.New("riichi: hand is not complete")

// ErrNoYaku is wrapped by Score when the complete hand has no yaku (dora
// alone do not count).
var ErrNoYaku = errors.New("riichi: hand has no yaku")

// ErrInvalidHand is wrapped by Score when the WinContext is malformed or
// impossible: wrong tile count, invalid or repeated tile ids, a malformed
// meld, a winning tile not in the hand, winds outside 27..30, or a
// situation that cannot happen (see WinContext: riichi on an open hand,
// ippatsu without riichi, chankan or houtei on a tsumo, rinshan or haitei
// on a ron, tenhou other than the dealer's closed first tsumo, chiihou
// other than a non-dealer's).
var ErrInvalidHand = errors.New("riichi: invalid win context")

// Rules selects rule options. Tenhou ari-ari is TenhouRules; the zero
// value of every field below Sanma is Tenhou's rule, so literals that set
// only Aka, Kuitan and Sanma keep Tenhou's rules (package riichi/rules builds the
// house-rule values).
type Rules struct {
	// Aka counts red fives as aka dora (yaku 54): the ids Red says.
	Aka bool
	// Kuitan allows tanyao in open hands.
	Kuitan bool
	// Sanma selects Tenhou's three-player rules: no 2m-8m (a 1m indicator
	// makes 9m dora, 9m makes 1m), nukidora counted as dora, a tsumo paid
	// by the two others only (tsumo loss: the absent player's share is not
	// paid) and 100 points per honba from each payer (200 for a ron), as
	// the AGARI sc= values of Tenhou's three-player logs show.
	Sanma bool
	// Red is the number of red fives when Aka, 1..4 (0 means Tenhou's
	// three): 1 the 5p id 52; 2 ids 52 and 88 (5p, 5s); 3 ids 16, 52, 88
	// (one per suit); 4 those and a second red 5p, id 53 (as the rules
	// with four red fives have it). The red ids follow the wall package's
	// Tenhou tile ids (the first id of each five is red).
	Red int
	// Kiriage rounds 4 han 30 fu and 3 han 60 fu (1920 basic points) up to
	// mangan (kiriage mangan).
	Kiriage bool
	// KazoeSanbaiman caps 13 han and more at sanbaiman (no kazoe yakuman).
	KazoeSanbaiman bool
	// DoubleYakuman counts suuankou tanki, junsei chuuren poutou, kokushi
	// musou 13-sided and daisuushii as two yakuman each.
	DoubleYakuman bool
	// SingleYakuman pays one yakuman at most: several yakuman, or a
	// double yakuman, in one hand do not add up.
	SingleYakuman bool
	// Honba is the value of one honba stick on a four-player ron in
	// points (0 means 300): each tsumo payer pays a third, and a
	// three-player ron two thirds (Tenhou: 300, 100, 200).
	Honba int
	// NoUra counts no ura dora; NoKanDora counts only the first dora
	// indicator; NoKanUra counts only the first ura indicator.
	NoUra, NoKanDora, NoKanUra bool
}

// IsRed reports whether t is a red five under r: false for every tile
// without Aka, else the ids Red lists.
func (r Rules) IsRed(t wall.Tile) bool {
	if !r.Aka {
		return false
	}
	switch r.Red {
	case 1:
		return t == wall.RedPin
	case 2:
		return t == wall.RedPin || t == wall.RedSou
	case 4:
		return t.IsRed() || t == wall.RedPin+1
	}
	return t.IsRed()
}

// Reds returns the red fives under r as a set of tile ids, the ids IsRed
// reports (wall.TenhouReds for Tenhou's rules, none without Aka), for
// naming tiles as the table plays them (wall.Reds.Name).
func (r Rules) Reds() wall.Reds {
	var out wall.Reds
	for _, base := range []wall.Tile{wall.RedMan, wall.RedPin, wall.RedSou} {
		for t := base; t < base+4; t++ {
			if r.IsRed(t) {
				out |= wall.RedsOf(t)
			}
		}
	}
	return out
}

// HonbaValue returns the value of one honba stick on a four-player ron in
// points: r.Honba, or 300 (Tenhou) when 0.
func (r Rules) HonbaValue() int {
	if r.Honba == 0 {
		return 300
	}
	return r.Honba
}

// TenhouRules is Tenhou's four-player ari-ari ruleset: open tanyao and red
// fives.
var TenhouRules = Rules{Aka: true, Kuitan: true}

// WinContext is everything Score needs about one agari.
type WinContext struct {
	// Hand is the concealed part INCLUDING the winning tile: 14 - 3*len(Melds)
	// tiles (Tenhou ids).
	Hand []wall.Tile
	// Melds are the declared melds (at most 4) in call order; a kakan keeps
	// the position of the pon it extends. The order only affects the order
	// of yakuhai in WinResult.Yaku (Tenhou lists concealed triplets first,
	// then melds in call order; an mjlog <AGARI m=...> lists them newest
	// first).
	Melds []Meld
	// WinTile is the winning tile; it must be one of Hand.
	WinTile wall.Tile
	// Tsumo is true for a self-drawn win, false for ron.
	Tsumo bool
	// SeatWind and RoundWind are wind kinds, 27 East .. 30 North. The winner
	// is the dealer (oya) when SeatWind == 27.
	SeatWind, RoundWind wall.Kind
	// Riichi: the winner's riichi was accepted. DoubleRiichi: it was
	// declared on the first uninterrupted discard (yaku 21 replaces 1).
	// Ippatsu: no call and no own discard since the riichi. Haitei: tsumo on
	// the last live tile; Houtei: ron on the last discard. Rinshan: tsumo on
	// a rinshan tile. Chankan: ron on a kakan tile. Tenhou / Chiihou: the
	// dealer's / a non-dealer's tsumo on the first, uninterrupted draw.
	// Score refuses (ErrInvalidHand) combinations that cannot happen.
	Riichi, DoubleRiichi, Ippatsu, Haitei, Houtei, Rinshan, Chankan, Tenhou, Chiihou bool
	// DoraIndicators are the revealed dora indicators (kan dora included);
	// UraIndicators are counted only with riichi or double riichi.
	DoraIndicators, UraIndicators []wall.Tile
	// Nukidora is the number of north tiles the winner set aside (kita,
	// three-player only); each is one dora (counted in yaku 52, as Tenhou
	// does). Score refuses nukidora without Rules.Sanma.
	Nukidora int
	// Honba is the number of honba sticks (300 per honba, in Pay);
	// RiichiSticks the riichi deposits on the table (not used by Score:
	// the winner collects 1000 each on top of Pay).
	Honba, RiichiSticks int
	// Rules are the rule options (TenhouRules for Tenhou).
	Rules Rules
}

// WinResult is the value of one agari, as Tenhou records it in <AGARI>.
type WinResult struct {
	// Yaku are the non-yakuman yaku in Tenhou's yaku= order, followed by dora
	// 52 (if any), aka dora 54 (if any) and ura dora 53 (always with riichi,
	// even at 0 han). Empty for yakuman.
	Yaku []Yaku
	// Yakuman are Tenhou yakuman ids (yakuman= attribute) in id order, each
	// worth one yakuman; empty if none.
	Yakuman []int
	// Han is the total han (13 per yakuman for yakuman hands); Fu the fu of
	// the chosen reading (computed for yakuman hands too, as Tenhou does).
	Han, Fu int
	// Limit is Tenhou's ten= third field: 0 none, 1 mangan, 2 haneman,
	// 3 baiman, 4 sanbaiman, 5 yakuman (also kazoe yakuman).
	Limit int
	// Points is Tenhou's ten= second field: the hand's total value without
	// honba and riichi sticks.
	Points int
	// Pay is who pays what, honba included (see Payment).
	Pay Payment
}

// Score evaluates a win under ctx.Rules. It reads the concealed part in
// every way (Decompositions), with every role the winning tile can play
// (tanki, shanpon, kanchan, penchan, ryanmen), and keeps the reading Tenhou
// keeps: the most yakuman, then the most points, then the most han, then
// the most fu. Errors wrap ErrInvalidHand (malformed context),
// ErrNotComplete (not a complete hand) or ErrNoYaku (no yaku in any
// reading).
func Score(ctx WinContext) (WinResult, error) {
	var facts handFacts // on the stack: Score allocates less
	f, err := newFacts(&ctx, &facts)
	if err != nil {
		return WinResult{}, err
	}
	decs := Decompositions(CountsOf(ctx.Hand), len(ctx.Melds))
	if len(decs) == 0 {
		return WinResult{}, fmt.Errorf("%w: %s", ErrNotComplete, FormatHandReds(ctx.Hand, ctx.Rules.Reds()))
	}
	dora, aka, ura := doraCounts(f)
	var best WinResult
	found := false
	better := func(a, b *WinResult) bool {
		if len(a.Yakuman) != len(b.Yakuman) {
			return len(a.Yakuman) > len(b.Yakuman)
		}
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		if a.Han != b.Han {
			return a.Han > b.Han
		}
		return a.Fu > b.Fu
	}
	var r reading
	for di := range decs {
		forEachReading(f, &decs[di], &r, func(r *reading) {
			res, ok := evaluate(f, r, dora, aka, ura)
			if ok && (!found || better(&res, &best)) {
				best, found = res, true
			}
		})
	}
	if !found {
		return WinResult{}, fmt.Errorf("%w: %s", ErrNoYaku, FormatHandReds(ctx.Hand, ctx.Rules.Reds()))
	}
	return best, nil
}

// newFacts validates ctx and collects the reading-independent facts into
// f, which it returns.
func newFacts(ctx *WinContext, f *handFacts) (*handFacts, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidHand, fmt.Sprintf(format, a...))
	}
	if len(ctx.Melds) > 4 {
		return nil, bad("%d melds", len(ctx.Melds))
	}
	if want := 14 - 3*len(ctx.Melds); len(ctx.Hand) != want {
		return nil, bad("hand has %d tiles, want %d with %d melds", len(ctx.Hand), want, len(ctx.Melds))
	}
	for _, w := range []wall.Kind{ctx.SeatWind, ctx.RoundWind} {
		if w < 27 || w > 30 {
			return nil, bad("wind kind %d outside 27..30", int(w))
		}
	}
	*f = handFacts{ctx: ctx, menzen: true, noMelds: len(ctx.Melds) == 0}
	var seen [wall.NumTiles]bool
	use := func(t wall.Tile) error {
		if !t.Valid() {
			return bad("invalid tile id %d", int(t))
		}
		if seen[t] {
			return bad("tile id %d (%v) used twice", int(t), t)
		}
		seen[t] = true
		f.all[t.Kind()]++
		return nil
	}
	for _, t := range ctx.Hand {
		if err := use(t); err != nil {
			return nil, err
		}
	}
	for _, m := range ctx.Melds {
		if err := m.Validate(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidHand, err)
		}
		if m.Open() {
			f.menzen = false
		}
		for _, t := range m.Tiles {
			if err := use(t); err != nil {
				return nil, err
			}
		}
	}
	if err := situationError(ctx, f.menzen); err != nil {
		return nil, err
	}
	for _, t := range append(ctx.DoraIndicators, ctx.UraIndicators...) {
		if !t.Valid() {
			return nil, bad("invalid dora indicator id %d", int(t))
		}
	}
	inHand := false
	for _, t := range ctx.Hand {
		if t == ctx.WinTile {
			inHand = true
		}
	}
	if !inHand {
		return nil, bad("winning tile %v not in the hand", ctx.WinTile)
	}
	f.winKind = ctx.WinTile.Kind()
	f.concealed13 = CountsOf(ctx.Hand)
	f.concealed13[f.winKind]--
	return f, nil
}

// doraCounts returns the dora, aka dora and ura dora counts of the hand
// (melds included; ura only with riichi).
func doraCounts(f *handFacts) (dora, aka, ura int) {
	ctx := f.ctx
	indicators, uraIndicators := ctx.DoraIndicators, ctx.UraIndicators
	if ctx.Rules.NoKanDora && len(indicators) > 1 {
		indicators = indicators[:1]
	}
	if ctx.Rules.NoKanUra && len(uraIndicators) > 1 {
		uraIndicators = uraIndicators[:1]
	}
	for _, t := range indicators {
		dora += f.all[DoraOfRules(t, ctx.Rules)]
	}
	// A nukidora is a north tile: one dora for being set aside, and one
	// more for each indicator pointing at north.
	const north = 30
	dora += ctx.Nukidora
	for _, t := range indicators {
		if DoraOfRules(t, ctx.Rules) == north {
			dora += ctx.Nukidora
		}
	}
	if (ctx.Riichi || ctx.DoubleRiichi) && !ctx.Rules.NoUra {
		for _, t := range uraIndicators {
			ura += f.all[DoraOfRules(t, ctx.Rules)]
			if DoraOfRules(t, ctx.Rules) == north {
				ura += ctx.Nukidora
			}
		}
	}
	if ctx.Rules.Aka {
		count := func(t wall.Tile) {
			if ctx.Rules.IsRed(t) {
				aka++
			}
		}
		for _, t := range ctx.Hand {
			count(t)
		}
		for _, m := range ctx.Melds {
			for _, t := range m.Tiles {
				count(t)
			}
		}
	}
	return dora, aka, ura
}

// forEachReading calls fn with every reading of decomposition d: for the
// standard form one per role of the winning tile (pair, or each distinct
// concealed set holding it). r is reused between calls.
func forEachReading(f *handFacts, d *Decomposition, r *reading, fn func(*reading)) {
	r.form, r.pair, r.pairs = d.Form, d.Pair, d.Pairs
	r.sets = r.sets[:0]
	if d.Form != Standard {
		r.wait = waitNone
		fn(r)
		return
	}
	w := f.winKind
	build := func(role int, wait waitKind) {
		r.wait = wait
		r.sets = r.sets[:0]
		for i, s := range d.Sets {
			hs := handSet{kind: s.First, seq: s.Type == Shuntsu}
			if !hs.seq {
				hs.ankou = f.ctx.Tsumo || i != role
			}
			r.sets = append(r.sets, hs)
		}
		for _, m := range f.ctx.Melds {
			hs := handSet{kind: m.Kind(), seq: m.Type == Chi, kan: m.IsKan(), open: m.Open()}
			hs.ankou = m.Type == Ankan
			r.sets = append(r.sets, hs)
		}
		fn(r)
	}
	if d.Pair == w {
		build(-1, waitTanki)
	}
	for i, s := range d.Sets {
		if !s.Has(w) || (i > 0 && d.Sets[i-1] == s) {
			continue
		}
		if s.Type == Koutsu {
			build(i, waitShanpon)
			continue
		}
		pos := w - s.First
		switch {
		case pos == 1:
			build(i, waitKanchan)
		case pos == 0 && s.First.Number() == 7, pos == 2 && s.First.Number() == 1:
			build(i, waitPenchan)
		default:
			build(i, waitRyanmen)
		}
	}
}

// evaluate scores one reading; ok is false when it has no yaku.
func evaluate(f *handFacts, r *reading, dora, aka, ura int) (res WinResult, ok bool) {
	ctx := f.ctx
	dealer := ctx.SeatWind == 27
	yaku, pinfu := yakuOf(f, r)
	res.Fu = fuOf(f, r, pinfu)
	if ym := yakumanOf(f, r); len(ym) > 0 {
		n := ctx.Rules.YakumanCount(ym)
		res.Yakuman = ym
		res.Han = 13 * n
		res.Limit = 5
		res.Points, res.Pay = PointsRules(0, 0, n, dealer, ctx.Tsumo, ctx.Honba, ctx.Rules)
		return res, true
	}
	if len(yaku) == 0 {
		return res, false
	}
	if dora > 0 {
		yaku = append(yaku, Yaku{YakuDora, dora})
	}
	if aka > 0 {
		yaku = append(yaku, Yaku{YakuAkaDora, aka})
	}
	if (ctx.Riichi || ctx.DoubleRiichi) && !ctx.Rules.NoUra {
		yaku = append(yaku, Yaku{YakuUraDora, ura})
	}
	for _, y := range yaku {
		res.Han += y.Han
	}
	res.Yaku = yaku
	_, res.Limit = ctx.Rules.BasePoints(res.Han, res.Fu)
	res.Points, res.Pay = PointsRules(res.Han, res.Fu, 0, dealer, ctx.Tsumo, ctx.Honba, ctx.Rules)
	return res, true
}

// situationError returns why the situational flags of ctx cannot occur
// together (ErrInvalidHand), or nil. menzen tells whether the hand has no
// open meld; an ankan keeps it closed.
func situationError(ctx *WinContext, menzen bool) error {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrInvalidHand, why) }
	dealer := ctx.SeatWind == 27
	switch {
	case (ctx.Riichi || ctx.DoubleRiichi) && !menzen:
		return bad("riichi on an open hand")
	case ctx.Ippatsu && !ctx.Riichi && !ctx.DoubleRiichi:
		return bad("ippatsu without riichi")
	case ctx.Tsumo && ctx.Chankan:
		return bad("chankan on a tsumo")
	case ctx.Tsumo && ctx.Houtei:
		return bad("houtei on a tsumo")
	case !ctx.Tsumo && ctx.Rinshan:
		return bad("rinshan on a ron")
	case !ctx.Tsumo && ctx.Haitei:
		return bad("haitei on a ron")
	case ctx.Haitei && ctx.Rinshan:
		return bad("haitei on a rinshan draw")
	case ctx.Tenhou && !dealer:
		return bad("tenhou for a non-dealer")
	case ctx.Tenhou && !ctx.Tsumo:
		return bad("tenhou on a ron")
	case ctx.Chiihou && dealer:
		return bad("chiihou for the dealer")
	case ctx.Chiihou && !ctx.Tsumo:
		return bad("chiihou on a ron")
	case (ctx.Tenhou || ctx.Chiihou) && len(ctx.Melds) > 0:
		return bad("tenhou or chiihou with a meld")
	case (ctx.Tenhou || ctx.Chiihou) && (ctx.Riichi || ctx.DoubleRiichi):
		return bad("tenhou or chiihou after riichi")
	case ctx.Nukidora < 0 || ctx.Nukidora > 4:
		return bad(fmt.Sprintf("%d nukidora", ctx.Nukidora))
	case ctx.Nukidora > 0 && !ctx.Rules.Sanma:
		return bad("nukidora in a four-player game")
	}
	return nil
}
