package tablerun

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/node/spectate"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/ui/web"
)

// Play plays the game of table f at the node of ts, whose peers are set:
// it opens the transcript (DataDir/transcripts/NAME-TIME.mjt unless
// f.Transcript; with f.ResumeState the saved one) and saves the resume
// state, connects (within f.ConnectTimeout), shows the table (terminal, or
// the browser with f.UI), plays the hands with the protocol, reporting
// each on ts.Out, and at the end writes the records (mjlog to f.Mjlog if
// set, tenhou.net/6 JSON to f.JSON or DataDir/games/NAME-TIME.json) and
// the standings. Errors are printed on stderr as "mentalmj join: …". It
// returns join's exit code: 0 every hand audited ok, 1 a cheat proven
// (or a hand not audited, or a record not written), 2 bad input (a
// transcript, mjai bot or browser table that cannot be started, a
// resume transcript that does not fit), 3 the game stopped, or could not
// start, on a fault (a peer unreachable, a silence, a lost connection).
func Play(ctx context.Context, f *Table, ts Seat, stdout, stderr io.Writer) int {
	p := &playing{Table: f, Seat: ts, ctx: ctx, stderr: stderr, screen: screenOf(f, stdout, stderr)}
	mjai, code, ok := f.startMjaiBot(ts.Log, ts.Out, stderr)
	if !ok {
		return code
	}
	if mjai != nil {
		p.mjai = mjai
		defer mjai.Close()
	}
	if err := p.openRecords(); err != nil {
		return p.fail(err)
	}
	defer p.tr.Close()
	stopUI, err := p.showTable(ctx)
	if err != nil {
		return p.fail(err)
	}
	defer stopUI()
	if err := p.connect(ctx); err != nil {
		return p.fail(err)
	}
	if err := p.awaitPage(ctx, p.ConnectTimeout); err != nil {
		return p.fail(err)
	}
	defer showPaths(p.Out, p.front.model)()
	if err := p.startPublisher(ctx); err != nil {
		return p.fail(err)
	}
	g, err := p.newGame()
	if err != nil {
		return p.fail(err)
	}
	p.g = g
	watch, stopWatch := context.WithCancel(ctx)
	p.watchPage(watch)
	_, err = g.Run(ctx)
	stopWatch()
	p.stopPublisher()
	if err == nil {
		p.Out.GameOver()
	}
	p.gameOver(err)
	defer p.front.linger(ctx, f.UILinger, p.screen)
	if err != nil {
		return p.verdict(err)
	}
	if !p.allOK {
		return 1
	}
	if err := p.writeRecords(); err != nil {
		return p.fail(err)
	}
	if err := p.writeCertificate(); err != nil {
		return p.fail(err)
	}
	p.reportEnd()
	return 0
}

// playing is one Play under way: the table and seat it was given, and
// what each step of the game adds for the next.
type playing struct {
	*Table
	Seat
	ctx    context.Context // the game's, for the holds between hands
	stderr io.Writer
	// screen is where the human's table view and prompts go (screenOf).
	screen io.Writer

	mjai       *mjaiSeat // the external mjai bot, or nil
	path       string    // the transcript's path
	tr         *protocol.Transcript
	seed       []byte           // the game's secret seed
	resumeFrom *protocol.Resume // nil for a new game
	front      *frontend
	clock      *timecontrol.Clock // a human seat's time control, or nil
	g          *protocol.Game     // set once the game is made
	results    []protocol.HandResult
	allOK      bool                // every hand so far audited ok
	seated     bool                // the seating was reported
	publisher  *spectate.Publisher // the table's spectator topic, or nil
}

// exitError is an error with join's exit code for it.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// fail prints err on stderr as "mentalmj join: …" and returns its exit
// code: an exitError's own, else 1.
func (p *playing) fail(err error) int {
	fmt.Fprintf(p.stderr, "mentalmj join: %v\n", err)
	var e exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}

// badInput is err with exit code 2 (bad input).
func badInput(err error) error { return exitError{code: 2, err: err} }

// screenOf is where the human's table view and prompts go: stdout, or
// stderr when stdout carries JSON progress for a launcher.
func screenOf(f *Table, stdout, stderr io.Writer) io.Writer {
	if f.Progress == "json" {
		return stderr
	}
	return stdout
}

