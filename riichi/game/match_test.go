package game

import (
	"github.com/mentalmj/mentalmj/wall"
	"testing"
)

// at returns a hanchan match resynced to round, dealer and scores.
func at(round int, oya Seat, scores [4]int, hanchan bool) *Match {
	m := NewMatch(TenhouRules(hanchan, true, true))
	m.Resync(Deal{Round: round, Oya: oya, Scores: scores})
	return m
}

func win(renchan bool, scores [4]int) *Result {
	return &Result{End: EndAgari, Renchan: renchan, Scores: scores}
}

func TestMatchFlow(t *testing.T) {
	cases := []struct {
		name      string
		round     int
		oya       Seat
		hanchan   bool
		res       *Result
		over      bool
		nextRound int
		nextOya   Seat
		honba     int
	}{
		{"non-dealer win passes the deal", 0, 0, true, win(false, [4]int{20000, 30000, 25000, 25000}), false, 1, 1, 0},
		{"dealer win keeps the deal", 0, 0, true, win(true, [4]int{30000, 20000, 25000, 25000}), false, 0, 0, 1},
		{"bust ends the match", 2, 2, true, win(false, [4]int{-100, 40000, 35100, 25000}), true, 3, 3, 0},
		{"exactly 0 is not bust", 2, 2, true, win(false, [4]int{0, 40000, 35000, 25000}), false, 3, 3, 0},
		{"abortive draw: renchan and honba", 5, 1, true, &Result{End: EndAbortive, Renchan: true, Scores: [4]int{25000, 25000, 25000, 25000}}, false, 5, 1, 1},
		{"exhaustive draw, dealer noten: deal passes, honba grows", 5, 1, true, &Result{End: EndExhaustive, Scores: [4]int{26000, 24000, 25000, 25000}}, false, 6, 2, 1},
		{"all-last: dealer wins and is first with 30000: agari-yame", 7, 3, true, win(true, [4]int{20000, 20000, 20000, 40000}), true, 7, 3, 1},
		{"all-last: dealer wins but is not first: renchan", 7, 3, true, win(true, [4]int{15000, 35000, 20000, 30000}), false, 7, 3, 1},
		{"all-last: dealer tenpai and first: tenpai-yame", 7, 3, true, &Result{End: EndExhaustive, Renchan: true, Scores: [4]int{20000, 20000, 20000, 40000}}, true, 7, 3, 1},
		{"all-last: abortive draw with the dealer first: play on", 7, 3, true, &Result{End: EndAbortive, Renchan: true, Scores: [4]int{20000, 20000, 20000, 40000}}, false, 7, 3, 1},
		{"all-last: someone has 30000: match over", 7, 3, true, win(false, [4]int{30000, 20000, 25000, 25000}), true, 8, 0, 0},
		{"all-last: nobody has 30000: west round", 7, 3, true, win(false, [4]int{29900, 20100, 25000, 25000}), false, 8, 0, 0},
		{"west: someone reaches 30000: match over", 8, 0, true, win(false, [4]int{20000, 30000, 25000, 25000}), true, 9, 1, 0},
		{"west 4 ends the match", 11, 3, true, win(false, [4]int{29900, 20100, 25000, 25000}), true, 12, 0, 0},
		{"east-only: east 4 with 30000 ends", 3, 3, false, win(false, [4]int{32000, 18000, 25000, 25000}), true, 4, 0, 0},
		{"east-only: nobody has 30000: south round", 3, 3, false, win(false, [4]int{29000, 21000, 25000, 25000}), false, 4, 0, 0},
		{"east-only: south 4 ends the match", 7, 3, false, win(false, [4]int{29000, 21000, 25000, 25000}), true, 8, 0, 0},
		{"hanchan: east 4 does not end", 3, 3, true, win(false, [4]int{32000, 18000, 25000, 25000}), false, 4, 0, 0},
	}
	for _, c := range cases {
		m := at(c.round, c.oya, [4]int{25000, 25000, 25000, 25000}, c.hanchan)
		if err := m.End(c.res); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d, _ := m.Next()
		if m.Over() != c.over || d.Round != c.nextRound || d.Oya != c.nextOya || d.Honba != c.honba {
			t.Errorf("%s: over %v next %s oya %d honba %d; want over %v next %s oya %d honba %d",
				c.name, m.Over(), RoundName(d.Round), d.Oya, d.Honba, c.over, RoundName(c.nextRound), c.nextOya, c.honba)
		}
	}
}

func TestMatchEndedRejectsResults(t *testing.T) {
	m := at(0, 0, [4]int{25000, 25000, 25000, 25000}, true)
	if err := m.End(win(false, [4]int{-1000, 51000, 25000, 25000})); err != nil || !m.Over() {
		t.Fatalf("bust: err %v over %v", err, m.Over())
	}
	if err := m.End(win(false, [4]int{0, 50000, 25000, 25000})); err == nil {
		t.Error("a result after the end was accepted")
	}
	if _, err := m.Start([4][]wall.Tile{}, 0); err == nil {
		t.Error("a kyoku was dealt after the end")
	}
}

// TestStandings checks final points against Tenhou owari values.
func TestStandings(t *testing.T) {
	cases := []struct {
		src      string
		rounding Rounding
		scores   [4]int
		kyotaku  int
		want     [4]int // tenths
	}{
		// 2022060100gm-00a9-0000-a11749d5: owari="98,-40.2,113,-28.7,518,61.8,271,7.1"
		{"a11749d5", PointsExact, [4]int{9800, 11300, 51800, 27100}, 0, [4]int{-402, -287, 618, 71}},
		// mjx kan4.xml: owari="270,7.0,349,45.0,178,-32.0,203,-20.0"
		{"kan4", PointsRounded, [4]int{27000, 34900, 17800, 20300}, 0, [4]int{70, 450, -320, -200}},
		// dnovikoff pao.xml: owari="-21,-52,236,-16,472,57,313,11"
		{"pao", PointsRounded, [4]int{-2100, 23600, 47200, 31300}, 0, [4]int{-520, -160, 570, 110}},
		// 2016090900gm-00a9-0000-a2a25bb6: owari="662,77.0,52,-35.0,331,13.0,-45,-55.0"
		{"a2a25bb6", PointsRounded, [4]int{66200, 5200, 33100, -4500}, 0, [4]int{770, -350, 130, -550}},
		// 2020010102gm-00e1-0000-34b3ef56: owari="371,47.0,230,-17.0,315,12.0,84,-42.0"
		{"34b3ef56", PointsRounded, [4]int{37100, 23000, 31500, 8400}, 0, [4]int{470, -170, 120, -420}},
		// Ties go to the seat nearer the first dealer; the stick to the top.
		{"ties", PointsExact, [4]int{24000, 25000, 25000, 25000}, 1, [4]int{-260, 360, 50, -150}},
	}
	for _, c := range cases {
		r := TenhouRules(true, true, true)
		r.Rounding = c.rounding
		m := NewMatch(r)
		m.Resync(Deal{Round: 7, Oya: 3, Scores: c.scores, Kyotaku: c.kyotaku})
		st := m.Standings()
		if st.Points != c.want {
			t.Errorf("%s: points %v, want %v", c.src, st.Points, c.want)
		}
		sum := 0
		for _, s := range st.Scores {
			sum += s
		}
		if want := 100000; sum != want && c.kyotaku > 0 {
			t.Errorf("%s: final scores sum to %d, want %d (sticks to the top)", c.src, sum, want)
		}
	}
}
