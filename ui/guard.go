package ui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"slices"
)

// NewToken returns a random 128-bit access token as 32 hex digits
// (crypto/rand).
func NewToken() string {
	tok := make([]byte, 16)
	rand.Read(tok)
	return hex.EncodeToString(tok)
}

// Assets returns the page's embedded files (index.html, app.js,
// tiles.js, style.css): the replay viewer (package viewer) draws with
// the same code.
func Assets() fs.FS {
	sub, _ := fs.Sub(assets, "assets")
	return sub
}

// Guard wraps next for a page served on addr (127.0.0.1:PORT) with
// access token token. It refuses (403) a request without the token (in
// the URL's token parameter or the mentalmj_token cookie it then sets for
// the page's assets), or naming another Host or Origin than addr or
// localhost:PORT: a page elsewhere in the browser cannot reach the table
// (DNS rebinding, cross-site requests). It also forbids caching and sets
// a Content-Security-Policy allowing only the page's own origin.
func Guard(addr, token string, next http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr)
	hosts := []string{addr, "localhost:" + port}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(hosts, r.Host) {
			http.Error(w, "forbidden: this table answers only on "+addr, http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || u.Scheme != "http" || !slices.Contains(hosts, u.Host) {
				http.Error(w, "forbidden: foreign origin", http.StatusForbidden)
				return
			}
		}
		tok := r.URL.Query().Get("token")
		if c, err := r.Cookie("mentalmj_token"); tok == "" && err == nil {
			tok = c.Value
		}
		if subtle.ConstantTimeCompare([]byte(tok), []byte(token)) != 1 {
			http.Error(w, "forbidden: open the URL the node printed (it carries the access token)", http.StatusForbidden)
			return
		}
		// The assets the page loads carry the token as a cookie.
		http.SetCookie(w, &http.Cookie{Name: "mentalmj_token", Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws://"+r.Host)
		next.ServeHTTP(w, r)
	})
}
