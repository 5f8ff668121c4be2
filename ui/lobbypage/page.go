// Package lobbypage is the page of "mentalmj lobby --ui": the open tables
// the node lists, each with its settings, free seats and the line that
// joins it, drawn on the server and reloaded every few seconds (no
// script). Serve it with web.ListenPage, which adds the token and Origin
// rules of the table page. The page speaks Japanese or English (package
// i18n): --lang, else the browser's Accept-Language.
package lobbypage

import (
	"html/template"
	"net/http"

	"github.com/mentalmj/mentalmj/node/lobby"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// pageTemplate is the page, parsed once (read-only); its "t" is bound to
// the page's language per request (Handler).
var pageTemplate = template.Must(template.New("lobby").Funcs(template.FuncMap{
	"t": func(string, ...any) string { return "" },
	// games is a listing's league games (a *int, nil without a league):
	// t's fmt would print the pointer.
	"games": func(n *int) int {
		if n == nil {
			return 0
		}
		return *n
	},
}).Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>{{t "lobby.title"}}</title>
<style>
body{font:15px system-ui,sans-serif;margin:2em;background:#0f2a1d;color:#eee}
.table{border:1px solid #2f5a43;border-radius:6px;padding:.6em 1em;margin:.8em 0;max-width:60em}
.name{font-weight:bold;font-size:1.1em}.id{font-family:monospace;color:#9ab}
code{display:block;background:#082015;padding:.4em;margin-top:.4em;word-break:break-all}
</style></head><body>
<h1>{{t "lobby.h1"}}</h1>
{{range .Tables}}<div class="table"><span class="name">{{.Table}}</span> {{t "lobby.hosted" .Nick}} <span class="id">{{.Host}}</span><br>
{{.Words}} · {{t "lobby.seats" .FreeSeats .Players}}{{if .Spectators}} · {{t "lobby.spectators" .Spectators}}{{end}}{{if .Games}} · {{t "lobby.league" (games .Games) (printf "%.0f" .Rate) .Dan}}{{end}}
<code>{{.Join}}</code></div>
{{else}}<p>{{t "lobby.none"}}</p>{{end}}
</body></html>
`))

// listing is a table as the page draws it: its lobby.Listing, and Words
// its settings in the page's language.
type listing struct {
	lobby.Listing
	Words string
}

// Handler returns the page: GET / lists tables() as it is at each
// request; every other path is 404. The page speaks lang (--lang, package
// i18n), or when lang is "" the first language of the browser's
// Accept-Language that has a catalogue, else English.
func Handler(tables func() []lobby.Table, lang string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, req *http.Request) {
		l := i18n.Pick(lang, req.Header.Get("Accept-Language"))
		v := struct {
			Lang   string // the page's language code
			Tables []listing
		}{Lang: l.Code}
		for _, t := range tables() {
			v.Tables = append(v.Tables, listing{lobby.ListingOf(t), l.Say(screen.SettingsMsg(t.Settings))})
		}
		tpl, err := pageTemplate.Clone()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		tpl.Funcs(template.FuncMap{"t": l.T})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := tpl.Execute(w, v); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return mux
}