// openRecords opens the transcript (a new one at the default path or
// f.Transcript, or the one to resume, checked against the table) with
// the game's seed, and reports it. Its errors are bad input.
func (p *playing) openRecords() error {
	p.path = p.Transcript
	if p.path == "" {
		p.path = filepath.Join(p.DataDir, "transcripts", fmt.Sprintf("%s-%s.mjt", safeName(p.Name), time.Now().UTC().Format("20060102T150405Z")))
		if err := os.MkdirAll(filepath.Dir(p.path), 0o755); err != nil {
			return badInput(err)
		}
	}
	tr, seed, records, err := p.openGame(p.Node, p.path, len(p.Node.Peers())+1, rand.Reader)
	if err != nil {
		return badInput(err)
	}
	p.tr, p.seed = tr, seed
	if records != nil {
		if err := p.resumeAt(records); err != nil {
			tr.Close()
			return badInput(err)
		}
	}
	p.Out.Event(progress.Transcript{Path: p.path}, "transcript: %s", p.path)
	return nil
}

// resumeAt checks that the records of the transcript to resume fit this
// table, reports the resume and takes the game's own settings.
func (p *playing) resumeAt(records []*protocol.Opened) error {
	p.path = p.ResumeState.Transcript
	p.resumeFrom = &protocol.Resume{Records: records}
	if err := p.resumeFrom.Check(p.Node.ID(), append(p.Node.Peers(), p.Node.ID())); err != nil {
		return fmt.Errorf("--resume: %s: %w", p.path, err)
	}
	p.Out.Event(progress.Resuming{Records: len(records), Path: p.path},
		"resuming the game at table %q from %d records of %s", p.Name, len(records), p.path)
	if changed := p.adoptHello(records[0].Entry.GetHello()); len(changed) > 0 {
		p.Out.Event(progress.ResumeSettings{Settings: changed},
			"resuming with the game's own settings: %s", strings.Join(changed, " "))
	}
	return nil
}

// connect waits (within ConnectTimeout) for every peer, then up to
// directWait for relayed pairs to become direct; it returns an error
// with exit code 3 (a fault) when a peer cannot be reached, or when a
// pair is left on a public relay's limited circuits alone (awaitDirect).
func (p *playing) connect(ctx context.Context) error {
	p.Out.Event(progress.Connecting{}, "waiting for the other %d players…", len(p.Node.Peers()))
	cctx, cancel := context.WithTimeout(ctx, p.ConnectTimeout)
	err := p.Node.Connect(cctx)
	cancel()
	if err != nil {
		// An unreachable player is a fault (exit 3), as a lost connection
		// in the game is: nothing is proven against anyone.
		return exitError{code: 3, err: err}
	}
	p.Out.Event(progress.Connected{}, "all players connected")
	return awaitDirect(ctx, p.Node, p.Out)
}

// showTable shows the table: the browser table Confirm started, or a new
// frontend (served until stop), and, for a human seat, its clock.
func (p *playing) showTable(ctx context.Context) (stop func(), err error) {
	p.front = p.Table.front
	if p.front != nil {
		// Confirm started the page already: it goes on.
		stop = p.StopUI
		p.front.srv.SetDownloads(p.downloads())
	} else {
		p.front, err = newFrontend(p.UI, p.Bot || p.MjaiBot != "", p.Lang, os.Stdin, p.screen, p.downloads())
		if err != nil {
			return nil, badInput(fmt.Errorf("--ui: %w", err))
		}
		uiCtx, stopUI := context.WithCancel(ctx)
		stop = stopUI
		p.front.serve(uiCtx, p.NoOpen, p.screen)
	}
	p.front.model.SetGameMsg(gameMsg(p.Name, p.Play))
	if p.front.player != nil && !p.Passive && p.mjai == nil {
		p.clock = timecontrol.NewClock(p.Play.Time)
		p.front.setClock(p.clock)
	}
	return stop, nil
}

