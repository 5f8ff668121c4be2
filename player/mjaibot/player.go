package mjaibot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// Defaults of Config.
const (
	DefaultMaxLine      = 64 << 10
	DefaultWriteTimeout = 5 * time.Second
	// startCheck is how long Start watches a new bot for an immediate exit.
	startCheck = 300 * time.Millisecond
	// queued is how many unread lines the node keeps from a bot; more are
	// dropped as a flood.
	queued = 64
)

// Config configures an mjai bot seat.
type Config struct {
	// Command is run with "sh -c"; "{seat}" in it is replaced by the seat
	// number (0..3, 0 = the first East) once the seats are drawn, for bots
	// such as Mortal's "mortal.py ID". Without "{seat}" the bot starts at
	// once and MJAI_SEAT is not set.
	Command string
	// Stderr receives the bot's standard error (a log file); nil discards.
	Stderr io.Writer
	// Fallback plays the seat after the bot exits or stops reading; nil
	// means protocol.Tsumogiri.
	Fallback protocol.Player
	// Logger receives the messages about the bot (bad replies, timeouts,
	// its exit); nil discards.
	Logger *slog.Logger
	// MaxLine bounds one line from the bot, in bytes (default
	// DefaultMaxLine); a longer line is dropped.
	MaxLine int
	// WriteTimeout bounds writing one event to the bot (default
	// DefaultWriteTimeout); a bot that does not read for that long is
	// stopped and the seat goes to Fallback.
	WriteTimeout time.Duration
}

// Player is a protocol.Player (and protocol.Observer) whose decisions come
// from an external mjai bot. See the package documentation.
type Player struct {
	cfg  Config
	name string
	log  *slog.Logger

	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   *os.File
	lines   chan []byte
	exited  chan struct{}
	exitErr error
	dead    bool   // the bot exited or was stopped: Fallback plays
	tail    []byte // the last bytes of the bot's stderr

	feed  *feed
	asked bool // the last event sent has can_act true: a reply is due
}

// Start prepares an mjai bot seat. A Command without "{seat}" is started
// now and watched for 300 ms; one with "{seat}" starts at the first hand.
// It returns an error for an empty command, a program that is not found,
// or a bot that exits at once (with the end of its stderr).
func Start(cfg Config) (*Player, error) {
	if strings.TrimSpace(cfg.Command) == "" {
		return nil, errors.New("mjai bot: empty command")
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.Fallback == nil {
		cfg.Fallback = protocol.Tsumogiri{}
	}
	p := &Player{cfg: cfg, name: strconv.Quote(cfg.Command), log: cfg.Logger}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if prog := firstWord(cfg.Command); prog != "" {
		// The shell's own lookup, so builtins (cd, exec) count as found.
		if err := exec.Command("sh", "-c", `command -v -- "$1" >/dev/null`, "sh", prog).Run(); err != nil {
			return nil, fmt.Errorf("mjai bot %s: %s: command not found", p.name, prog)
		}
	}
	if !strings.Contains(cfg.Command, "{seat}") {
		if err := p.spawn(cfg.Command); err != nil {
			return nil, err
		}
		select {
		case <-p.exited:
			return nil, fmt.Errorf("mjai bot %s exited at once (%v): %s", p.name, p.exitErr, p.stderrTail())
		case <-time.After(startCheck):
		}
	}
	return p, nil
}

// firstWord returns the program of a simple shell command ("" when the
// command starts with shell syntax the node does not interpret).
func firstWord(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 || strings.ContainsAny(f[0], "=$`'\"\\(){};&|<>*?~") {
		return ""
	}
	return f[0]
}

// tailWriter copies to w and keeps the last 1 KiB written.
type tailWriter struct {
	w io.Writer
	p *Player
}

func (t tailWriter) Write(b []byte) (int, error) {
	t.p.mu.Lock()
	t.p.tail = append(t.p.tail, b...)
	if len(t.p.tail) > 1024 {
		t.p.tail = t.p.tail[len(t.p.tail)-1024:]
	}
	t.p.mu.Unlock()
	if t.w != nil {
		t.w.Write(b)
	}
	return len(b), nil
}

func (p *Player) stderrTail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.TrimSpace(string(p.tail))
}

