// Package lobbypage is the page of "mentalmj lobby --ui": the open tables
// the node lists, each with its settings, free seats and the line that
// joins it, drawn on the server and reloaded every few seconds (no
// script). Serve it with web.ListenPage, which adds the token and Origin
// rules of the table page.
package lobbypage

import (
	"html/template"
	"net/http"

	"github.com/mentalmj/mentalmj/node/lobby"
)

var pageTemplate = template.Must(template.New("lobby").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>mentalmj lobby</title>
<style>
body{font:15px system-ui,sans-serif;margin:2em;background:#0f2a1d;color:#eee}
.table{border:1px solid #2f5a43;border-radius:6px;padding:.6em 1em;margin:.8em 0;max-width:60em}
.name{font-weight:bold;font-size:1.1em}.id{font-family:monospace;color:#9ab}
code{display:block;background:#082015;padding:.4em;margin-top:.4em;word-break:break-all}
</style></head><body>
<h1>Open tables</h1>
{{range .}}<div class="table"><span class="name">{{.Table}}</span> hosted by {{.Nick}} <span class="id">{{.Host}}</span><br>
{{.Settings}} · {{.FreeSeats}} of {{.Players}} seats free{{if .Spectators}} · up to {{.Spectators}} spectators{{end}}{{if .Games}} · host's league: {{.Games}} games, R {{printf "%.0f" .Rate}}, {{.Dan}}{{end}}
<code>{{.Join}}</code></div>
{{else}}<p>No open table yet (the page reloads every 3 seconds).</p>{{end}}
</body></html>
`))

// Handler returns the page: GET / lists tables() as it is at each
// request; every other path is 404.
func Handler(tables func() []lobby.Table) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		var ls []lobby.Listing
		for _, t := range tables() {
			ls = append(ls, lobby.ListingOf(t))
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := pageTemplate.Execute(w, ls); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return mux
}
