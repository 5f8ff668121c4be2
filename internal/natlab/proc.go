package natlab

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proc is a process running in one of the lab's namespaces (Start).
type Proc struct {
	// Name is the host's name, for messages.
	Name string

	cmd    *exec.Cmd
	cancel context.CancelFunc
	done   chan struct{} // closed once the process exited and its output is read

	mu      sync.Mutex
	lines   []string      // stdout, one entry per line
	times   []time.Time   // when each line was read
	stderr  bytes.Buffer  // all of stderr
	changed chan struct{} // closed and replaced at each new line and at exit
	code    int           // exit code once done; -1 if killed by a signal
}

// Start runs bin with args in h's namespace (ip netns exec) with env added
// to this process's environment. The process is killed when ctx is done or
// the lab closes. Its stdout is kept line by line (Lines, WaitLine), its
// stderr whole (Stderr).
func (l *Lab) Start(ctx context.Context, h Host, env []string, bin string, args ...string) (*Proc, error) {
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", h.NS, bin}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	// ip netns exec execs bin: the signal reaches it, not a shell.
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	p := &Proc{Name: h.Name, cmd: cmd, cancel: cancel, done: make(chan struct{}), changed: make(chan struct{})}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	cmd.Stderr = &lockedWriter{mu: &p.mu, w: &p.stderr}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("natlab: starting %s on %s: %w", bin, h.Name, err)
	}
	l.mu.Lock()
	l.procs = append(l.procs, p)
	l.mu.Unlock()
	go p.read(stdout)
	return p, nil
}

// read collects stdout lines until EOF, then waits for the exit.
func (p *Proc) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		p.mu.Lock()
		p.lines = append(p.lines, sc.Text())
		p.times = append(p.times, time.Now())
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, r)
	err := p.cmd.Wait()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		code = -1
	}
	p.mu.Lock()
	p.code = code
	close(p.changed)
	p.mu.Unlock()
	close(p.done)
	p.cancel()
}

// Lines returns stdout's lines so far.
func (p *Proc) Lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// Times returns when each line of Lines was read.
func (p *Proc) Times() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.times...)
}

// Stderr returns everything the process wrote to stderr so far.
func (p *Proc) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// WaitLine waits until a line of stdout satisfies match and returns it. It
// returns an error naming the process and what it waited for (what)
// if ctx is done first or the process exits without such a line.
func (p *Proc) WaitLine(ctx context.Context, what string, match func(string) bool) (string, error) {
	seen := 0
	for {
		p.mu.Lock()
		lines, changed := p.lines[seen:], p.changed
		p.mu.Unlock()
		for _, ln := range lines {
			if match(ln) {
				return ln, nil
			}
		}
		seen += len(lines)
		select {
		case <-changed:
		case <-p.done:
			p.mu.Lock()
			rest := len(p.lines) > seen
			p.mu.Unlock()
			if !rest {
				return "", fmt.Errorf("%s exited (code %d) before %s; stderr:\n%s", p.Name, p.Code(), what, tail(p.Stderr(), 4000))
			}
		case <-ctx.Done():
			return "", fmt.Errorf("%s: waiting for %s: %w; stderr:\n%s", p.Name, what, ctx.Err(), tail(p.Stderr(), 4000))
		}
	}
}

// Wait waits for the process to exit and returns its exit code (-1 if a
// signal killed it), or ctx's error.
func (p *Proc) Wait(ctx context.Context) (int, error) {
	select {
	case <-p.done:
		return p.Code(), nil
	case <-ctx.Done():
		return 0, fmt.Errorf("%s: waiting for it to exit: %w", p.Name, ctx.Err())
	}
}

// Code returns the exit code, valid once Wait returned.
func (p *Proc) Code() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.code
}

// Interrupt sends SIGINT (what Ctrl-C does) and waits up to grace for
// the exit, then kills the process.
func (p *Proc) Interrupt(grace time.Duration) {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(grace):
		p.Kill()
	}
}

// Kill kills the process (if it still runs) and waits for it.
func (p *Proc) Kill() {
	p.cancel()
	<-p.done
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.IndexByte(s[len(s)-n:], '\n')
	return "…" + s[len(s)-n+i+1:]
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