// spawn starts the bot process with command.
func (p *Player) spawn(command string) error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, tailWriter{w: p.cfg.Stderr, p: p}
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return fmt.Errorf("mjai bot %s: %w", p.name, err)
	}
	inR.Close()
	outW.Close()
	p.cmd, p.stdin = cmd, inW
	p.lines = make(chan []byte, queued)
	p.exited = make(chan struct{})
	go p.read(outR)
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.exitErr = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return nil
}

// read passes the bot's lines to p.lines: a line longer than MaxLine is
// dropped (and reported), and lines arriving while MaxLine·queued bytes
// are unread are dropped as a flood.
func (p *Player) read(r io.ReadCloser) {
	defer r.Close()
	br := bufio.NewReaderSize(r, p.cfg.MaxLine)
	dropped := 0
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			p.log.Warn("mjai bot sent a line longer than the limit; dropped", "bot", p.name, "limit_bytes", p.cfg.MaxLine)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil {
				return
			}
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case p.lines <- bytes.Clone(bytes.TrimSpace(line)):
			default:
				if dropped++; dropped == 1 || dropped%1000 == 0 {
					p.log.Warn("mjai bot floods the node with lines; dropping them", "bot", p.name, "dropped", dropped)
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// alive reports whether the bot still plays the seat; the first time it
// finds the bot gone it says so.
func (p *Player) alive() bool {
	if p.dead {
		return false
	}
	if p.cmd == nil {
		return true // starts at the first hand
	}
	select {
	case <-p.exited:
		p.die(fmt.Sprintf("exited (%v)", p.exitErr))
		return false
	default:
		return true
	}
}

// die stops using the bot: it is killed if still running, and the
// built-in player takes the seat.
func (p *Player) die(why string) {
	if p.dead {
		return
	}
	p.dead = true
	p.log.Error("mjai bot "+why+"; the seat plays on with the built-in player", "bot", p.name, "stderr", p.stderrTail())
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	if p.stdin != nil {
		p.stdin.Close()
	}
}

// send writes events to the bot, the last with can_act = ask, every other
// with can_act false.
func (p *Player) send(evs []mjai.Event, ask bool) {
	if len(evs) == 0 || !p.alive() {
		return
	}
	no, yes := false, true
	var b []byte
	for i := range evs {
		evs[i].CanAct = &no
		if i == len(evs)-1 && ask {
			evs[i].CanAct = &yes
		}
		b = append(evs[i].AppendJSON(b), '\n')
	}
	p.stdin.SetWriteDeadline(time.Now().Add(p.cfg.WriteTimeout))
	if _, err := p.stdin.Write(b); err != nil {
		p.die(fmt.Sprintf("does not read its input (%v)", err))
	}
}

// needsBot reports whether seat has a choice beyond passing or declaring
// at the exhaustive draw: only then is the bot asked.
func needsBot(legal []game.Action) bool {
	for _, a := range legal {
		switch a.Type {
		case game.Pass, game.Tenpai, game.Noten:
		default:
			return true
		}
	}
	return false
}

// Observe implements protocol.Observer (set it as the game's
// Config.Observer, or call it from the one set there): at every step of
// the kyoku it sends the bot the events since the last view, all with
// can_act false except the last when the node waits for the bot's
// decision. Observations without a view, and those before a public
// decryption of dora or ura-dora indicators (Step "key release"), are
// skipped.
func (p *Player) Observe(o protocol.Observation) {
	if o.View == nil || o.Step == "key release" || o.Seat < 0 {
		return
	}
	deciding := (o.Step == "turn" || o.Step == "answer" || o.Step == "declare") && slices.Contains(o.Waiting, o.Seat)
	p.observe(o.View, o.Seat, deciding)
}

// observe sends the bot the events that lead to view v of seat, all with
// can_act false except the last when deciding and the seat has a choice.
func (p *Player) observe(v *game.Kyoku, seat game.Seat, deciding bool) {
	if p.dead {
		return
	}
	if p.cmd == nil {
		if err := p.spawn(strings.ReplaceAll(p.cfg.Command, "{seat}", strconv.Itoa(int(seat)))); err != nil {
			p.die(err.Error())
			return
		}
	}
	if p.feed == nil || p.feed.seat != seat {
		p.feed = newFeed(seat, v.Rules().Hand.Reds())
	}
	evs := p.feed.update(v)
	ask := deciding && v.Result() == nil && needsBot(v.LegalActions(seat))
	if ask {
		p.drain()
	}
	p.send(evs, ask)
	p.asked = ask && len(evs) > 0
}

// drain drops the lines the bot sent while not asked.
func (p *Player) drain() {
	for {
		select {
		case l := <-p.lines:
			p.log.Warn("mjai bot replied when not asked; ignored", "bot", p.name, "line", truncate(l))
		default:
			return
		}
	}
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// Act implements protocol.Player: it waits for the bot's reply and turns
// it into one of view's legal actions. A malformed or illegal reply gets
// the timeout default (a pass, the drawn tile, a declaration) and a
// message naming the bot; a bot that does not answer before ctx ends is
// left to the protocol's timeout default. After the bot has exited, the
// Fallback player decides.
func (p *Player) Act(ctx context.Context, v *game.Kyoku, seat game.Seat) (game.Action, error) {
	if !p.asked {
		p.observe(v, seat, true)
	}
	asked := p.asked
	p.asked = false
	if !p.alive() {
		return p.cfg.Fallback.Act(ctx, v, seat)
	}
	legal := v.LegalActions(seat)
	if !asked || !needsBot(legal) {
		return protocol.Tsumogiri{}.Act(ctx, v, seat)
	}
	riichi := false
	for {
		var line []byte
		select {
		case line = <-p.lines:
		case <-p.exited:
			p.alive()
			return p.cfg.Fallback.Act(ctx, v, seat)
		case <-ctx.Done():
			p.log.Warn("mjai bot did not answer in time; the node acts for it", "bot", p.name, "seat", int(seat))
			return game.Action{}, ctx.Err()
		}
		var r mjai.Event
		if err := json.Unmarshal(line, &r); err != nil {
			return p.fallback(ctx, v, seat, fmt.Sprintf("malformed reply %q: %v", truncate(line), err))
		}
		if r.Type == mjai.Reach && !riichi {
			if r.Actor != int(seat) || !canRiichi(legal) {
				return p.fallback(ctx, v, seat, fmt.Sprintf("reach is not legal now (%s)", truncate(line)))
			}
			riichi = true
			p.feed.sentReach = true
			p.send([]mjai.Event{{Type: mjai.Reach, Actor: int(seat)}}, true)
			continue
		}
		a, err := action(r, legal, seat, riichi, p.feed.drawn, v.Rules().Hand.Reds())
		if err != nil {
			p.feed.sentReach = false
			return p.fallback(ctx, v, seat, err.Error())
		}
		return a, nil
	}
}

func canRiichi(legal []game.Action) bool {
	for _, a := range legal {
		if a.Type == game.Discard && a.Riichi {
			return true
		}
	}
	return false
}

// fallback reports a bad reply and returns the timeout default.
func (p *Player) fallback(ctx context.Context, v *game.Kyoku, seat game.Seat, why string) (game.Action, error) {
	p.log.Warn("mjai bot: "+why+"; the node acts for it", "bot", p.name, "seat", int(seat))
	return protocol.Tsumogiri{}.Act(ctx, v, seat)
}

// Close ends the bot: it sends end_game, closes the bot's input and waits
// up to 2 s for it to exit before killing it. It returns nil, or the
// error of a bot that had already failed.
func (p *Player) Close() error {
	if p.cmd == nil {
		return nil
	}
	if p.alive() {
		if p.feed != nil {
			p.send([]mjai.Event{{Type: mjai.EndGame}}, false)
		}
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(2 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
		}
		p.dead = true
		return nil
	}
	<-p.exited
	return nil
}
