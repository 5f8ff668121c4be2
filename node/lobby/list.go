package lobby

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Filter selects tables by their settings; a zero field selects all.
type Filter struct {
	// Players is 3 or 4 (0: either).
	Players int
	// Rules is a rules preset name ("tenhou", "majsoul", …; "": any).
	Rules string
	// Length is "tonpuu" or "hanchan" ("": either).
	Length string
	// Spectators keeps only tables that allow spectators.
	Spectators bool
}

// Match reports whether t passes f.
func (f Filter) Match(t Table) bool {
	switch {
	case f.Players != 0 && t.Settings.Players != f.Players:
		return false
	case f.Rules != "" && t.Settings.Rules.Preset != f.Rules:
		return false
	case f.Length != "" && t.Settings.Length() != f.Length:
		return false
	case f.Spectators && t.Spectators == 0:
		return false
	}
	return true
}

// Select returns the tables of ts that pass f, in their order.
func (f Filter) Select(ts []Table) []Table {
	var out []Table
	for _, t := range ts {
		if f.Match(t) {
			out = append(out, t)
		}
	}
	return out
}

// Listing is a table as "mentalmj lobby --json" writes it.
type Listing struct {
	Table      string  `json:"table"`
	Host       string  `json:"host"`
	Nick       string  `json:"nick"`
	Players    int     `json:"players"`
	Length     string  `json:"length"`
	Rules      string  `json:"rules"`
	Settings   string  `json:"settings"`
	FreeSeats  int     `json:"free_seats"`
	Spectators int     `json:"spectators"`
	Invite     string  `json:"invite"`
	Join       string  `json:"join"`
	Games      *int    `json:"league_games,omitempty"`
	Rate       float64 `json:"league_rate,omitempty"`
	Dan        string  `json:"league_dan,omitempty"`
}

// ListingOf returns t's Listing.
func ListingOf(t Table) Listing {
	l := Listing{Table: t.Announcement.Table, Host: t.Host.String(), Nick: t.Nick, Players: t.Settings.Players, Length: t.Settings.Length(),
		Rules: t.Settings.Rules.Preset, Settings: t.Settings.Summary(), FreeSeats: int(t.FreeSeats), Spectators: int(t.Spectators),
		Invite: t.Invite, Join: "mentalmj join " + t.Invite}
	if lf := t.League; lf != nil {
		g := int(lf.Games)
		l.Games, l.Rate, l.Dan = &g, float64(lf.RateCenti)/100, lf.Dan
	}
	return l
}

// WriteJSON writes ts as a JSON array of Listings.
func WriteJSON(w io.Writer, ts []Table) error {
	out := make([]Listing, 0, len(ts))
	for _, t := range ts {
		out = append(out, ListingOf(t))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteText writes ts for people: per table its name, host, settings,
// free seats, spectators and league figures, then the line that joins it.
func WriteText(w io.Writer, ts []Table) error {
	var b strings.Builder
	if len(ts) == 0 {
		b.WriteString("no open tables\n")
	}
	for _, t := range ts {
		l := ListingOf(t)
		fmt.Fprintf(&b, "%q hosted by %s (%s): %s; %d of %d seats free", l.Table, cmp.Or(l.Nick, "?"), t.Host.ShortString(), l.Settings, l.FreeSeats, l.Players)
		if l.Spectators > 0 {
			fmt.Fprintf(&b, "; up to %d spectators", l.Spectators)
		}
		if l.Games != nil {
			fmt.Fprintf(&b, "; host's league: %d games, R %.0f, %s", *l.Games, l.Rate, l.Dan)
		}
		fmt.Fprintf(&b, "\n  %s\n", l.Join)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
