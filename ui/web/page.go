package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// Page serves a read-only page (a handler with everything embedded, such
// as the statistics page of "mentalmj stats --ui") under the same rules as
// the table's Server: 127.0.0.1 only, a random access token in the URL,
// and only its own Host and Origin.
type Page struct {
	token string
	addr  string
	ln    net.Listener
	srv   *http.Server
}

// ListenPage opens a socket on 127.0.0.1:port (0 picks a free port) for h
// and draws the page's random 128-bit access token. It returns an error if
// the port cannot be bound. Serve then answers requests.
func ListenPage(h http.Handler, port int) (*Page, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("ui: listening on 127.0.0.1: %w", err)
	}
	tok := make([]byte, 16)
	rand.Read(tok)
	p := &Page{token: hex.EncodeToString(tok), addr: ln.Addr().String(), ln: ln}
	p.srv = &http.Server{Handler: guardHandler(p.addr, p.token, h), ReadHeaderTimeout: 10 * time.Second}
	return p, nil
}

// URL returns the page's address with its access token,
// http://127.0.0.1:PORT/?token=HEX.
func (p *Page) URL() string { return fmt.Sprintf("http://%s/?token=%s", p.addr, p.token) }

// Serve answers requests until ctx is done, then closes the server. It
// returns nil on a normal close.
func (p *Page) Serve(ctx context.Context) error { return serve(ctx, p.srv, p.ln) }

// serve runs srv on ln until ctx is done; nil on a normal close.
func serve(ctx context.Context, srv *http.Server, ln net.Listener) error {
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("ui: %w", err)
	}
	return nil
}

// guardHandler refuses a request without the token (403), or naming
// another host or origin than addr (403): a page elsewhere in the browser
// cannot reach the table (DNS rebinding, cross-site requests). Accepted
// requests get the token as a cookie (for the assets the page loads),
// no-store caching and a same-origin Content-Security-Policy.
func guardHandler(addr, token string, next http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr)
	hosts := []string{addr, "localhost:" + port}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(hosts, r.Host) {
			http.Error(w, "forbidden: this page answers only on "+addr, http.StatusForbidden)
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
		http.SetCookie(w, &http.Cookie{Name: "mentalmj_token", Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws://"+r.Host)
		next.ServeHTTP(w, r)
	})
}
