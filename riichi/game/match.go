package game

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/wall"
)

// Match is the flow of a whole game (東風戦 or 半荘戦) under Tenhou's rules:
// rounds, dealer rotation, honba, riichi sticks carried over, the end of
// the match and the final standings. Seat 0 is the first dealer.
type Match struct {
	rules                 Rules
	round, honba, kyotaku int
	oya                   Seat
	scores                [4]int
	over                  bool
	kyoku                 *Kyoku
}

// NewMatch starts a match: East 1, seat 0 deals, every score rules.Start.
func NewMatch(rules Rules) *Match {
	m := &Match{rules: rules}
	for i := range rules.players() {
		m.scores[i] = rules.Start
	}
	return m
}

// Rules returns the match rules.
func (m *Match) Rules() Rules { return m.rules }

// Over reports whether the match has ended.
func (m *Match) Over() bool { return m.over }

// Next returns the state the next kyoku starts from (Haipai and
// DoraIndicator left empty); ok is false once the match is over.
func (m *Match) Next() (d Deal, ok bool) {
	return Deal{Round: m.round, Honba: m.honba, Kyotaku: m.kyotaku, Oya: m.oya, Scores: m.scores}, !m.over
}

// Resync replaces the match state with d's round, honba, kyotaku, dealer
// and scores (a replay continuing after a reported mismatch).
func (m *Match) Resync(d Deal) {
	m.round, m.honba, m.kyotaku, m.oya, m.scores = d.Round, d.Honba, d.Kyotaku, d.Oya, d.Scores
	m.over = false
}

// Start deals the next kyoku with the given haipai (by seat, deal order)
// and first dora indicator. It returns an error if the match is over or
// the deal is malformed (see NewKyoku).
func (m *Match) Start(haipai [4][]wall.Tile, dora wall.Tile) (*Kyoku, error) {
	d, ok := m.Next()
	if !ok {
		return nil, fmt.Errorf("match is over")
	}
	d.Haipai, d.DoraIndicator = haipai, dora
	k, err := NewKyoku(m.rules, d)
	if err != nil {
		return nil, err
	}
	m.kyoku = k
	return k, nil
}

// End applies the result of the kyoku just played (started by Start, or
// any kyoku of this match's state after Resync) and moves to the next
// kyoku or ends the match, following Tenhou (tenhou.net/man):
//   - the dealer keeps the deal on a dealer win, dealer tenpai at an
//     exhaustive draw, or any abortive draw; the honba grows on a renchan
//     or any draw and returns to 0 on a non-dealer win;
//   - a score below 0 ends the match (tobi);
//   - from the regular last hand on (South 4, East 4 in an east-only
//     game), the match ends when the deal passes and someone has at least
//     Return, or when the dealer keeps the deal by a win or tenpai while
//     being first with at least Return (agari-yame / tenpai-yame are
//     automatic); if nobody has Return the match extends into the next
//     wind (West; South for east-only), ending at its 4th hand.
//
// It returns an error if the match is already over or r is nil.
func (m *Match) End(r *Result) error {
	if m.over {
		return fmt.Errorf("match is over")
	}
	if r == nil {
		return fmt.Errorf("no kyoku result")
	}
	played := m.round
	m.scores = r.Scores
	m.kyotaku = r.Kyotaku
	if r.Renchan || r.End != EndAgari {
		m.honba++
	} else {
		m.honba = 0
	}
	if !r.Renchan {
		m.round = m.rules.nextRound(m.round)
		m.oya = Seat((int(m.oya) + 1) % m.rules.players())
	}
	for _, s := range m.scores[:m.rules.players()] {
		if !m.rules.NoTobi && s < m.rules.TobiBelow {
			m.over = true
		}
	}
	if played >= m.rules.lastRound() {
		top := m.rank()[0]
		reached := m.scores[top] >= m.rules.target()
		switch {
		case r.Renchan:
			// Agari-yame / tenpai-yame: the dealer keeps the deal first
			// with the target score.
			yame := !m.rules.NoAgariYame
			if r.End == EndExhaustive {
				yame = !m.rules.NoTenpaiYame
			}
			if r.End != EndAbortive && top == m.oya && reached && yame {
				m.over = true
			}
		case reached || m.round > m.rules.maxRound() || m.rules.NoWest:
			m.over = true
		}
	}
	return nil
}

// rank returns the seats from first to last: higher score first, ties to
// the seat nearer the first dealer (seat 0), Tenhou's rule.
func (m *Match) rank() [4]Seat {
	order := [4]Seat{0, 1, 2, 3}
	n := m.rules.players()
	slices.SortStableFunc(order[:n], func(a, b Seat) int { return m.scores[b] - m.scores[a] })
	return order
}

// Standings are the final result of a match (mjlog owari=).
type Standings struct {
	// Scores are the final scores in points by seat, riichi sticks left
	// on the table given to the first place (Tenhou).
	Scores [4]int
	// Points are the game points by seat in tenths (618 = 61.8): ranks
	// 2-4 get (score - Return)/1000 + uma (rounded per Rules.Rounding), the
	// first gets minus their sum (oka included).
	Points [4]int
	// Order lists the seats from first to fourth place.
	Order [4]Seat
}

// Standings returns the final standings from the current scores and
// riichi sticks (meaningful once Over).
func (m *Match) Standings() Standings {
	var st Standings
	order := m.rank()
	st.Order = order
	st.Scores = m.scores
	st.Scores[order[0]] += 1000 * m.kyotaku
	sum := 0
	for i := 1; i < m.rules.players(); i++ {
		s := order[i]
		p := m.rules.points(st.Scores[s]) + 10*m.rules.Uma[i]
		st.Points[s] = p
		sum += p
	}
	st.Points[order[0]] = -sum
	return st
}

// points returns (score - Return)/1000 in tenths, rounded per r.Rounding.
func (r Rules) points(score int) int {
	if r.Rounding == PointsExact {
		return (score - r.Return) / 100
	}
	a := score
	if a < 0 {
		a = -a
	}
	q := (a + 500) / 1000
	if score < 0 {
		q = -q
	}
	return 10 * (q - r.Return/1000)
}
