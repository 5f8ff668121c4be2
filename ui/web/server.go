package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

//go:embed assets
var assets embed.FS

// Download is a record the page links to.
type Download struct {
	// File is the name the browser saves it as; Type its MIME type.
	File, Type string
	// Write writes the record's current content.
	Write func(io.Writer) error
}

// Server serves the table page of one node.
type Server struct {
	model     *screen.Model
	player    *Player
	token     string
	addr      string // 127.0.0.1:port
	ln        net.Listener
	srv       *http.Server
	downloads map[string]Download
	log       *slog.Logger

	answers chan bool // the page's Accept (true) or Decline of Confirm

	seen     chan struct{} // closed when a page first connects (WaitPage)
	seenOnce sync.Once

	mu         sync.Mutex
	pages      map[int]context.CancelFunc // the connected pages' WebSockets, to close (dropPages)
	pageChange chan struct{}              // a page connected or left (WatchPages)
	awayChange chan struct{}              // closed and replaced when a page connects or leaves (Away)
	nextPage   int
	latencies  []time.Duration
	pageTimes  []time.Duration
}

// Config configures a Server.
type Config struct {
	// Model is the table shown; Player, if not nil, receives the page's
	// choices.
	Model  *screen.Model
	Player *Player
	// Downloads are the records offered for download, by name (the URL
	// path is /download/NAME).
	Downloads map[string]Download
	// Port is the TCP port on 127.0.0.1; 0 picks a free one.
	Port int
	// Logger receives request errors; nil discards.
	Logger *slog.Logger
	// Lang is the language the player asked for (--lang, package i18n);
	// "" lets the page speak the browser's language.
	Lang string
}

// Listen opens the server's socket on 127.0.0.1 and draws its random
// 128-bit access token. It returns an error if the port cannot be bound.
// Serve then answers requests.
func Listen(cfg Config) (*Server, error) {
	if cfg.Model == nil {
		return nil, errors.New("ui: Config.Model is required")
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", cfg.Port))
	if err != nil {
		return nil, fmt.Errorf("ui: listening on 127.0.0.1: %w", err)
	}
	tok := make([]byte, 16)
	rand.Read(tok)
	s := &Server{model: cfg.Model, player: cfg.Player, token: hex.EncodeToString(tok), addr: ln.Addr().String(), ln: ln, downloads: cfg.Downloads, log: cfg.Logger, answers: make(chan bool, 1), seen: make(chan struct{}), pageChange: make(chan struct{}, 1), awayChange: make(chan struct{})}
	if cfg.Player != nil {
		cfg.Player.attach(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	sub, _ := fs.Sub(assets, "assets")
	mux := http.NewServeMux()
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		b, _ := fs.ReadFile(sub, "index.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	})
	mux.Handle("GET /i18n.js", i18n.Script(cfg.Lang))
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /download/{name}", s.serveDownload)
	s.srv = &http.Server{Handler: s.guard(mux), ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// URL returns the page's address with its access token,
// http://127.0.0.1:PORT/?token=HEX.
func (s *Server) URL() string { return fmt.Sprintf("http://%s/?token=%s", s.addr, s.token) }

// Addr returns the listening address, 127.0.0.1:PORT.
func (s *Server) Addr() string { return s.addr }

// Serve answers requests until ctx is done, then closes the server. It
// returns nil on a normal close.
func (s *Server) Serve(ctx context.Context) error { return serve(ctx, s.srv, s.ln) }

// guard applies the token and Origin rules (see guardHandler).
func (s *Server) guard(next http.Handler) http.Handler { return guardHandler(s.addr, s.token, next) }

func (s *Server) serveDownload(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	d, ok := s.downloads[r.PathValue("name")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", d.Type)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", d.File))
	if err := d.Write(w); err != nil {
		s.log.Warn("ui: download", "name", r.PathValue("name"), "err", err)
	}
}

// clientMsg is a message from the page: {"type": "act", "decision": ID,
// "option": ID} chooses an option; {"type": "ack", "seq": N} says the
// page has drawn snapshot N; {"type": "answer", "accept": BOOL} answers
// Confirm; {"type": "dismiss", "hand": N} says the player has read hand
// N's result screen (screen.Model.Dismiss).
type clientMsg struct {
	Type     string `json:"type"`
	Decision int    `json:"decision"`
	Option   int    `json:"option"`
	Seq      int    `json:"seq"`
	// Page is, in an ack, the ms from the snapshot's arrival to its
	// drawing (parse, DOM update, next animation frame).
	Page float64 `json:"page"`
	// Accept is, in an answer, true for Accept and false for Decline.
	Accept bool `json:"accept"`
	// Hand is, in a dismiss, the hand whose result screen was read.
	Hand int `json:"hand"`
}

// serveWS pushes a snapshot after every change and reads the page's
// choices and acknowledgements.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(4096)
	ctx, done := s.pageOpen(r.Context())
	defer done()
	changed, stop := s.model.Subscribe()
	defer stop()
	go func() {
		for {
			var m clientMsg
			_, b, err := c.Read(ctx)
			if err != nil {
				// The page has gone: end the writer too (the request's
				// context does not end with a hijacked connection).
				c.CloseNow()
				done()
				return
			}
			if json.Unmarshal(b, &m) != nil {
				s.model.NoticeMsg(i18n.M("notice.unreadable"))
				continue
			}
			switch m.Type {
			case "act":
				if s.player == nil {
					s.model.NoticeMsg(i18n.M("notice.view_only"))
					continue
				}
				s.player.choose(m.Decision, m.Option)
			case "answer":
				if !s.model.Asking() {
					s.model.NoticeMsg(i18n.M("notice.no_question"))
					continue
				}
				select {
				case s.answers <- m.Accept:
				default: // an answer is already on its way
				}
			case "dismiss":
				s.model.Dismiss(m.Hand)
			case "ack":
				if t := s.model.ChangedAt(m.Seq); !t.IsZero() {
					s.mu.Lock()
					s.latencies = append(s.latencies, time.Since(t))
					s.pageTimes = append(s.pageTimes, time.Duration(m.Page*float64(time.Millisecond)))
					s.mu.Unlock()
				}
			}
		}
	}()
	last := -1
	for {
		snap := s.model.Snapshot()
		if snap.Seq != last {
			last = snap.Seq
			b, _ := json.Marshal(snap)
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := c.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				return
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// PageTimes returns, for the same snapshots as Latencies, the part spent
// in the page: from the snapshot's arrival to its drawing.
func (s *Server) PageTimes() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pageTimes)
}

// Latencies returns, for every snapshot a page acknowledged, the time
// from the model's change (the node applying an event) to the page having
// drawn it and said so: an upper bound of the display latency.
func (s *Server) Latencies() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.latencies)
}
