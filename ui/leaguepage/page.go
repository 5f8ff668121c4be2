// Package leaguepage is the page of "mentalmj league --ui": the standings
// of a league.Standings as HTML tables, one for four-player and one for
// three-player games, drawn on the server (no script), the style embedded.
// Serve it with web.ListenPage, which adds the token and Origin rules of
// the table page. The page speaks Japanese or English (package i18n):
// --lang, else the browser's Accept-Language.
package leaguepage

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/mentalmj/mentalmj/stats/league"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// pageTemplate is the page, parsed once (read-only); its "t" is bound to
// the page's language per request (Handler).
var pageTemplate = template.Must(template.New("league").Funcs(template.FuncMap{
	"t": func(string, ...any) string { return "" },
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
<html lang="{{.Lang}}"><head><meta charset="utf-8"><title>{{t "league.title"}}</title>
<style>
body{font:15px system-ui,sans-serif;margin:2em;background:#0f2a1d;color:#eee}
table{border-collapse:collapse;margin:1em 0}
th,td{padding:.3em .8em;border-bottom:1px solid #2f5a43;text-align:right}
th{color:#9fd4b4}td.name,th.name{text-align:left}
.id{font-family:monospace;color:#9ab}
p.note{color:#bbb;max-width:50em}
</style></head><body>
<h1>{{t "league.h1"}}</h1>
{{range .Sections}}<h2>{{t "league.section" .Title .L.Games}} <small>({{date .L}})</small></h2>
<table><tr><th>#</th><th class="name">{{t "league.col.player"}}</th><th class="name">{{t "league.col.peer"}}</th><th>{{t "league.col.games"}}</th><th>{{t "league.col.placements"}}</th><th>{{t "league.col.points"}}</th><th>{{t "league.col.rate"}}</th>{{if .Dan}}<th>{{t "league.col.dan" $.Room}}</th>{{end}}</tr>
{{range $i, $p := .L.Players}}<tr><td>{{inc $i}}</td><td class="name">{{$p.Name}}</td><td class="name id" title="{{$p.PeerID}}">{{$p.PeerID}}</td><td>{{$p.Games}}</td><td>{{places $p.Placements}}</td><td>{{signed $p.Points}}</td><td>{{rate $p.Rate}}</td>{{if $p.DanPoints}}<td>{{$p.Dan}} {{$p.DanPoints}}</td>{{end}}</tr>
{{end}}</table>
{{else}}<p>{{t "league.none"}}</p>{{end}}
<p class="note">{{t "league.note"}}</p>
</body></html>
`

type section struct {
	Title string
	L     *league.League
	Dan   bool
}

// Handler returns the page of st (room names the dan points' room): GET /
// the page; every other path is 404. The page speaks lang (--lang,
// package i18n), or when lang is "" the first language of the browser's
// Accept-Language that has a catalogue, else English.
func Handler(st league.Standings, room league.Room, lang string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, req *http.Request) {
		l := i18n.Pick(lang, req.Header.Get("Accept-Language"))
		tpl, err := pageTemplate.Clone()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		tpl.Funcs(template.FuncMap{"t": l.T})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := tpl.Execute(w, build(st, room, l)); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return mux
}

// view is what the template draws.
type view struct {
	Lang     string // the page's language code
	Sections []section
	Room     string
}

// build is the view of st in l.
func build(st league.Standings, room league.Room, l *i18n.Lang) view {
	v := view{Lang: l.Code, Room: room.String()}
	if st.FourPlayer != nil {
		v.Sections = append(v.Sections, section{l.T("league.four"), st.FourPlayer, true})
	}
	if st.ThreePlayer != nil {
		v.Sections = append(v.Sections, section{l.T("league.three"), st.ThreePlayer, false})
	}
	return v
}
