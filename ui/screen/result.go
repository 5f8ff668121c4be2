package screen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// Describe says in one line how a kyoku ended, naming players with names:
// "alice (East) wins by ron from bob (South): 3 han 40 fu, 7700 points
// (riichi 1, dora 2)", "exhaustive draw, tenpai: alice (East)",
// "abortive draw (yao9)", or "no result" for nil.
func Describe(r *game.Result, names Names) string {
	return verdict.DescribeResult(r, names.Name)
}

// DescribeMsg is Describe as a message (i18n.Msg) whose English is
// Describe's line but for an abortive draw, which English says by name
// ("kyuushu kyuuhai") rather than by Tenhou's code ("yao9").
func DescribeMsg(r *game.Result, names Names) i18n.Msg {
	if r == nil {
		return i18n.M("result.none")
	}
	switch r.End {
	case game.EndAgari:
		var wins []any
		for _, w := range r.Wins {
			var yaku []any
			for _, y := range w.Value.Yaku {
				if y.Han > 0 {
					yaku = append(yaku, i18n.M("feed.yaku", yakuMsg(y.ID), y.Han))
				}
			}
			for _, id := range w.Value.Yakuman {
				yaku = append(yaku, yakuMsg(id))
			}
			list := i18n.List("list.sep", yaku...)
			if w.Tsumo {
				wins = append(wins, i18n.M("feed.win_tsumo", names.NameMsg(w.Seat), w.Value.Han, w.Value.Fu, w.Value.Points, list))
			} else {
				wins = append(wins, i18n.M("feed.win_ron", names.NameMsg(w.Seat), names.NameMsg(w.From), w.Value.Han, w.Value.Fu, w.Value.Points, list))
			}
		}
		return i18n.List("list.semi", wins...)
	case game.EndExhaustive:
		for s, n := range r.Nagashi {
			if n {
				return i18n.M("feed.nagashi", names.NameMsg(game.Seat(s)))
			}
		}
		var tenpai []any
		for s, t := range r.Tenpai {
			if t {
				tenpai = append(tenpai, names.NameMsg(game.Seat(s)))
			}
		}
		if len(tenpai) == 0 {
			return i18n.M("feed.all_noten")
		}
		return i18n.M("feed.tenpai", i18n.List("list.sep", tenpai...))
	case game.EndAbortive:
		return i18n.M("feed.abortive", i18n.M("abort."+abortNames[r.Abort]))
	}
	return i18n.M("result.none")
}

// yakuMsg is yaku id's name (riichi.YakuName's in English, Tenhou's in
// Japanese: catalogue key yaku.ID).
func yakuMsg(id int) i18n.Msg { return i18n.M("yaku." + strconv.Itoa(id)) }

// Yaku is one yaku of a win: its Tenhou yaku id (0..54, riichi.YakuName),
// its name and han (13 for a yakuman).
type Yaku struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Han  int    `json:"han"`
}

// WinSummary is one agari of an end-of-hand screen.
type WinSummary struct {
	// Seat won, From dealt in (From == Seat for tsumo); Name and FromName
	// are their names as Names.Name gives them.
	Seat     int    `json:"seat"`
	From     int    `json:"from"`
	Name     string `json:"name"`
	FromName string `json:"fromName"`
	Tsumo    bool   `json:"tsumo"`
	// Hand is the concealed hand, winning tile included, sorted; WinTile
	// the winning tile; Melds the declared melds (Tenhou tile ids).
	Hand    []int  `json:"hand"`
	WinTile int    `json:"winTile"`
	Melds   []Meld `json:"melds"`
	// Dora and Ura are the indicators scored (Ura empty unless a riichi
	// win).
	Dora []int `json:"dora"`
	Ura  []int `json:"ura"`
	// Yaku, Han, Fu and Points are the value (Points without honba and
	// sticks); Limit names a limit hand ("mangan", …, "yakuman") or "".
	Yaku   []Yaku `json:"yaku"`
	Han    int    `json:"han"`
	Fu     int    `json:"fu"`
	Points int    `json:"points"`
	Limit  string `json:"limit"`
}

