package viewer

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/ui/web"
)

//go:embed assets
var assets embed.FS

// Server serves one Record's replay page on 127.0.0.1, under the table's
// rules (web.ListenPage: a random token in the URL, its own Host and
// Origin only).
type Server struct {
	rec  *Record
	page *web.Page
	log  *slog.Logger
}

// Listen opens the viewer's socket on 127.0.0.1:port (0 picks a free
// port) and draws its random access token; Serve then answers. It
// returns an error if the port cannot be bound. logger receives request
// errors (nil discards them).
//
// The page speaks lang (--lang, package i18n), or "" the browser's language.
func Listen(rec *Record, port int, logger *slog.Logger, lang string) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{rec: rec, log: logger}
	own, _ := fs.Sub(assets, "assets")
	mux := http.NewServeMux()
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(web.Assets())))
	mux.Handle("GET /viewer/", http.StripPrefix("/viewer/", http.FileServerFS(own)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		b, _ := fs.ReadFile(own, "index.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	})
	mux.Handle("GET /i18n.js", i18n.Script(lang))
	mux.HandleFunc("GET /api/record", func(w http.ResponseWriter, r *http.Request) { s.json(w, rec.Index()) })
	mux.HandleFunc("GET /api/frame", s.serveFrame)
	page, err := web.ListenPage(mux, port)
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	s.page = page
	return s, nil
}

// URL returns the page's address with its access token and, when k >= 0,
// the position kyoku k, step a: http://127.0.0.1:PORT/?token=HEX#k=3&a=41.
func (s *Server) URL(k, a int) string {
	u := s.page.URL()
	if k >= 0 {
		u += fmt.Sprintf("#k=%d&a=%d", k, max(a, 0))
	}
	return u
}

// Serve answers requests until ctx is done, then closes the server. It
// returns nil on a normal close.
func (s *Server) Serve(ctx context.Context) error { return s.page.Serve(ctx) }

// serveFrame answers /api/frame?k=K&a=A&view=V with Record.Frame as JSON;
// a missing or malformed number is 0 (view: AllOpen), out-of-range ones
// are clamped.
func (s *Server) serveFrame(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	num := func(name string, def int) int {
		n, err := strconv.Atoi(q.Get(name))
		if err != nil {
			return def
		}
		return n
	}
	s.json(w, s.rec.Frame(num("k", 0), num("a", 0), num("view", AllOpen)))
}

func (s *Server) json(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		s.log.Warn("viewer: writing a response", "err", err)
	}
}

// Index is the record's table of contents for the page.
type Index struct {
	File    string   `json:"file"`
	Format  Format   `json:"format"`
	Players int      `json:"players"`
	Names   []string `json:"names"`
	// Owner is the seat whose view a private record is, -1 if none.
	Owner int         `json:"owner"`
	Kyoku []KyokuInfo `json:"kyoku"`
	Notes []string    `json:"notes"`
	// Over reports that the record holds the final standings.
	Over bool `json:"over"`
	// Me is the seat of the player who wrote the record, -1 unknown
	// (Record.Me).
	Me int `json:"me"`
	// Audited is true when the record carries what an audit needs (a
	// transcript; a Tenhou log's seed): else the page points to the
	// transcript that shows the audit.
	Audited bool `json:"audited"`
}

// KyokuInfo is one kyoku of the Index: its name ("East 1"), honba, the
// number of steps, its verification and how it ended.
type KyokuInfo struct {
	Round        string `json:"round"`
	Honba        int    `json:"honba"`
	Steps        int    `json:"steps"`
	Verified     bool   `json:"verified"`
	Verification string `json:"verification"`
	Result       string `json:"result"`
	Stopped      string `json:"stopped"`
}

// Index returns the record's table of contents.
func (rec *Record) Index() Index {
	x := Index{File: rec.File, Format: rec.Format, Players: rec.Players, Names: rec.Names[:rec.Players], Owner: rec.Owner, Notes: rec.Notes, Over: rec.Standings != nil, Me: rec.Me,
		Audited: rec.audits != nil}
	for _, k := range rec.Kyoku {
		x.Audited = x.Audited || k.Verified
		names := screen.Names{Seats: rec.seats, Nicks: rec.Names[:rec.Players], Oya: k.Hand.Start.Oya}
		x.Kyoku = append(x.Kyoku, KyokuInfo{Round: game.RoundName(k.Hand.Start.Round), Honba: k.Hand.Start.Honba, Steps: len(k.Steps),
			Verified: k.Verified, Verification: k.Verification, Result: screen.Describe(k.Hand.Result, names), Stopped: k.Stopped})
	}
	return x
}

// WriteSummary writes the record as text, one line per kyoku: its
// number, round and honba, steps, how it ended and its verification;
// then the notes.
func WriteSummary(w io.Writer, rec *Record) {
	x := rec.Index()
	fmt.Fprintf(w, "%s: %s, %d players, %d kyoku\n", x.File, x.Format, x.Players, len(x.Kyoku))
	if x.Owner >= 0 {
		fmt.Fprintf(w, "one player's view (private hands): %s's\n", x.Names[x.Owner])
	}
	for i, k := range x.Kyoku {
		fmt.Fprintf(w, "k=%d %s-%d: %d steps; %s; %s\n", i, k.Round, k.Honba, k.Steps-1, k.Result, k.Verification)
		if k.Stopped != "" {
			fmt.Fprintf(w, "  stopped: %s\n", k.Stopped)
		}
	}
	for _, n := range x.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
