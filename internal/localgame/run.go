package localgame

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/node"
)

// ErrFailed is returned by Run when the game ran but did not pass: a node
// exited non-zero, a hand is missing, or the nodes' audits, standings or
// records disagree. Run has printed why.
var ErrFailed = errors.New("the local game failed")

// Config is one local game, as "mentalmj local" checked its flags.
type Config struct {
	// Executable is the mentalmj binary each player runs as "join".
	Executable string
	// Dir holds each player's identity, transcript and records; it must exist.
	Dir string
	// Players is 4, or 3 for sanma (Tenhou's three-player rules).
	Players int
	// Hands is the number of hands; 0 plays a whole hanchan, or with
	// Tonpuu an east-only match.
	Hands  int
	Tonpuu bool
	// NoProofs and PrivateHands are passed to every node (join
	// --no-proofs, --private-hands).
	NoProofs, PrivateHands bool
	// NoPipeline passes --no-pipeline to every node: each hand's setup
	// runs after the hand before ends. The default (false) is the
	// pipelined setup (SPEC.md §22).
	NoPipeline bool
	// Timeout is the per-message timeout passed to every node (join --timeout).
	Timeout time.Duration
	// Play seats the user as player-0 on this terminal (that join gets
	// this process's stdin and stderr).
	Play bool
	// UI serves player-0's table in the browser; NoOpen only prints its URL.
	UI, NoOpen bool
	// Verbose passes -v to the nodes.
	Verbose bool
	// Time is the time control passed to every node (join --time, e.g.
	// "5+10" or "off").
	Time string
	// Rules is the house rules preset and Switches its NAME=VALUE
	// switches, passed to every node (join --rules, --rule).
	Rules    string
	Switches []string
	// Link is the emulated delay between every two nodes (the zero Link:
	// none, direct connections); RTT is the round trip it was made from,
	// for the printed line.
	Link latency.Link
	RTT  time.Duration
	// MjaiBots maps a player number to the external mjai bot command that
	// plays that seat instead of the built-in bot (join --mjai-bot).
	MjaiBots map[int]string
}

