package handcalc

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes res for a person: one line per yaku with its han, the
// total han, fu and points (with the limit reached), then who pays what.
// honba is the request's honba, named when the payments include it. It
// returns the first write error.
func WriteText(w io.Writer, res Result, honba int) error {
	var b strings.Builder
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
	if honba > 0 {
		fmt.Fprintf(&b, " (%d honba included)", honba)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