// downloads are the records the browser table offers: the transcript so
// far, and the game record of the hands played as mjlog and
// tenhou.net/6 JSON.
func (p *playing) downloads() map[string]web.Download {
	return map[string]web.Download{
		"transcript": {File: filepath.Base(p.path), Type: "application/octet-stream", Write: p.copyTranscript},
		"mjlog": {File: safeName(p.Name) + ".mjlog.xml", Type: "application/xml", Write: func(w io.Writer) error {
			if p.g == nil {
				return errNotStarted
			}
			return mjlog.Write(w, p.g.Record(p.results))
		}},
		"json": {File: safeName(p.Name) + ".json", Type: "application/json", Write: func(w io.Writer) error {
			if p.g == nil {
				return errNotStarted
			}
			l, err := tenhou6.Convert(p.g.Record(p.results))
			if err != nil {
				return err
			}
			return l.Encode(w)
		}},
	}
}

// errNotStarted is a download of a game record asked before the game has
// started.
var errNotStarted = errors.New("the game has not started yet")

// copyTranscript writes the transcript so far to w.
func (p *playing) copyTranscript(w io.Writer) error {
	if err := p.tr.Sync(); err != nil {
		return err
	}
	f, err := os.Open(p.path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// player is who plays the seat: the mjai bot, tsumogiri when Passive,
// the person at the table, or the built-in bot.
func (p *playing) player() protocol.Player {
	switch {
	case p.mjai != nil:
		return p.mjai
	case p.Passive:
		return protocol.Tsumogiri{}
	case p.front.player != nil:
		return p.front.player
	}
	return newBuiltinBot()
}

// newGame makes the protocol's game of the table, its hands reported by
// handDone and its observations by observe. Its errors are bad input.
func (p *playing) newGame() (*protocol.Game, error) {
	p.allOK = true
	g, err := protocol.NewGame(protocol.Config{
		Table:           p.Name,
		Identity:        p.Key,
		Peers:           append(p.Node.Peers(), p.Node.ID()),
		Nick:            p.Nick,
		Hands:           p.Play.Hands,
		Tonpuu:          p.Play.Tonpuu,
		NoProofs:        p.Play.NoProofs,
		Proofs:          p.Play.Proofs,
		PrivateHands:    p.Play.PrivateHands,
		Rules:           p.Play.Rules,
		Time:            p.Play.Time,
		Clock:           p.clock,
		NoPipeline:      p.NoPipeline,
		Transport:       p.Node,
		Transcript:      p.tr,
		Player:          p.player(),
		Timeout:         p.Timeout,
		TurnTimeout:     p.TurnTimeout,
		DecisionTimeout: p.DecisionTimeout,
		Logger:          p.Log,
		Observer:        &joinObserver{out: p.Out, front: p.front, observe: p.observe},
		Misbehavior:     p.Misbehavior,
		Rand:            protocol.SeedRand(p.seed),
		ReconnectGrace:  p.ReconnectGrace,
		Resume:          p.resumeFrom,
		OnHand:          p.handDone,
		Publish:         p.publish,
		Spectators:      p.Play.Spectators,
	})
	if err != nil {
		return nil, badInput(err)
	}
	return g, nil
}

// observe reports the seating once it is known and feeds the table and
// the mjai bot each observation.
func (p *playing) observe(o protocol.Observation) {
	if !p.seated && o.Seats != nil {
		p.seated = true
		p.reportSeats(o)
	}
	p.front.Observe(o)
	if p.mjai != nil {
		p.mjai.Observe(o)
	}
}

// reportSeats reports the seating of o, and names the players in the
// path lines from now on.
func (p *playing) reportSeats(o protocol.Observation) {
	names := verdict.Names{Seats: o.Seats, Nicks: p.g.Nicks()}
	var seats, nicks []string
	line := ""
	for s, id := range o.Seats {
		seats, nicks = append(seats, id.String()), append(nicks, o.Nicks[s])
		p.Out.Name(id, o.Nicks[s]) // path lines name the player from now on
		you := ""
		if game.Seat(s) == o.Seat {
			you = " (you)"
		}
		line += fmt.Sprintf("\n  %s%s in East 1  %s", names.Short(id, 0), you, id)
	}
	p.Out.Event(progress.Seats{Seats: seats, Nicks: nicks, Self: int(o.Seat)},
		"seating (the winds turn with the dealer):%s", line)
}

// handDone records and reports an audited hand.
func (p *playing) handDone(r protocol.HandResult) {
	p.allOK = p.allOK && len(r.Blame) == 0 && len(r.Faults) == 0 && r.Yama != nil
	p.results = append(p.results, r)
	p.Out.Hand(r, p.Node.ID(), p.g.Nicks(), p.g.Players(), p.g.Rules().Hand.Reds())
	p.front.HandDone(r)
	if p.human() {
		if p.lastHand(r) {
			p.front.model.MarkLastHand()
		}
		p.front.holdResult(p.ctx, resultHold(p.Timeout))
	}
}

// human reports whether a person plays this seat at the table (not a
// bot, an mjai bot or tsumogiri).
func (p *playing) human() bool {
	return p.front.player != nil && !p.Passive && p.mjai == nil
}

// gameOver removes the resume state (nothing is left to resume, one way
// or another) and shows the end of the game, err its error.
func (p *playing) gameOver(err error) {
	if rerr := resume.Remove(resume.File(p.DataDir, p.Name)); rerr != nil {
		p.Log.Warn("could not remove the resume state", "err", rerr)
	}
	p.front.Finish(p.g, err)
}

// verdict reports why the game stopped, err: a proven cheat (exit code 1)
// or a fault (3).
func (p *playing) verdict(err error) int {
	b, fault := protocol.Verdict(err, p.Node.ID(), len(p.results))
	names := verdict.Names{Seats: p.g.Seats(), Nicks: p.g.Nicks()}
	if b != nil {
		p.Out.Blame(*b, names, "at once")
		fmt.Fprintf(p.stderr, "mentalmj join: cheating proven: %v\n", err)
		return 1
	}
	p.Out.Fault(*fault, names)
	fmt.Fprintf(p.stderr, "mentalmj join: the game stopped: %v\n", err)
	return 3
}

// writeRecords writes the game records: mjlog to Mjlog if set, and
// tenhou.net/6 JSON to JSON or DataDir/games/ beside the transcript's name.
func (p *playing) writeRecords() error {
	jsonPath := p.JSON
	if jsonPath == "" {
		jsonPath = filepath.Join(p.DataDir, "games", strings.TrimSuffix(filepath.Base(p.path), ".mjt")+".json")
	}
	if err := writeGameFiles(p.Out, p.g.Record(p.results), p.Mjlog, jsonPath, p.g.Seats(), p.Node.ID()); err != nil {
		return err
	}
	// The records above carry no wall seed: the transcript is the record
	// whose replay shows the audit, hand by hand.
	p.Out.Event(progress.View{Path: p.path}, "  watch it with the audit of every hand: mentalmj view %s", p.path)
	return nil
}

// writeCertificate writes the game's result certificate, signed by every
// player (SPEC.md §23), to DataDir/games/ beside the JSON record's name
// (NAME.cert), for mentalmj league; a game without one (a set number of
// hands, a player that did not sign) is reported, not an error.
func (p *playing) writeCertificate() error {
	c, err := p.g.Certificate()
	if err != nil {
		p.Out.Event(progress.Certificate{Skipped: err.Error()}, "result certificate: none: %v", err)
		return nil
	}
	b, err := proto.Marshal(c)
	if err != nil {
		return fmt.Errorf("result certificate: %w", err)
	}
	path := filepath.Join(p.DataDir, "games", strings.TrimSuffix(filepath.Base(p.path), ".mjt")+".cert")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("result certificate: %w", err)
	}
	if err := WriteFile(path, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return fmt.Errorf("result certificate: %w", err)
	}
	p.Out.Event(progress.Certificate{Path: path}, "result certificate (signed by every player): %s\n  standings: mentalmj league %s", path, filepath.Dir(path))
	return nil
}

// reportEnd reports the final standings of a finished match and the
// node's peak RSS and CPU time.
func (p *playing) reportEnd() {
	g := p.g
	st := g.Standings()
	p.reportStandings(st, g.MatchOver())
	rss := peakRSSKiB()
	cpu := cpuTime()
	p.Out.Event(progress.Done{Hands: len(p.results), MatchOver: g.MatchOver(), PeakRSSKiB: rss, CPUMs: progress.Milliseconds(cpu)},
		"all %d hands audited ok (peak RSS %d KiB, CPU %s)", len(p.results), rss, cpu.Round(time.Millisecond))
}

// gameMsg is the table's line for the page: its name and settings
// (screen.SettingsMsg), in the page's language.
func gameMsg(name string, s settings.Settings) i18n.Msg {
	return i18n.M("game.table", name, screen.SettingsMsg(s))
}
