package stats

// Tally is what one seat did in one game, or (added up) one player over
// many: counts of kyoku and events, points in real points (not 100s).
type Tally struct {
	// Kyoku is the number of hands dealt to the seat (<INIT> tags).
	Kyoku int
	// Wins counts the seat's <AGARI> (each winner of a double ron once);
	// TsumoWins those with who == fromWho; WinPoints adds their hand
	// values (the second number of ten=).
	Wins, TsumoWins, WinPoints int
	// DealInKyoku counts kyoku in which the seat paid a ron (once for a
	// double ron); DealIns counts every ron it paid and DealInPoints adds
	// their hand values.
	DealInKyoku, DealIns, DealInPoints int
	// RiichiKyoku counts kyoku with a <REACH step="1"> of the seat.
	RiichiKyoku int
	// CallKyoku counts kyoku with at least one chi, pon, daiminkan or kakan
	// of the seat (ankan and kita do not count).
	CallKyoku int
	// DrawKyoku counts kyoku ended by an exhaustive draw (<RYUUKYOKU>
	// without type=, or type="nm", nagashi mangan); DrawTenpai those in
	// which the seat's hand was shown tenpai (haiN=).
	DrawKyoku, DrawTenpai int
}

// add adds u to t.
func (t *Tally) add(u Tally) {
	t.Kyoku += u.Kyoku
	t.Wins += u.Wins
	t.TsumoWins += u.TsumoWins
	t.WinPoints += u.WinPoints
	t.DealInKyoku += u.DealInKyoku
	t.DealIns += u.DealIns
	t.DealInPoints += u.DealInPoints
	t.RiichiKyoku += u.RiichiKyoku
	t.CallKyoku += u.CallKyoku
	t.DrawKyoku += u.DrawKyoku
	t.DrawTenpai += u.DrawTenpai
}

// Game is what stats reads of one record.
type Game struct {
	// File is the path the record was read from; it prefixes errors.
	File string
	// Players is 3 (<GO type=> bit 0x10, sanma) or 4.
	Players int
	// Names are the seats' names from the first <UN> (%-decoded UTF-8);
	// Names[3] is "" in three-player games.
	Names [4]string
	// FirstOya is the dealer of the first kyoku (its <INIT oya=>).
	FirstOya int
	// Final are the final scores in 100s, one per seat (len Players), from
	// the owari= of the last <AGARI> or <RYUUKYOKU>; nil for a record
	// without a final result.
	Final []int
	// Seats are the seats' tallies; Seats[3] is zero in three-player games.
	Seats [4]Tally
	// Key is a hash of what every format records of the game in public:
	// the names, every kyoku's round, honba, riichi sticks, dealer, start
	// scores and dora indicator's kind, every result's kind, winner and
	// payer and score changes, and the final scores. It is equal for the
	// same game read from two files: its mjlog, its transcript and its
	// tenhou.net/6 JSON, also two players' private views; it leaves out
	// what only some formats carry (Tenhou's wall seed, the dice, tile ids).
	Key uint64
	// Stamp is the record's date, YYYYMMDD as a number (20240131): from a
	// Tenhou log id at the start of the file name (2024013115gm-…), else
	// the file's modification time (UTC); 0 when unknown.
	Stamp int
}

// Placements returns each seat's placement 1..Players from Final, Tenhou's
// tie order: of equal scores the seat nearer the first dealer (East in the
// first kyoku) ranks higher. It returns nil when Final is nil.
func (g *Game) Placements() []int {
	if g.Final == nil {
		return nil
	}
	n := g.Players
	order := func(s int) int { return (s - g.FirstOya + n) % n }
	out := make([]int, n)
	for s := range n {
		out[s] = 1
		for t := range n {
			if t != s && (g.Final[t] > g.Final[s] || g.Final[t] == g.Final[s] && order(t) < order(s)) {
				out[s]++
			}
		}
	}
	return out
}
