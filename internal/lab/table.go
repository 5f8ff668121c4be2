package lab

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/node"
)

// event is one progress line a join process prints with --progress json.
type event struct {
	Event  string `json:"event"`
	Hand   int    `json:"hand"`
	Peer   string `json:"peer"`
	Player string `json:"player"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	When   string `json:"when"`
}

// player is one join process of a table.
type player struct {
	name, dataDir, transcript, listen, addr string
	record                                  string // the mjlog it writes
	id                                      peer.ID
	cheat                                   string // strategy name, "" for honest
	events                                  []event
	connected                               bool
	code                                    int
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
// four to exit (ctx bounds it).
func runTable(ctx context.Context, bin, dir string, sp spec) (*table, error) {
	hands, passive, timeout, cheats := sp.hands, sp.passive, sp.timeout, sp.cheats
	t := &table{}
	ports, err := node.LoopbackPorts(4)
	if err != nil {
		return nil, err
	}
	for i := range 4 {
		p := &player{name: fmt.Sprintf("player-%d", i), dataDir: filepath.Join(dir, fmt.Sprintf("player-%d", i)), cheat: cheats[i]}
		key, err := node.LoadOrCreateIdentity(p.dataDir)
		if err != nil {
			return nil, err
		}
		if p.id, err = peer.IDFromPrivateKey(key); err != nil {
			return nil, err
		}
		port := ports[i]
		p.listen = fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port)
		p.addr = p.listen + "/p2p/" + p.id.String()
		p.transcript = filepath.Join(dir, p.name+".mjt")
		p.record = filepath.Join(dir, p.name+".mjlog")
		t.players = append(t.players, p)
	}
	tableName := "lab-" + filepath.Base(dir)
	peerAddr := func(i, j int) string { return t.players[j].addr }
	if !sp.link.Zero() {
		mesh, err := latency.NewMesh(ctx, ports, sp.link, nil)
		if err != nil {
			return nil, err
		}
		defer mesh.Close()
		peerAddr = func(i, j int) string {
			return fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", mesh.Addr(i, j).Port, t.players[j].id)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(t.players))
	for i, p := range t.players {
		style := "--bot"
		if passive {
			style = "--tsumogiri"
		}
		name := tableName
		if other, ok := sp.table[i]; ok {
			name = other
		}
		args := []string{"join", style, "--table", name, "--name", p.name, "--listen", p.listen,
			"--hands", strconv.Itoa(hands), "--data-dir", p.dataDir, "--transcript", p.transcript,
			"--progress", "json", "--timeout", timeout.String(), "--turn-timeout", cmp.Or(sp.turnTimeout, timeout).String(), "--connect-timeout", "30s",
			"--mjlog", p.record, "--reconnect-grace", cmp.Or(sp.grace, time.Second).String()}
		args = append(args, sp.rules...)
		if p.cheat != "" {
			args = append(args, "--research-cheat", p.cheat)
		}
		if sp.noPipeline {
			args = append(args, "--no-pipeline")
		}
		for j, q := range t.players {
			if q != p {
				args = append(args, "--peer", peerAddr(i, j))
			}
		}
		v := sp.victim
		if v != nil && v.player == i {
			args = append(args, "-v")
		}
		start := func(args []string, logFlags int) (*exec.Cmd, io.Reader, io.Reader, *os.File, error) {
			cmd := exec.CommandContext(ctx, bin, args...)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				return nil, nil, nil, nil, err
			}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				return nil, nil, nil, nil, err
			}
			log, err := os.OpenFile(filepath.Join(dir, p.name+".log"), os.O_WRONLY|os.O_CREATE|logFlags, 0o644)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			if err := cmd.Start(); err != nil {
				log.Close()
				return nil, nil, nil, nil, fmt.Errorf("starting %s: %w", p.name, err)
			}
			return cmd, stdout, stderr, log, nil
		}
		cmd, stdout, stderr, log, err := start(args, os.O_TRUNC)
		if err != nil {
			return nil, err
		}
		var logDone sync.WaitGroup
		logDone.Go(func() {
			if v != nil && v.player == i {
				watch(stderr, log, cmd.Process, v)
				return
			}
			io.Copy(log, stderr)
		})
		wg.Go(func() {
			p.events, p.connected = readEvents(stdout)
			logDone.Wait()
			errs[i] = cmd.Wait()
			p.code = cmd.ProcessState.ExitCode()
			log.Close()
			if v == nil || v.player != i || !v.restart || !v.fired {
				return
			}
			time.Sleep(v.restartAfter)
			began := time.Now()
			cmd, stdout, stderr, log, err := start(append(args, "--resume"), os.O_APPEND)
			if err != nil {
				errs[i] = err
				return
			}
			defer log.Close()
			v.restarted = true
			var logDone sync.WaitGroup
			logDone.Go(func() { v.back = copyUntil(stderr, log, "resumed: replayed the transcript", began) })
			events, connected := readEvents(stdout)
			p.events, p.connected = append(p.events, events...), p.connected && connected
			logDone.Wait()
			errs[i] = cmd.Wait()
			p.code = cmd.ProcessState.ExitCode()
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("table in %s: %w", dir, ctx.Err())
	}
	for i, p := range t.players {
		if sp.victim != nil && sp.victim.player == i || sp.table != nil {
			continue
		}
		if p.code == 2 || !p.connected {
			log := filepath.Join(dir, p.name) + ".log"
			return nil, fmt.Errorf("table in %s: %s never reached the table (exit status %d; the end of %s:\n%s)", dir, p.name, p.code, log, logTail(log, 3000))
		}
	}
	return t, nil
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
func readEvents(r io.Reader) (out []event, connected bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Event {
		case "blame", "fault":
			out = append(out, ev)
		case "connected":
			connected = true
		}
	}
	return out, connected
}