// HandSummary is an end-of-hand screen: how the kyoku ended, the score
// changes, the audit verdict and where the records are.
type HandSummary struct {
	// Number is the hand number, Round its name ("East 2"), Honba its
	// repeat count.
	Number int    `json:"number"`
	Round  string `json:"round"`
	Honba  int    `json:"honba"`
	// Text is Describe's one line; Wins the agari (empty for a draw);
	// Tenpai the tenpai players' names and hands at an exhaustive draw
	// (hands hidden to this player are nil).
	Text string `json:"text"`
	// TextMsg is Text as a message (DescribeMsg).
	TextMsg *i18n.Msg    `json:"textMsg,omitempty"`
	Wins    []WinSummary `json:"wins"`
	Draw    string       `json:"draw"`
	Tenpai  []TenpaiHand `json:"tenpai"`
	// Names are the seats' names ("" for a seat not in play: seat 3 in
	// sanma), Before the scores before the payments, Deltas the changes
	// and After the scores after, by seat.
	Names  [4]string `json:"names"`
	Before [4]int    `json:"before"`
	Deltas [4]int    `json:"deltas"`
	After  [4]int    `json:"after"`
	// AuditOK is true when the hand's audit verified the wall; Audit is
	// "wall verified: …", or the blame with its evidence, or the fault
	// that stopped the hand.
	AuditOK bool   `json:"auditOK"`
	Audit   string `json:"audit"`
	// AuditMsg is Audit as a message (i18n.Msg; the blame's evidence and
	// the faults stay in the protocol's words).
	AuditMsg *i18n.Msg `json:"auditMsg,omitempty"`
	// TimedOut names the players the node acted for after a decision
	// timeout.
	TimedOut []string `json:"timedOut"`
}

// TenpaiHand is a tenpai player's revealed hand at an exhaustive draw.
type TenpaiHand struct {
	Name  string `json:"name"`
	Hand  []int  `json:"hand"`
	Waits []int  `json:"waits"`
}

