package handcalc

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// ErrMalformed is wrapped by Score when the request does not describe a
// possible win: bad tile notation, a tile count that is not 13 or 14 minus
// 3 per meld, an impossible meld, five copies of a kind, an unknown wind
// or rules preset, or a situation that cannot happen (riichi on an open
// hand, ippatsu without riichi, …).
var ErrMalformed = errors.New("malformed request")

// ErrNoWin is wrapped by Score when the request is a possible hand that
// does not win: the tiles are not complete, or no reading has a yaku.
var ErrNoWin = errors.New("the hand does not win")

// Request is one win to score, as the calculator's flags and JSON lines
// give it. The zero values are the common case: a tsumo by a non-dealer
// (seat South) in the East round, no honba, Tenhou's four-player rules.
type Request struct {
	// Hand is the concealed tiles in the usual notation ("123m456p789s2344s",
	// "0m" a red five): 13 - 3·len(Melds) tiles without the winning tile,
	// or 14 - 3·len(Melds) with it (kita do not count as melds).
	Hand string `json:"hand"`
	// Win is the winning tile, e.g. "4s" or "0p".
	Win string `json:"win"`
	// Melds are the declared melds in call order, "TYPE:TILES" with TYPE
	// chi, pon, daiminkan (minkan), kakan (shouminkan), ankan, or "kita"
	// (three-player nukidora, also "kita:4z").
	Melds []string `json:"melds"`
	// Ron is a win on another player's discard; false is a tsumo.
	Ron bool `json:"ron"`
	// The situational yaku (riichi.WinContext documents each).
	Riichi       bool `json:"riichi"`
	DoubleRiichi bool `json:"double_riichi"`
	Ippatsu      bool `json:"ippatsu"`
	Haitei       bool `json:"haitei"`
	Houtei       bool `json:"houtei"`
	Rinshan      bool `json:"rinshan"`
	Chankan      bool `json:"chankan"`
	Tenhou       bool `json:"tenhou"`
	Chiihou      bool `json:"chiihou"`
	// Dora and Ura are the dora and ura dora indicators (not the dora
	// themselves), each element one or more tiles ("1m" or "1m2p"); Ura
	// needs riichi or double riichi and at most as many as Dora.
	Dora []string `json:"dora"`
	Ura  []string `json:"ura"`
	// SeatWind and RoundWind are "E", "S", "W" or "N" (also "east" …,
	// "1z".."4z"); SeatWind defaults to E when Dealer is true and S
	// otherwise, RoundWind to E.
	SeatWind  string `json:"seat_wind"`
	RoundWind string `json:"round_wind"`
	// Honba is the number of honba sticks (0 or more); they change the
	// payments, not Result.Points.
	Honba int `json:"honba"`
	// Dealer says whether the winner is the dealer (oya); nil leaves it to
	// SeatWind. A Dealer that contradicts SeatWind is malformed.
	Dealer *bool `json:"dealer"`
	// Rules is the rules preset (see RulesNames); "" is "tenhou".
	Rules string `json:"rules"`
	// Switches are house-rule switches "NAME=VALUE" applied on top of
	// Rules (the --rule flag; rules.Set.Apply), e.g. "aka=0". They have no
	// JSON key: a JSON request names a preset only.
	Switches []string `json:"-"`
	// Players is 4 (also when 0) or 3 (sanma).
	Players int `json:"players"`
}

// win is a parsed request: the context riichi.Score takes.
type win struct {
	ctx     riichi.WinContext
	players int
}

// malformed returns an error wrapping ErrMalformed.
func malformed(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, a...))
}

// parse checks req and builds the WinContext, resolving the rules through
// memo (nil: always). Errors wrap ErrMalformed and name the field at
// fault.
func parse(req *Request, memo *rulesMemo) (win, error) {
	var w win
	players := req.Players
	switch players {
	case 0:
		players = 4
	case 3, 4:
	default:
		return w, malformed("players %d: want 4 or 3", req.Players)
	}
	w.players = players
	rules, err := memo.get(req.Rules, req.Switches, players)
	if err != nil {
		return w, err
	}
	w.ctx.Rules = rules
	p := pool{rules: rules}
	if err := p.tiles(req, &w.ctx, players); err != nil {
		return w, err
	}
	return w, situation(req, &w.ctx, players)
}

