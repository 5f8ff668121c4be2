package lab

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mentalmj/mentalmj/internal/joinproc"
	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/internal/progress"
)

// player is one join process of a table.
type player struct {
	*joinproc.Player
	record    string           // the mjlog it writes
	cheat     string           // strategy name, "" for honest
	blames    []progress.Blame // the blames it reported
	faults    []progress.Fault // the faults it reported
	connected bool
	code      int
}

// table is one run: four join processes and what they said.
type table struct {
	players []*player
}

// spec says how a table is run.
type spec struct {
	// hands is the number of hands to play; timeout each node's
	// per-message timeout.
	hands   int
	timeout time.Duration
	// passive seats four tsumogiri players instead of bots.
	passive bool
	// noPipeline passes --no-pipeline to every node (the pipelined
	// setup is the default).
	noPipeline bool
	// cheats maps a player number to the strategy it runs.
	cheats map[int]string
	// turnTimeout is each node's --turn-timeout; 0 means timeout.
	turnTimeout time.Duration
	// grace is each node's --reconnect-grace; 0 means 1 s.
	grace time.Duration
	// victim, if not nil, is a player the harness kills or stops.
	victim *victim
	// table, if set, gives a player another --table than the others':
	// a misconfigured node.
	table map[int]string
	// link, if not zero, delays every connection between two players
	// both ways (latency.Mesh in this process).
	link latency.Link
	// rules are the house-rule flags every player gets (Config.Rules).
	rules []string
}

// victim is a player that the harness signals once its log shows a step:
// a fault run, not a cheat.
type victim struct {
	player int
	// after is the text of the victim's -v log line to wait for, delay
	// how long to wait after it.
	after string
	delay time.Duration
	// sig is the signal to send (SIGKILL, or SIGSTOP); a stopped victim
	// is continued after resume.
	sig    syscall.Signal
	resume time.Duration
	// restart, after a SIGKILL, starts the victim again with --resume,
	// restartAfter after it died.
	restart      bool
	restartAfter time.Duration
	// fired reports whether the signal was sent; restarted when the
	// victim was started again, and back how long after its restart it
	// had replayed its transcript and played on (its log's "resumed").
	fired, restarted bool
	back             time.Duration
}