var limitNames = [...]string{"", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"}

// Summarize builds the end-of-hand screen of one hand result. view, if not
// nil, is the last observed kyoku of the hand (for tenpai hands shown at
// an exhaustive draw); names name the seats.
func Summarize(r protocol.HandResult, view *game.Kyoku, names Names) HandSummary {
	names.Oya = game.Seat(r.Oya)
	hs := HandSummary{Number: r.Number, Round: game.RoundName(r.Start.Round), Honba: r.Start.Honba, Text: Describe(r.Result, names)}
	text := DescribeMsg(r.Result, names)
	hs.TextMsg = &text
	players := len(r.Seats)
	if players == 0 {
		players = 4
	}
	for s := range players { // a sanma seat 3 keeps an empty name: not in play
		hs.Names[s] = names.Name(game.Seat(s))
	}
	for _, p := range r.TimedOut {
		for s, q := range r.Seats {
			if q == p {
				hs.TimedOut = append(hs.TimedOut, names.Name(game.Seat(s)))
			}
		}
	}
	audit := auditMsg(r, players, names)
	hs.AuditOK = audit.Key == "audit.verified" || audit.Key == "audit.partial"
	hs.Audit, hs.AuditMsg = i18n.English().Say(audit), &audit
	res := r.Result
	if res == nil {
		hs.Draw = "the hand was aborted"
		return hs
	}
	hs.Before, hs.Deltas, hs.After = res.Before, res.Deltas, res.Scores
	switch res.End {
	case game.EndAgari:
		for _, w := range res.Wins {
			ws := WinSummary{Seat: int(w.Seat), From: int(w.From), Name: names.Name(w.Seat), FromName: names.Name(w.From), Tsumo: w.Tsumo,
				Hand: sortedIDs(w.Hand), WinTile: int(w.WinTile), Dora: ids(w.DoraIndicators), Ura: ids(w.UraIndicators),
				Han: w.Value.Han, Fu: w.Value.Fu, Points: w.Value.Points}
			for _, m := range w.Melds {
				ws.Melds = append(ws.Melds, meldOf(m, w.Seat))
			}
			for _, y := range w.Value.Yaku {
				if y.Han > 0 {
					ws.Yaku = append(ws.Yaku, Yaku{y.ID, riichi.YakuName(y.ID), y.Han})
				}
			}
			for _, id := range w.Value.Yakuman {
				ws.Yaku = append(ws.Yaku, Yaku{id, riichi.YakuName(id), 13})
			}
			if w.Value.Limit > 0 && w.Value.Limit < len(limitNames) {
				ws.Limit = limitNames[w.Value.Limit]
			}
			hs.Wins = append(hs.Wins, ws)
		}
	case game.EndExhaustive:
		hs.Draw = "exhaustive draw"
		for s, t := range res.Tenpai {
			if !t {
				continue
			}
			th := TenpaiHand{Name: names.Name(game.Seat(s))}
			if view != nil {
				tiles, _ := view.Hand(game.Seat(s))
				if !containsUnknown(tiles) {
					th.Hand = sortedIDs(tiles)
					c := riichi.CountsOf(tiles)
					for _, k := range riichi.Waits(&c, len(view.Melds(game.Seat(s)))) {
						th.Waits = append(th.Waits, int(k))
					}
				}
			}
			hs.Tenpai = append(hs.Tenpai, th)
		}
	case game.EndAbortive:
		hs.Draw = "abortive draw: " + abortNames[res.Abort]
	}
	return hs
}

// auditMsg is the audit verdict of hand r played by players players,
// names naming the players a blame or fault concerns.
func auditMsg(r protocol.HandResult, players int, names Names) i18n.Msg {
	switch {
	case len(r.Blame) > 0:
		var b []any
		for _, x := range r.Blame {
			b = append(b, BlameMsg(x, names))
		}
		return i18n.M("audit.blame", i18n.List("list.semi", b...))
	case len(r.Faults) > 0:
		var f []any
		for _, x := range r.Faults {
			f = append(f, FaultLineMsg(x, names))
		}
		return i18n.M("audit.fault", i18n.List("list.semi", f...))
	case r.Yama == nil:
		return i18n.M("audit.incomplete")
	case slices.Contains(r.Yama, -1):
		// Private hands: -1 marks every position never shown.
		return i18n.M("audit.partial", len(r.Yama)-count(r.Yama, -1), len(r.Yama))
	}
	return i18n.M("audit.verified", len(r.Yama), players)
}

var abortNames = map[game.Abort]string{
	game.AbortKyuushu: "kyuushu kyuuhai", game.AbortSuucha: "suucha riichi", game.AbortSanchahou: "sanchahou",
	game.AbortSuukan: "suukan sanra", game.AbortSuufon: "suufon renda",
}

// Standing is one line of the final standings.
type Standing struct {
	Rank  int    `json:"rank"`
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Peer  string `json:"peer"`
	Score int    `json:"score"`
	// Points are the game points with uma and oka, in tenths (618 = +61.8).
	Points int `json:"points"`
}

// Rank returns the final standings first place first, names giving the
// seat names (the seat wind of the last kyoku) and peer IDs; with three
// seats in names.Seats (sanma) the empty seat 3 is left out.
func Rank(st game.Standings, names Names) []Standing {
	var out []Standing
	for _, s := range st.Order {
		if len(names.Seats) > 0 && int(s) >= len(names.Seats) {
			continue // seat 3 of a three-player game is not in play
		}
		x := Standing{Rank: len(out) + 1, Seat: int(s), Name: names.Name(s), Score: st.Scores[s], Points: st.Points[s]}
		if int(s) < len(names.Seats) {
			x.Peer = names.Seats[s].String()
		}
		out = append(out, x)
	}
	return out
}

// FormatStandings writes the final standings as text, one line a player,
// first place first: "1. alice (East) 35200 points (+55.2)".
func FormatStandings(st []Standing) string {
	var b strings.Builder
	for _, x := range st {
		fmt.Fprintf(&b, "%d. %s %d points (%+.1f)\n", x.Rank, x.Name, x.Score, float64(x.Points)/10)
	}
	return b.String()
}

// count returns how many elements of xs equal x.
func count(xs []int, x int) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}