// Run plays one local game as cfg says: it starts cfg.Players "join"
// processes of cfg.Executable on 127.0.0.1 with fresh identities under
// cfg.Dir (which must exist), relays and prints their progress to stdout
// (the seating, a line per hand, the verdicts, the final standings, the
// stats, timing and traffic lines, where the records are) and each
// child's stderr to stderr, prefixed with its name. It returns an error
// when the game cannot be set up (no loopback ports, an identity or the
// latency mesh that cannot be made, a child that cannot start), and
// ErrFailed when the game ran but did not pass, after printing why. It
// returns nil when every node exited 0 and they all agree.
func Run(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	// The names runLocal had for its flags, so its body reads the same.
	hands, nPlayers, tonpuu, noProofs, privateHands := &cfg.Hands, &cfg.Players, &cfg.Tonpuu, &cfg.NoProofs, &cfg.PrivateHands
	dir, timeout, play, useUI, noOpen, verbose := &cfg.Dir, &cfg.Timeout, &cfg.Play, &cfg.UI, &cfg.NoOpen, &cfg.Verbose
	timeControl, preset, switches, rtt, link, botCommands := &cfg.Time, &cfg.Rules, cfg.Switches, &cfg.RTT, cfg.Link, cfg.MjaiBots
	// The identities and loopback ports, known before any starts.
	players := make([]*localPlayer, *nPlayers)
	ports, err := node.LoopbackPorts(len(players))
	if err != nil {
		return err
	}
	for i := range players {
		p := &localPlayer{name: fmt.Sprintf("player-%d", i), dataDir: filepath.Join(*dir, fmt.Sprintf("player-%d", i))}
		key, err := node.LoadOrCreateIdentity(p.dataDir)
		if err != nil {
			return err
		}
		if p.id, err = peer.IDFromPrivateKey(key); err != nil {
			return err
		}
		p.listen = fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", ports[i])
		p.addr = fmt.Sprintf("%s/p2p/%s", p.listen, p.id)
		p.transcript = filepath.Join(*dir, p.name+".mjt")
		p.record = filepath.Join(*dir, p.name+".mjlog.xml")
		p.json = filepath.Join(*dir, p.name+".json")
		players[i] = p
	}
	nameOf := map[string]string{}
	for _, p := range players {
		nameOf[p.id.String()] = p.name
	}
	tableName := "local-" + randomHex(4)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	peerAddr := func(i, j int) string { return players[j].addr }
	if !link.Zero() {
		mesh, err := latency.NewMesh(ctx, ports, link, nil)
		if err != nil {
			return err
		}
		defer mesh.Close()
		peerAddr = func(i, j int) string {
			return fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", mesh.Addr(i, j).Port, players[j].id)
		}
		fmt.Fprintf(stdout, "latency: every connection between two nodes is delayed by %s each way (round trip %s)\n", link, *rtt)
	}
	start := time.Now()
	var mu sync.Mutex
	var peakRSS int64
	var cpuMs float64
	var matchOver bool
	var standings []Event
	var seating []string         // nicknames in seat order, once known
	reports := map[int][]Event{} // hand → reports
	var verdicts localVerdicts
	var wg sync.WaitGroup
	codes := make([]int, len(players))
	for i, p := range players {
		human := *play && i == 0
		args := []string{"join", "--table", tableName, "--name", p.name, "--listen", p.listen,
			"--hands", strconv.Itoa(*hands), "--data-dir", p.dataDir, "--transcript", p.transcript, "--mjlog", p.record, "--json", p.json,
			"--progress", "json", "--timeout", timeout.String(), "--connect-timeout", "60s"}
		if *verbose {
			args = append(args, "-v")
		}
		if *tonpuu {
			args = append(args, "--tonpuu")
		}
		if *noProofs {
			args = append(args, "--no-proofs")
		}
		if *privateHands {
			args = append(args, "--private-hands")
		}
		if cfg.NoPipeline {
			args = append(args, "--no-pipeline")
		}
		args = append(args, "--time", *timeControl, "--rules", *preset)
		for _, sw := range switches {
			args = append(args, "--rule", sw)
		}
		if human {
			// The bots wait for a human: 30 minutes a decision.
			args = append(args, "--decision-timeout", "30m")
		} else if c, ok := botCommands[i]; ok {
			args = append(args, "--mjai-bot", c)
		} else {
			args = append(args, "--bot")
		}
		if *play {
			args = append(args, "--turn-timeout", "31m")
		}
		if *useUI && i == 0 {
			args = append(args, "--ui", "--ui-linger", "1m")
			if *noOpen {
				args = append(args, "--no-open")
			}
		}
		for j, q := range players {
			if q != p {
				args = append(args, "--peer", peerAddr(i, j))
			}
		}
		cmd := exec.CommandContext(ctx, cfg.Executable, args...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		cmd.Stderr = &prefixWriter{w: stderr, prefix: "[" + p.name + "] "}
		if human {
			// The table view and the prompts come on stderr, the answers
			// from this terminal.
			cmd.Stdin, cmd.Stderr = os.Stdin, stderr
		}
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("starting %s: %w", p.name, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				var ev Event
				if json.Unmarshal(sc.Bytes(), &ev) != nil {
					fmt.Fprintf(stdout, "[%s] %s\n", p.name, sc.Text())
					continue
				}
				switch ev.Event {
				case "hand":
					mu.Lock()
					reports[ev.Hand] = append(reports[ev.Hand], ev)
					if len(reports[ev.Hand]) == len(players) {
						WriteHand(stdout, reports[ev.Hand], nameOf)
					}
					mu.Unlock()
				case "blame", "fault":
					mu.Lock()
					verdicts.add(ev, p.name)
					mu.Unlock()
					fmt.Fprintf(stdout, "[%s] %s hand %d: %s %s: %s\n", p.name, strings.ToUpper(ev.Event), ev.Hand, ev.Player, ev.Peer, strings.TrimPrefix(ev.Kind+": ", ": ")+ev.Reason)
				case "seats":
					mu.Lock()
					if seating == nil && len(ev.Seats) == len(players) {
						seating = make([]string, len(ev.Seats))
						fmt.Fprintln(stdout, "seating (hand 1):")
						for s, id := range ev.Seats {
							seating[s] = nameOrID(nameOf, id)
							you := ""
							if *play && id == players[0].id.String() {
								you = " (you)"
							}
							fmt.Fprintf(stdout, "  %s%s in East 1\n", seatName(seating, s, 0), you)
						}
					}
					mu.Unlock()
				case "connected":
					fmt.Fprintf(stdout, "[%s] connected\n", p.name)
				case "done":
					mu.Lock()
					peakRSS = max(peakRSS, ev.PeakRSSKiB)
					cpuMs += ev.CPUMs
					matchOver = matchOver || ev.MatchOver
					mu.Unlock()
				case "standings":
					mu.Lock()
					standings = append(standings, ev)
					mu.Unlock()
				}
			}
			err := cmd.Wait()
			codes[i] = cmd.ProcessState.ExitCode()
			if err != nil && codes[i] == 0 {
				codes[i] = 1
			}
		}()
	}
	wg.Wait()

	ok := true
	for i, c := range codes {
		if c != 0 {
			fmt.Fprintf(stdout, "%s exited with status %d (%s)\n", players[i].name, c, exitMeaning(c))
			ok = false
		}
	}
	verdicts.summary(stdout)
	played := len(reports)
	switch {
	case *hands > 0 && played < *hands && matchOver:
		fmt.Fprintf(stdout, "the match ended after %d of the %d hands asked for\n", played, *hands)
	case *hands > 0 && played != *hands:
		fmt.Fprintf(stdout, "%d of %d hands were played\n", played, *hands)
		ok = false
	}
	for h := 1; h <= played; h++ {
		rs := reports[h]
		if len(rs) != len(players) {
			fmt.Fprintf(stdout, "hand %d: only %d of %d players reported it\n", h, len(rs), len(players))
			ok = false
			continue
		}
		if !agree(rs) {
			ok = false
		}
	}
	if len(standings) > 0 {
		printStandings(stdout, standings, seating, len(players))
		if len(standings) != len(players) {
			ok = false
		}
	}
	printStats(stdout, reports, peakRSS)
	printTiming(stdout, reports)
	if msgs, bytes, err := wireTraffic(players); err == nil && played > 0 {
		fmt.Fprintf(stdout, "traffic: %.0f messages and %.1f KB per hand on the wire (signed envelopes, all %s nodes); CPU %.2f s for the %s nodes, %.0f ms per hand\n",
			float64(msgs)/float64(played), float64(bytes)/1000/float64(played), count(len(players)), cpuMs/1000, count(len(players)), cpuMs/float64(played))
	}
	fmt.Fprintf(stdout, "transcripts: %s (check one with: mentalmj audit %s)\n", filepath.Join(*dir, "player-*.mjt"), players[0].transcript)
	if ok && *privateHands {
		if err := viewFiles(players); err != nil {
			fmt.Fprintf(stdout, "game records: %v\n", err)
			ok = false
		} else {
			fmt.Fprintf(stdout, "game records (Tenhou mjlog, private hands: each node's own view, the tiles it never saw hidden; no tenhou.net/6 JSON): %s\n  watch %s's view again: mentalmj view %s\n", filepath.Join(*dir, "player-*.mjlog.xml"), players[0].name, players[0].record)
		}
	} else if ok {
		if err := sameFiles(players); err != nil {
			fmt.Fprintf(stdout, "game records: %v\n", err)
			ok = false
		} else {
			fmt.Fprintf(stdout, "game record (Tenhou mjlog, identical on all %s nodes): %s (replay it with: mentalmj tenhou replay %s)\n", count(len(players)), players[0].record, players[0].record)
			printJSONRecord(stdout, players[0].json, players[0].name)
		}
	}
	if !ok {
		fmt.Fprintf(stdout, "FAILED after %s\n", time.Since(start).Round(time.Millisecond))
		return ErrFailed
	}
	fmt.Fprintf(stdout, "all %d hands played and audited by all %s nodes in %s; audits agree\n", played, count(len(players)), time.Since(start).Round(time.Millisecond))
	return nil
}

// count spells a number of nodes: "three", "four".
func count(n int) string {
	if n == 3 {
		return "three"
	}
	if n == 4 {
		return "four"
	}
	return strconv.Itoa(n)
}

// localPlayer is one of the join processes (four, or three in sanma).
type localPlayer struct {
	name, dataDir, transcript, record, json, listen, addr string
	id                                                    peer.ID
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// exitMeaning says what a join exit status means.
func exitMeaning(code int) string {
	switch code {
	case -1:
		return "killed by a signal"
	case 1:
		return "a cheat was proven"
	case 2:
		return "bad usage or input"
	case 3:
		return "the game stopped on a fault"
	}
	return "an error"
}
