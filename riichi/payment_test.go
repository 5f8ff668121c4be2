package riichi

import "testing"

// TestPointsTable checks Points against the published riichi point table
// (values rounded up to 100, no kiriage mangan as on Tenhou).
func TestPointsTable(t *testing.T) {
	cases := []struct {
		han, fu        int
		dealer, tsumo  bool
		points         int
		pDealer, pEach int // tsumo payments
		limit          int
	}{
		{1, 30, false, false, 1000, 0, 0, 0},
		{1, 40, false, false, 1300, 0, 0, 0},
		{2, 25, false, false, 1600, 0, 0, 0},
		{2, 30, false, false, 2000, 0, 0, 0},
		{3, 30, false, false, 3900, 0, 0, 0},
		{3, 60, false, false, 7700, 0, 0, 0},
		{4, 30, false, false, 7700, 0, 0, 0},
		{4, 40, false, false, 8000, 0, 0, 1},
		{3, 70, false, false, 8000, 0, 0, 1},
		{1, 110, false, false, 3600, 0, 0, 0},
		{2, 110, false, false, 7100, 0, 0, 0},
		{4, 25, false, false, 6400, 0, 0, 0},
		{1, 30, true, false, 1500, 0, 0, 0},
		{2, 30, true, false, 2900, 0, 0, 0},
		{3, 30, true, false, 5800, 0, 0, 0},
		{4, 30, true, false, 11600, 0, 0, 0},
		{2, 25, true, false, 2400, 0, 0, 0},
		{1, 30, false, true, 1100, 500, 300, 0},
		{2, 20, false, true, 1500, 700, 400, 0},
		{3, 20, false, true, 2700, 1300, 700, 0},
		{4, 20, false, true, 5200, 2600, 1300, 0},
		{1, 110, false, true, 3600, 1800, 900, 0},
		{2, 20, true, true, 2100, 0, 700, 0},
		{4, 30, true, true, 11700, 0, 3900, 0},
		{5, 30, false, false, 8000, 0, 0, 1},
		{6, 30, false, false, 12000, 0, 0, 2},
		{7, 30, true, false, 18000, 0, 0, 2},
		{8, 30, false, true, 16000, 8000, 4000, 3},
		{10, 30, false, false, 16000, 0, 0, 3},
		{11, 30, false, false, 24000, 0, 0, 4},
		{12, 30, true, true, 36000, 0, 12000, 4},
		{13, 30, false, false, 32000, 0, 0, 5},
		{26, 30, false, false, 32000, 0, 0, 5}, // kazoe is capped at one yakuman
	}
	for _, c := range cases {
		points, pay := Points(c.han, c.fu, 0, c.dealer, c.tsumo, 0)
		_, limit := BasePoints(c.han, c.fu)
		if points != c.points || limit != c.limit {
			t.Errorf("%d han %d fu dealer=%v tsumo=%v: points %d limit %d, want %d limit %d", c.han, c.fu, c.dealer, c.tsumo, points, limit, c.points, c.limit)
		}
		if pay.Total() != points {
			t.Errorf("%d han %d fu: Pay.Total %d != points %d", c.han, c.fu, pay.Total(), points)
		}
		if c.tsumo && (pay.TsumoDealer != c.pDealer || pay.TsumoNonDealer != c.pEach) {
			t.Errorf("%d han %d fu dealer=%v: tsumo pay %d/%d, want %d/%d", c.han, c.fu, c.dealer, pay.TsumoDealer, pay.TsumoNonDealer, c.pDealer, c.pEach)
		}
	}
	if p, _ := Points(0, 30, 0, false, false, 0); p != 0 {
		t.Errorf("0 han: %d points", p)
	}
	if p, pay := Points(0, 0, 2, true, true, 1); p != 96000 || pay.TsumoNonDealer != 32100 {
		t.Errorf("dealer double yakuman tsumo: %d %+v", p, pay)
	}
}

// TestPaoPayment checks the liable-player split.
func TestPaoPayment(t *testing.T) {
	if l, d := PaoPayment(false, true, 1); l != 32300 || d != 0 {
		t.Errorf("tsumo: %d %d", l, d)
	}
	if l, d := PaoPayment(true, false, 2); l != 24000 || d != 24600 {
		t.Errorf("ron: %d %d", l, d)
	}
}
