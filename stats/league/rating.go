package league

// Tenhou's rating R (tenhou.net/man, "レーティング"; docs/league.md): every
// player starts at StartRate; after a game a player's R changes by
//
//	adjustment × (base[placement] + (table average R − own R) / 40)
//
// where the table average is over the game's players before the game,
// base is +30/+10/−10/−30 for four players and +30/0/−30 for three, and
// the adjustment is 1 − 0.002 × games played before this one under 400
// games, 0.2 from then on.

// StartRate is every player's R before its first game.
const StartRate = 1500.0

// rateBase is the placement base of an R change, by players then
// placement − 1.
var rateBase = map[int][]float64{
	4: {30, 10, -10, -30},
	3: {30, 0, -30},
}

// gamesAdjustment is the factor of an R change for a player with games
// games before this one.
func gamesAdjustment(games int) float64 {
	if games < 400 {
		return 1 - 0.002*float64(games)
	}
	return 0.2
}

// rateChanges returns the R change of each player of one game: rates and
// games are the players' R and games before it, placements 1..n, all in
// one order (seat order).
func rateChanges(rates []float64, games []int, placements []int) []float64 {
	avg := 0.0
	for _, r := range rates {
		avg += r
	}
	avg /= float64(len(rates))
	base := rateBase[len(rates)]
	out := make([]float64, len(rates))
	for i, r := range rates {
		out[i] = gamesAdjustment(games[i]) * (base[placements[i]-1] + (avg-r)/40)
	}
	return out
}
