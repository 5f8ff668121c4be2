// Package leaguepage is the page of "mentalmj league --ui": the standings
// of a league.Standings as HTML tables, one for four-player and one for
// three-player games, drawn on the server (no script), the style embedded.
// Serve it with web.ListenPage, which adds the token and Origin rules of
// the table page.
package leaguepage

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/mentalmj/mentalmj/stats/league"
)

// pageTemplate is the page, parsed once (read-only).
var pageTemplate = template.Must(template.New("league").Funcs(template.FuncMap{
	"places": func(p []int) string {
		s := make([]string, len(p))
		for i, c := range p {
			s[i] = fmt.Sprint(c)
		}
		return strings.Join(s, " / ")
	},
	"signed": func(f float64) string { return fmt.Sprintf("%+.1f", f) },
	"rate":   func(f float64) string { return fmt.Sprintf("%.2f", f) },
	"inc":    func(i int) int { return i + 1 },
	"date": func(l *league.League) string {
		return l.First.UTC().Format("2006-01-02") + " – " + l.Last.UTC().Format("2006-01-02")
	},
}).Parse(page))

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mentalmj league</title>
<style>
body{font:15px system-ui,sans-serif;margin:2em;background:#0f2a1d;color:#eee}
table{border-collapse:collapse;margin:1em 0}
th,td{padding:.3em .8em;border-bottom:1px solid #2f5a43;text-align:right}
th{color:#9fd4b4}td.name,th.name{text-align:left}
.id{font-family:monospace;color:#9ab}
p.note{color:#bbb;max-width:50em}
</style></head><body>
<h1>League</h1>
{{range .Sections}}<h2>{{.Title}}: {{.L.Games}} games <small>({{date .L}})</small></h2>
<table><tr><th>#</th><th class="name">player</th><th class="name">peer</th><th>games</th><th>placements</th><th>points</th><th>R</th>{{if .Dan}}<th>dan ({{$.Room}})</th>{{end}}</tr>
{{range $i, $p := .L.Players}}<tr><td>{{inc $i}}</td><td class="name">{{$p.Name}}</td><td class="name id" title="{{$p.PeerID}}">{{$p.PeerID}}</td><td>{{$p.Games}}</td><td>{{places $p.Placements}}</td><td>{{signed $p.Points}}</td><td>{{rate $p.Rate}}</td>{{if $p.DanPoints}}<td>{{$p.Dan}} {{$p.DanPoints}}</td>{{end}}</tr>
{{end}}</table>
{{else}}<p>No games.</p>{{end}}
<p class="note">Every game here is a result certificate signed by all its players. The signatures prove that the games happened and who played them; they do not prove that the identities are different people.</p>
</body></html>
`

type section struct {
	Title string
	L     *league.League
	Dan   bool
}

// Handler returns the page of st (room names the dan points' room): GET /
// the page; every other path is 404.
func Handler(st league.Standings, room league.Room) http.Handler {
	var view struct {
		Sections []section
		Room     string
	}
	view.Room = room.String()
	if st.FourPlayer != nil {
		view.Sections = append(view.Sections, section{"Four players", st.FourPlayer, true})
	}
	if st.ThreePlayer != nil {
		view.Sections = append(view.Sections, section{"Three players", st.ThreePlayer, false})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := pageTemplate.Execute(w, view); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return mux
}
