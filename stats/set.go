package stats

import (
	"cmp"
	"slices"
)

// Player is one player name's totals over the games of one kind (three-
// or four-player) in a Set.
type Player struct {
	Name string
	// Games counts the games with a final result; Placements[i] those
	// finished in place i+1; Busts those ended below 0.
	Games      int
	Placements [4]int
	Busts      int
	// Tally adds up the player's seats over every game read, also those
	// without a final result.
	Tally
}

// Table is the players of one kind of game (three- or four-player).
type Table struct {
	// Players is the number of players of its games, 3 or 4.
	Players int
	// Games counts the games read; Unfinished those without a final
	// result (they count only for the kyoku figures).
	Games, Unfinished int
	// Kyoku counts the hands dealt in those games.
	Kyoku  int
	byName map[string]*Player
}

// Set adds up games per player name, four- and three-player games apart.
type Set struct {
	// Four and Three are the tables of four- and three-player games.
	Four, Three Table
	// Duplicates counts the records left out as another copy (or another
	// player's view) of a game already added.
	Duplicates int
	seen       map[uint64]bool
}

// NewSet returns an empty Set.
func NewSet() *Set {
	return &Set{
		Four:  Table{Players: 4, byName: map[string]*Player{}},
		Three: Table{Players: 3, byName: map[string]*Player{}},
		seen:  map[uint64]bool{},
	}
}

// Add adds game g to its table (by g.Players). A game whose Key was added
// before is left out and counted in Duplicates; Add then returns false.
func (s *Set) Add(g *Game) bool {
	if s.seen[g.Key] {
		s.Duplicates++
		return false
	}
	s.seen[g.Key] = true
	t := &s.Four
	if g.Players == 3 {
		t = &s.Three
	}
	t.Games++
	if g.Final == nil {
		t.Unfinished++
	}
	if g.Players > 0 {
		t.Kyoku += g.Seats[0].Kyoku
	}
	place := g.Placements()
	for seat := range g.Players {
		p := t.byName[g.Names[seat]]
		if p == nil {
			p = &Player{Name: g.Names[seat]}
			t.byName[g.Names[seat]] = p
		}
		p.Tally.add(g.Seats[seat])
		if place != nil {
			p.Games++
			p.Placements[place[seat]-1]++
			if g.Final[seat] < 0 {
				p.Busts++
			}
		}
	}
	return true
}

// PlayerList returns the table's players, most games first, then most
// kyoku, then by name.
func (t *Table) PlayerList() []*Player {
	out := make([]*Player, 0, len(t.byName))
	for _, p := range t.byName {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *Player) int {
		if c := cmp.Compare(b.Games, a.Games); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Kyoku, a.Kyoku); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// Player returns the totals of the player named name, or nil.
func (t *Table) Player(name string) *Player { return t.byName[name] }

// All returns the whole table added up as one player named name: its
// Figures are the set's averages (placements over every seat of every
// finished game, rates over every seat's kyoku).
func (t *Table) All(name string) *Player {
	all := &Player{Name: name}
	for _, p := range t.byName {
		all.Games += p.Games
		all.Busts += p.Busts
		for i := range all.Placements {
			all.Placements[i] += p.Placements[i]
		}
		all.Tally.add(p.Tally)
	}
	return all
}

// Figures are one player's statistics as the --json output writes them
// (exactly these keys). A rate or average whose denominator is 0 is nil
// (JSON null). Rates are fractions 0..1; points are real points.
type Figures struct {
	// Name is the player name.
	Name string `json:"name"`
	// Games are the games with a final result; Kyoku the hands dealt.
	Games int `json:"games"`
	Kyoku int `json:"kyoku"`
	// Placements are the counts of 1st, 2nd, 3rd and 4th places (the
	// fourth always 0 in three-player games).
	Placements [4]int `json:"placements"`
	// AvgPlacement is the mean place over Games.
	AvgPlacement *float64 `json:"avg_placement"`
	// BustRate is the share of Games ended below 0 points.
	BustRate *float64 `json:"bust_rate"`
	// WinRate is the share of kyoku won (each winner of a double ron).
	WinRate *float64 `json:"win_rate"`
	// TsumoShare is the share of wins that were tsumo.
	TsumoShare *float64 `json:"tsumo_share"`
	// DealInRate is the share of kyoku in which the player paid a ron.
	DealInRate *float64 `json:"deal_in_rate"`
	// RiichiRate is the share of kyoku with a riichi declaration.
	RiichiRate *float64 `json:"riichi_rate"`
	// CallRate is the share of kyoku with a chi, pon, daiminkan or kakan.
	CallRate *float64 `json:"call_rate"`
	// AvgWinPoints is the mean hand value of a win (AGARI ten=, 2nd number).
	AvgWinPoints *float64 `json:"avg_win_points"`
	// AvgDealInPoints is the mean hand value over every ron paid.
	AvgDealInPoints *float64 `json:"avg_deal_in_points"`
	// DrawTenpaiRate is the share of exhaustive draws the player was tenpai at.
	DrawTenpaiRate *float64 `json:"draw_tenpai_rate"`
}

// ratio returns num/den, or nil when den is 0.
func ratio(num, den int) *float64 {
	if den == 0 {
		return nil
	}
	r := float64(num) / float64(den)
	return &r
}

// Figures returns p's statistics.
func (p *Player) Figures() Figures {
	sum := 0
	for i, n := range p.Placements {
		sum += (i + 1) * n
	}
	return Figures{
		Name:            p.Name,
		Games:           p.Games,
		Kyoku:           p.Kyoku,
		Placements:      p.Placements,
		AvgPlacement:    ratio(sum, p.Games),
		BustRate:        ratio(p.Busts, p.Games),
		WinRate:         ratio(p.Wins, p.Kyoku),
		TsumoShare:      ratio(p.TsumoWins, p.Wins),
		DealInRate:      ratio(p.DealInKyoku, p.Kyoku),
		RiichiRate:      ratio(p.RiichiKyoku, p.Kyoku),
		CallRate:        ratio(p.CallKyoku, p.Kyoku),
		AvgWinPoints:    ratio(p.WinPoints, p.Wins),
		AvgDealInPoints: ratio(p.DealInPoints, p.DealIns),
		DrawTenpaiRate:  ratio(p.DrawTenpai, p.DrawKyoku),
	}
}