// tiles reads the hand, winning tile, melds and indicators of req, checks
// that they fit in one set and fills in ctx's tiles with concrete ids.
func (p *pool) tiles(req *Request, ctx *riichi.WinContext, players int) error {
	switch {
	case req.Hand == "":
		return malformed("hand: missing (the concealed tiles, e.g. 123m456p789s2344s)")
	case req.Win == "":
		return malformed("win: missing (the winning tile, e.g. 4s)")
	}
	hand, err := p.parseTiles("hand", req.Hand)
	if err != nil {
		return err
	}
	wins, err := p.parseTiles("win", req.Win)
	if err != nil {
		return err
	}
	if len(wins) != 1 {
		return malformed("win %q: want exactly one tile", req.Win)
	}
	win := wins[0]
	for _, s := range req.Melds {
		m, kita, err := p.parseMeld(s, players)
		if err != nil {
			return err
		}
		if kita {
			ctx.Nukidora++
			continue
		}
		ctx.Melds = append(ctx.Melds, m)
	}
	if len(ctx.Melds) > 4 {
		return malformed("%d melds: at most 4", len(ctx.Melds))
	}
	// The hand without the winning tile, or with it (it must hold it).
	without := 13 - 3*len(ctx.Melds)
	winAt := slices.Index(hand, win)
	switch {
	case len(hand) == without:
		winAt = len(hand)
		hand = append(hand, win)
	case len(hand) == without+1 && winAt >= 0:
		p.unuse(win) // counted twice
	case len(hand) == without+1:
		return malformed("hand %q has %d tiles, so it must include the winning tile, but it holds no %s", req.Hand, len(hand), req.Win)
	default:
		melds := "melds"
		if len(ctx.Melds) == 1 {
			melds = "meld"
		}
		return malformed("hand %q has %d tiles with %d %s: want %d without the winning tile (or %d with it)", req.Hand, len(hand), len(ctx.Melds), melds, without, without+1)
	}
	dora, err := p.parseIndicators("dora", req.Dora)
	if err != nil {
		return err
	}
	ura, err := p.parseIndicators("ura", req.Ura)
	if err != nil {
		return err
	}
	switch {
	case len(dora) > 5:
		return malformed("dora: %d indicators, at most 5 (one and four kan dora)", len(dora))
	case len(ura) > 0 && !req.Riichi && !req.DoubleRiichi:
		return malformed("ura: ura dora indicators count only with riichi or double riichi")
	case len(ura) > len(dora):
		return malformed("ura: %d ura dora indicators but %d dora indicators", len(ura), len(dora))
	}
	if err := p.check(); err != nil {
		return err
	}
	if k := win.kind; req.Chankan && p.count[k] > 1 {
		return malformed("chankan on %v: the kakan robbed holds the other three %v, but the request holds %d more", k, k, p.count[k]-1)
	}
	// Concrete tile ids, given across every tile of the request.
	total := len(hand) + len(dora) + len(ura)
	for _, m := range p.meldTiles {
		total += len(m)
	}
	p.idBuf = make([]wall.Tile, 0, total)
	ctx.Hand = p.ids(hand)
	ctx.WinTile = ctx.Hand[winAt]
	for i := range ctx.Melds {
		ctx.Melds[i].Tiles = p.ids(p.meldTiles[i])
		ctx.Melds[i].Called = calledTile(ctx.Melds[i])
	}
	ctx.DoraIndicators = p.ids(dora)
	ctx.UraIndicators = p.ids(ura)
	return nil
}

// situation reads the winds, honba and situational flags of req into ctx.
// riichi.Score refuses the combinations that cannot happen; the ones it
// cannot see (riichi with double riichi, rinshan without a kan) are
// refused here.
func situation(req *Request, ctx *riichi.WinContext, players int) error {
	var err error
	if ctx.SeatWind, err = parseWind("seat_wind", req.SeatWind, players); err != nil {
		return err
	}
	if req.SeatWind == "" {
		ctx.SeatWind = 28 // South: a non-dealer
		if req.Dealer != nil && *req.Dealer {
			ctx.SeatWind = 27
		}
	}
	if req.Dealer != nil && *req.Dealer != (ctx.SeatWind == 27) {
		return malformed("dealer %v contradicts seat_wind %s (the dealer's seat wind is E)", *req.Dealer, req.SeatWind)
	}
	if ctx.RoundWind, err = parseWind("round_wind", req.RoundWind, players); err != nil {
		return err
	}
	if req.RoundWind == "" {
		ctx.RoundWind = 27
	}
	switch {
	case req.Honba < 0:
		return malformed("honba %d: want 0 or more", req.Honba)
	case req.Riichi && req.DoubleRiichi:
		return malformed("riichi and double_riichi: give one (a double riichi is a riichi)")
	case req.Rinshan && !hasKan(ctx.Melds) && ctx.Nukidora == 0:
		return malformed("rinshan without a kan (or kita) among the melds")
	}
	ctx.Honba = req.Honba
	ctx.Tsumo = !req.Ron
	ctx.Riichi, ctx.DoubleRiichi = req.Riichi, req.DoubleRiichi
	ctx.Ippatsu, ctx.Haitei, ctx.Houtei = req.Ippatsu, req.Haitei, req.Houtei
	ctx.Rinshan, ctx.Chankan = req.Rinshan, req.Chankan
	ctx.Tenhou, ctx.Chiihou = req.Tenhou, req.Chiihou
	return nil
}

// hasKan reports whether any meld is a kan.
func hasKan(ms []riichi.Meld) bool {
	for _, m := range ms {
		if m.IsKan() {
			return true
		}
	}
	return false
}

// calledTile returns the tile a meld is taken to have called: the first
// one (the choice changes no score), -1 for an ankan.
func calledTile(m riichi.Meld) wall.Tile {
	if m.Type == riichi.Ankan {
		return -1
	}
	return m.Tiles[0]
}

// parseWind reads a wind field: "" gives 0 (the caller's default).
func parseWind(field, s string, players int) (wall.Kind, error) {
	var k wall.Kind
	switch strings.ToLower(s) {
	case "":
		return 0, nil
	case "e", "east", "1z":
		k = 27
	case "s", "south", "2z":
		k = 28
	case "w", "west", "3z":
		k = 29
	case "n", "north", "4z":
		k = 30
	default:
		return 0, malformed("%s %q: want E, S, W or N", field, s)
	}
	if players == 3 && k == 30 && field == "seat_wind" {
		return 0, malformed("%s N: three-player mahjong has seats E, S and W only", field)
	}
	return k, nil
}
