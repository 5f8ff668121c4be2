package latency

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// chunkSize is the largest piece of a stream delayed as one unit, in bytes.
const chunkSize = 32 << 10

// queuedChunks bounds the chunks in flight per direction; a sender that
// outruns it waits, as it would on a full TCP window.
const queuedChunks = 1024

// Forwarder is a TCP relay on loopback that delays both directions of every
// connection it carries: a connection accepted on its address is joined to
// a new connection to its target, and each chunk read on either side is
// written to the other at the time its direction's Schedule gives. Bytes
// are never reordered.
type Forwarder struct {
	ln     net.Listener
	target string
	link   Link
	log    *slog.Logger
	seed   atomic.Uint64
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

// Listen starts a Forwarder listening on addr (host:port, such as
// "127.0.0.1:0" for a free loopback port) that relays every connection to
// target (host:port) with link's delay in each direction. seed seeds the
// jitter of its connections (each connection and direction its own
// stream). log gets a debug line per connection and may be nil. The
// Forwarder runs until ctx ends or Close. It returns the listener's error
// (wrapped, naming addr).
func Listen(ctx context.Context, addr, target string, link Link, seed uint64, log *slog.Logger) (*Forwarder, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("latency forwarder on %s: %w", addr, err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	f := &Forwarder{ln: ln, target: target, link: link, log: log}
	f.ctx, f.cancel = context.WithCancel(ctx)
	f.seed.Store(seed)
	f.wg.Go(f.serve)
	go func() { <-f.ctx.Done(); ln.Close() }()
	return f, nil
}

// Addr returns the address the Forwarder listens on.
func (f *Forwarder) Addr() *net.TCPAddr { return f.ln.Addr().(*net.TCPAddr) }

// Close stops accepting, closes every connection it carries and waits for
// its goroutines to end. It returns nil.
func (f *Forwarder) Close() error {
	f.cancel()
	f.wg.Wait()
	return nil
}

func (f *Forwarder) serve() {
	for {
		in, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.wg.Go(func() { f.carry(in) })
	}
}

// carry relays one accepted connection to the target until both
// directions are done or the Forwarder closes.
func (f *Forwarder) carry(in net.Conn) {
	defer in.Close()
	var d net.Dialer
	out, err := d.DialContext(f.ctx, "tcp", f.target)
	if err != nil {
		f.log.Debug("latency forwarder: target unreachable", "target", f.target, "err", err)
		return
	}
	defer out.Close()
	f.log.Debug("latency forwarder: connection", "from", in.RemoteAddr().String(), "to", f.target, "delay", f.link.String())
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	go func() { <-ctx.Done(); in.Close(); out.Close() }()
	var wg sync.WaitGroup
	wg.Go(func() { delayed(ctx, out, in, NewSchedule(f.link, f.seed.Add(1))) })
	wg.Go(func() { delayed(ctx, in, out, NewSchedule(f.link, f.seed.Add(1))) })
	wg.Wait()
}

type chunk struct {
	b  []byte
	at time.Time
}

// delayed copies src to dst, each chunk at the time s gives it. When src
// ends, dst's write side is closed once everything before was written;
// on any other error both are left to the caller to close.
func delayed(ctx context.Context, dst, src net.Conn, s *Schedule) {
	q := make(chan chunk, queuedChunks)
	readErr := make(chan error, 1)
	go func() {
		defer close(q)
		for {
			b := make([]byte, chunkSize)
			n, err := src.Read(b)
			if n > 0 {
				select {
				case q <- chunk{b: b[:n], at: s.Deliver(time.Now())}:
				case <-ctx.Done():
					readErr <- ctx.Err()
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for c := range q {
		if wait := time.Until(c.at); wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return
			}
		}
		if _, err := dst.Write(c.b); err != nil {
			return
		}
	}
	if err := <-readErr; errors.Is(err, io.EOF) {
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
			return
		}
	}
	dst.Close()
}