// runTable starts four join processes on 127.0.0.1 in dir as sp says
// (player i cheating with strategy sp.cheats[i] if set) and waits for all
// four to exit (ctx bounds it). It returns an error when the table cannot
// be set up, ctx ends first, or a player (other than the victim, at a
// table of one name) never reached the table.
func runTable(ctx context.Context, bin, dir string, sp spec) (*table, error) {
	jt, err := joinproc.New(ctx, dir, 4, sp.link)
	if err != nil {
		return nil, err
	}
	defer jt.Close()
	t := &table{}
	for i, jp := range jt.Players {
		t.players = append(t.players, &player{Player: jp, record: filepath.Join(dir, jp.Name+".mjlog"), cheat: sp.cheats[i]})
	}
	var wg sync.WaitGroup
	for i, p := range t.players {
		args := sp.args(jt, i, "lab-"+filepath.Base(dir), p)
		proc, log, err := p.start(ctx, bin, dir, args, os.O_TRUNC)
		if err != nil {
			return nil, err
		}
		wg.Go(func() {
			p.play(proc, log, sp.victimAt(i))
			if v := sp.victimAt(i); v != nil && v.restart && v.fired {
				p.restart(ctx, bin, dir, args, v)
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("table in %s: %w", dir, ctx.Err())
	}
	if err := t.reached(dir, sp); err != nil {
		return nil, err
	}
	return t, nil
}

// args are player p's (number i's) join arguments at the table named
// table, in jt: a bot (or tsumogiri when sp.passive), sp's hands,
// timeouts, grace, rules and pipelining, p's cheat, and -v for the
// victim, whose log is watched. sp.table may give p another table name.
func (sp spec) args(jt *joinproc.Table, i int, table string, p *player) []string {
	style := "--bot"
	if sp.passive {
		style = "--tsumogiri"
	}
	if other, ok := sp.table[i]; ok {
		table = other
	}
	args := append(jt.Args(i, table), style, "--hands", strconv.Itoa(sp.hands),
		"--timeout", sp.timeout.String(), "--turn-timeout", cmp.Or(sp.turnTimeout, sp.timeout).String(), "--connect-timeout", "30s",
		"--mjlog", p.record, "--reconnect-grace", cmp.Or(sp.grace, time.Second).String())
	args = append(args, sp.rules...)
	if p.cheat != "" {
		args = append(args, "--research-cheat", p.cheat)
	}
	if sp.noPipeline {
		args = append(args, "--no-pipeline")
	}
	if sp.victimAt(i) != nil {
		args = append(args, "-v")
	}
	return args
}

// victimAt is sp's victim if it is player i, else nil.
func (sp spec) victimAt(i int) *victim {
	if sp.victim != nil && sp.victim.player == i {
		return sp.victim
	}
	return nil
}

// start starts p's process with args, its stderr going to DIR/NAME.log
// (opened with logFlags: os.O_TRUNC, or os.O_APPEND for a restart).
func (p *player) start(ctx context.Context, bin, dir string, args []string, logFlags int) (*joinproc.Process, *os.File, error) {
	log, err := os.OpenFile(filepath.Join(dir, p.Name+".log"), os.O_WRONLY|os.O_CREATE|logFlags, 0o644)
	if err != nil {
		return nil, nil, err
	}
	proc, err := p.Start(ctx, bin, args, nil, nil)
	if err != nil {
		log.Close()
		return nil, nil, err
	}
	return proc, log, nil
}

// play reads p's started process to its end: its events from stdout, its
// stderr into log (watched when p is the victim v, nil otherwise), and
// its exit status.
func (p *player) play(proc *joinproc.Process, log *os.File, v *victim) {
	var logDone sync.WaitGroup
	logDone.Go(func() {
		if v != nil {
			watch(proc.Stderr, log, proc.OS(), v)
			return
		}
		io.Copy(log, proc.Stderr)
	})
	p.blames, p.faults, p.connected = readEvents(proc.Stdout)
	logDone.Wait()
	p.code = proc.Wait()
	log.Close()
}

// restart starts the victim v, p, again with --resume, v.restartAfter
// after it died, and reads it to its end as play does: its events are
// added to p's, and v.back is how long after the restart its log said it
// had replayed its transcript and played on.
func (p *player) restart(ctx context.Context, bin, dir string, args []string, v *victim) {
	time.Sleep(v.restartAfter)
	began := time.Now()
	proc, log, err := p.start(ctx, bin, dir, append(args, "--resume"), os.O_APPEND)
	if err != nil {
		return
	}
	defer log.Close()
	v.restarted = true
	var logDone sync.WaitGroup
	logDone.Go(func() { v.back = copyUntil(proc.Stderr, log, "resumed: replayed the transcript", began) })
	blames, faults, connected := readEvents(proc.Stdout)
	p.blames, p.faults, p.connected = append(p.blames, blames...), append(p.faults, faults...), p.connected && connected
	logDone.Wait()
	p.code = proc.Wait()
}

// reached returns an error naming the first player that never reached
// the table: exited 2 (bad input) or never connected. The victim, and
// every player of a table where sp.table names another, may not.
func (t *table) reached(dir string, sp spec) error {
	if sp.table != nil {
		return nil
	}
	for i, p := range t.players {
		if sp.victimAt(i) != nil {
			continue
		}
		if p.code == 2 || !p.connected {
			log := filepath.Join(dir, p.Name) + ".log"
			return fmt.Errorf("table in %s: %s never reached the table (exit status %d; the end of %s:\n%s)", dir, p.Name, p.code, log, logTail(log, 3000))
		}
	}
	return nil
}

// logTail returns the last n bytes of the file at path (a failed table's
// log, for the test's own output: the directory is gone after the test),
// or why it cannot be read.
func logTail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > n {
		_, _ = f.Seek(-n, io.SeekEnd)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// copyUntil copies r to w and returns how long after began a line holding
// marker appeared (0 if none did).
func copyUntil(r io.Reader, w io.Writer, marker string, began time.Time) time.Duration {
	var at time.Duration
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fmt.Fprintln(w, sc.Text())
		if at == 0 && strings.Contains(sc.Text(), marker) {
			at = time.Since(began)
		}
	}
	return at
}

// readEvents reads the JSON progress lines of a join process until EOF:
// its blames and faults, and whether it connected to the table.
func readEvents(r io.Reader) (blames []progress.Blame, faults []progress.Fault, connected bool) {
	progress.Read(r, func(_ []byte, ev progress.Event, _ error) {
		switch ev := ev.(type) {
		case progress.Blame:
			blames = append(blames, ev)
		case progress.Fault:
			faults = append(faults, ev)
		case progress.Connected:
			connected = true
		}
	})
	return blames, faults, connected
}
