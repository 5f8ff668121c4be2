package tablerun

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
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
// resume transcript that does not fit), 3 the game stopped on a fault.
func Play(ctx context.Context, f *Table, ts Seat, stdout, stderr io.Writer) int {
	key, n, logger, out := ts.Key, ts.Node, ts.Log, ts.Out
	table, dataDir, nick, useBot := &f.Name, &f.DataDir, &f.Nick, &f.Bot
	mjlogPath, progressMode := &f.Mjlog, &f.Progress
	timeout, turnTimeout, decisionTimeout, connectTimeout := &f.Timeout, &f.TurnTimeout, &f.DecisionTimeout, &f.ConnectTimeout
	transcriptPath := &f.Transcript
	misbehavior := f.Misbehavior
	useUI, noOpen, uiLinger, passive := &f.UI, &f.NoOpen, &f.UILinger, &f.Passive
	infos := n.Peers()
	mjaiPlayer, code, ok := f.startMjaiBot(logger, out, stderr)
	if !ok {
		return code
	}
	if mjaiPlayer != nil {
		defer mjaiPlayer.Close()
	}

	path := *transcriptPath
	if path == "" {
		path = filepath.Join(*dataDir, "transcripts", fmt.Sprintf("%s-%s.mjt", safeName(*table), time.Now().UTC().Format("20060102T150405Z")))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
			return 2
		}
	}
	tr, gameSeed, records, err := f.openGame(n, path, len(infos)+1, rand.Reader)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 2
	}
	defer tr.Close()
	statePath := resume.File(f.DataDir, f.Name)
	var resumeFrom *protocol.Resume
	if records != nil {
		path = f.ResumeState.Transcript
		resumeFrom = &protocol.Resume{Records: records}
		if err := resumeFrom.Check(n.ID(), append(n.Peers(), n.ID())); err != nil {
			fmt.Fprintf(stderr, "mentalmj join: --resume: %s: %v\n", path, err)
			return 2
		}
		out.Event(map[string]any{"event": "resuming", "records": len(records), "path": path},
			"resuming the game at table %q from %d records of %s", *table, len(records), path)
		if changed := f.adoptHello(records[0].Entry.GetHello()); len(changed) > 0 {
			out.Event(map[string]any{"event": "resume-settings", "settings": changed},
				"resuming with the game's own settings: %s", strings.Join(changed, " "))
		}
	}
	out.Event(map[string]any{"event": "transcript", "path": path}, "transcript: %s", path)

	out.Event(map[string]any{"event": "connecting"}, "waiting for the other %d players…", len(infos))
	cctx, cancel := context.WithTimeout(ctx, *connectTimeout)
	err = n.Connect(cctx)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 1
	}
	out.Event(map[string]any{"event": "connected"}, "all players connected")
	awaitDirect(ctx, n, out)

	// The human's table view and prompts go to the terminal: stdout, or
	// stderr when stdout carries JSON progress for a launcher.
	screen := stdout
	if *progressMode == "json" {
		screen = stderr
	}
	var gameRef *protocol.Game
	var results []protocol.HandResult
	downloads := map[string]web.Download{
		"transcript": {File: filepath.Base(path), Type: "application/octet-stream", Write: func(w io.Writer) error {
			if err := tr.Sync(); err != nil {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(w, f)
			return err
		}},
		"mjlog": {File: safeName(*table) + ".mjlog.xml", Type: "application/xml", Write: func(w io.Writer) error {
			return mjlog.Write(w, gameRef.Record(results))
		}},
		"json": {File: safeName(*table) + ".json", Type: "application/json", Write: func(w io.Writer) error {
			l, err := tenhou6.Convert(gameRef.Record(results))
			if err != nil {
				return err
			}
			return l.Encode(w)
		}},
	}
	front := f.front
	if front != nil {
		// Confirm started the page already: it goes on.
		defer f.StopUI()
		front.srv.SetDownloads(downloads)
	} else {
		front, err = newFrontend(*useUI, *useBot || f.MjaiBot != "", os.Stdin, screen, downloads)
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj join: --ui: %v\n", err)
			return 2
		}
		uiCtx, stopUI := context.WithCancel(ctx)
		defer stopUI()
		front.serve(uiCtx, *noOpen, screen)
	}
	player := front.player
	defer showPaths(out, front.model)()
	front.model.SetGame(fmt.Sprintf("table %s: %s", *table, f.Play.Summary()))
	var clock *timecontrol.Clock // a human seat's time control
	if player != nil && !*passive && mjaiPlayer == nil {
		clock = timecontrol.NewClock(f.Play.Time)
		front.setClock(clock)
	}
	if player == nil {
		var seed [8]byte
		rand.Read(seed[:])
		player = botPlayer{bot.New(binary.LittleEndian.Uint64(seed[:]))}
	}
	if *passive {
		player = protocol.Tsumogiri{}
	}
	if mjaiPlayer != nil {
		player = mjaiPlayer
	}
	ids := append(n.Peers(), n.ID())
	allOK := true
	seated := false
	observer := &joinObserver{out: out, front: front, observe: func(o protocol.Observation) {
		if !seated && o.Seats != nil {
			seated = true
			names := verdict.Names{Seats: o.Seats, Nicks: gameRef.Nicks()}
			var seats, nicks []string
			line := ""
			for s, p := range o.Seats {
				seats, nicks = append(seats, p.String()), append(nicks, o.Nicks[s])
				out.Name(p, o.Nicks[s]) // path lines name the player from now on
				you := ""
				if game.Seat(s) == o.Seat {
					you = " (you)"
				}
				line += fmt.Sprintf("\n  %s%s in East 1  %s", names.Short(p, 0), you, p)
			}
			out.Event(map[string]any{"event": "seats", "seats": seats, "nicks": nicks, "self": int(o.Seat)},
				"seating (the winds turn with the dealer):%s", line)
		}
		front.Observe(o)
		if mjaiPlayer != nil {
			mjaiPlayer.Observe(o)
		}
	}}
	g, err := protocol.NewGame(protocol.Config{
		Table:           *table,
		Identity:        key,
		Peers:           ids,
		Nick:            *nick,
		Hands:           f.Play.Hands,
		Tonpuu:          f.Play.Tonpuu,
		NoProofs:        f.Play.NoProofs,
		PrivateHands:    f.Play.PrivateHands,
		Rules:           f.Play.Rules,
		Time:            f.Play.Time,
		Clock:           clock,
		NoPipeline:      f.NoPipeline,
		Transport:       n,
		Transcript:      tr,
		Player:          player,
		Timeout:         *timeout,
		TurnTimeout:     *turnTimeout,
		DecisionTimeout: *decisionTimeout,
		Logger:          logger,
		Observer:        observer,
		Misbehavior:     misbehavior,
		Rand:            protocol.SeedRand(gameSeed),
		ReconnectGrace:  f.ReconnectGrace,
		Resume:          resumeFrom,
		OnHand: func(r protocol.HandResult) {
			allOK = allOK && len(r.Blame) == 0 && len(r.Faults) == 0 && r.Yama != nil
			results = append(results, r)
			out.Hand(r, n.ID(), gameRef.Nicks(), gameRef.Players(), gameRef.Rules().Hand.Reds())
			front.HandDone(r)
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 2
	}
	gameRef = g
	_, err = g.Run(ctx)
	// The game is over, one way or another: nothing left to resume.
	if rerr := resume.Remove(statePath); rerr != nil {
		logger.Warn("could not remove the resume state", "err", rerr)
	}
	front.Finish(g, err)
	defer front.linger(ctx, *uiLinger, screen)
	if err != nil {
		hand := len(results)
		b, f := protocol.Verdict(err, n.ID(), hand)
		names := verdict.Names{Seats: g.Seats(), Nicks: g.Nicks()}
		if b != nil {
			out.Blame(*b, names, "at once")
			fmt.Fprintf(stderr, "mentalmj join: cheating proven: %v\n", err)
			return 1
		}
		out.Fault(*f, names)
		fmt.Fprintf(stderr, "mentalmj join: the game stopped: %v\n", err)
		return 3
	}
	if !allOK {
		return 1
	}
	jsonPath := f.JSON
	if jsonPath == "" {
		jsonPath = filepath.Join(*dataDir, "games", strings.TrimSuffix(filepath.Base(path), ".mjt")+".json")
	}
	if err := writeGameFiles(out, g.Record(results), *mjlogPath, jsonPath, g.Seats(), n.ID()); err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 1
	}
	st := g.Standings()
	if g.MatchOver() {
		name := verdict.Names{Seats: g.Seats(), Nicks: g.Nicks()}.Seat(-1)
		out.Event(map[string]any{"event": "standings", "order": st.Order, "scores": st.Scores, "points": st.Points}, "final standings (points with uma):\n%s", verdict.FormatStandingsOf(st, g.Players(), name))
	}
	rss := peakRSSKiB()
	cpu := cpuTime()
	out.Event(map[string]any{"event": "done", "hands": len(results), "match_over": g.MatchOver(), "peak_rss_kib": rss, "cpu_ms": progress.Milliseconds(cpu)},
		"all %d hands audited ok (peak RSS %d KiB, CPU %s)", len(results), rss, cpu.Round(time.Millisecond))
	return 0
}
