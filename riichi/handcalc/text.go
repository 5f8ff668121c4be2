package handcalc

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes res for a person: a line restating the request (so the
// defaults taken are visible), one line per yaku with its han, the total
// han, fu and points (with the limit reached), then who pays what (the
// honba included, when req has some). It returns the first write error.
func WriteText(w io.Writer, req Request, res Result) error {
	var b strings.Builder
	b.WriteString(describe(&req) + "\n")
	width := 0
	for _, y := range res.Yaku {
		width = max(width, len(y.Name))
	}
	for _, y := range res.Yaku {
		unit := "han"
		if res.Yakuman > 0 {
			unit = "han (yakuman)"
		}
		fmt.Fprintf(&b, "  %-*s %2d %s\n", width, y.Name, y.Han, unit)
	}
	fmt.Fprintf(&b, "%d han %d fu: %d points", res.Han, res.Fu, res.Points)
	if res.Limit != "" {
		fmt.Fprintf(&b, " (%s)", res.Limit)
	}
	b.WriteString("\n")
	parts := make([]string, len(res.Payments))
	for i, p := range res.Payments {
		who := p.Payer
		switch {
		case who == "discarder":
			who = "the discarder"
		case who == "E":
			who = "E (dealer)"
		}
		parts[i] = fmt.Sprintf("%s pays %d", who, p.Points)
	}
	fmt.Fprintf(&b, "payments: %s", strings.Join(parts, ", "))
	if req.Honba > 0 {
		fmt.Fprintf(&b, " (%d honba included)", req.Honba)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// describe restates a request in one line: the tiles, the win, the
// situation, the winds and the rules, defaults filled in.
func describe(req *Request) string {
	var b strings.Builder
	b.WriteString(req.Hand)
	for _, m := range req.Melds {
		b.WriteString(" " + m)
	}
	how := "tsumo"
	if req.Ron {
		how = "ron"
	}
	fmt.Fprintf(&b, ", %s on %s", how, req.Win)
	for _, f := range []struct {
		on   bool
		name string
	}{
		{req.Riichi, "riichi"}, {req.DoubleRiichi, "double riichi"}, {req.Ippatsu, "ippatsu"},
		{req.Haitei, "haitei"}, {req.Houtei, "houtei"}, {req.Rinshan, "rinshan"},
		{req.Chankan, "chankan"}, {req.Tenhou, "tenhou"}, {req.Chiihou, "chiihou"},
	} {
		if f.on {
			b.WriteString(", " + f.name)
		}
	}
	if len(req.Dora) > 0 {
		fmt.Fprintf(&b, ", dora indicators %s", strings.Join(req.Dora, " "))
	}
	if len(req.Ura) > 0 {
		fmt.Fprintf(&b, ", ura indicators %s", strings.Join(req.Ura, " "))
	}
	seat := strings.ToUpper(req.SeatWind)
	if seat == "" {
		seat = "S"
		if req.Dealer != nil && *req.Dealer {
			seat = "E"
		}
	}
	round := strings.ToUpper(req.RoundWind)
	if round == "" {
		round = "E"
	}
	role := "non-dealer"
	if seat == "E" || seat == "EAST" || seat == "1Z" {
		role = "dealer"
	}
	fmt.Fprintf(&b, "; seat %s (%s), round %s", seat, role, round)
	rules := req.Rules
	if rules == "" {
		rules = "tenhou"
	}
	players := req.Players
	if players == 0 {
		players = 4
	}
	fmt.Fprintf(&b, "; %s rules", rules)
	if len(req.Switches) > 0 {
		fmt.Fprintf(&b, " with %s", strings.Join(req.Switches, " "))
	}
	fmt.Fprintf(&b, ", %d players", players)
	return b.String()
}
