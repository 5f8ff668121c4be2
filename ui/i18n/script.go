package i18n

import (
	"encoding/json"
	"net/http"
)

// Script is the handler of a page's /i18n.js: a script that sets
// window.I18N to {"lang": forced, "catalogs": {CODE: {key: message}}}.
// forced is the language the player asked for (--lang), "" to let the
// page take the browser's (navigator.languages, the first with a
// catalogue, else English). The pages load it before their own scripts
// and format messages as T does (assets' i18n.js).
func Script(forced string) http.Handler {
	if forced != "" {
		forced = base(forced)
	}
	b, _ := json.Marshal(map[string]any{"lang": forced, "catalogs": All()})
	body := append(append([]byte("window.I18N = "), b...), ";\n"...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(body)
	})
}
