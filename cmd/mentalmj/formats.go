package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/bot"
	"github.com/mentalmj/mentalmj/mjaibot"
	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/tenhou6"
)

// newBuiltinBot returns the built-in bot with a random seed.
func newBuiltinBot() botPlayer {
	var seed [8]byte
	rand.Read(seed[:])
	return botPlayer{bot.New(binary.LittleEndian.Uint64(seed[:]))}
}

// startMjaiBot starts the external mjai bot of --mjai-bot, if any: its
// stderr goes to DATA-DIR/logs/TABLE-TIME-mjai.log, its faults to logger,
// and the built-in bot takes the seat if it exits. A bot that does not
// start is a usage error (code 2), before anyone is waited for.
//
// Unless --decision-timeout is given, the bot gets mjaiDecisionTimeout
// per decision rather than a human's minutes, or less when the others
// wait less for a decision (a short --time).
func (f *tableFlags) startMjaiBot(logger *slog.Logger, out *reporter, stderr io.Writer) (p *mjaiSeat, code int, ok bool) {
	if f.mjaiBot == "" {
		return nil, 0, true
	}
	if f.decisionTimeout == 0 {
		// Within the others' wait for a decision (the table's time
		// control plus a grace), less a margin for the message.
		f.decisionTimeout = min(mjaiDecisionTimeout, max(f.turnTimeout/2, f.turnTimeout-5*time.Second))
	}
	logPath := filepath.Join(f.dataDir, "logs", fmt.Sprintf("%s-%s-mjai.log", safeName(f.table), time.Now().UTC().Format("20060102T150405Z")))
	fail := func(err error) (*mjaiSeat, int, bool) {
		fmt.Fprintf(stderr, "mentalmj join: --mjai-bot: %v\n", err)
		return nil, 2, false
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return fail(err)
	}
	lf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fail(err)
	}
	bot, err := mjaibot.Start(mjaibot.Config{Command: f.mjaiBot, Stderr: lf, Fallback: newBuiltinBot(), Logger: logger})
	if err != nil {
		lf.Close()
		return fail(err)
	}
	out.event(map[string]any{"event": "mjai_bot", "command": f.mjaiBot, "stderr": logPath}, "mjai bot: %s (its stderr: %s)", f.mjaiBot, logPath)
	return &mjaiSeat{Player: bot, log: lf}, 0, true
}

// mjaiDecisionTimeout is an mjai bot's default time per decision.
const mjaiDecisionTimeout = 30 * time.Second

// mjaiSeat is an mjai bot with the file its stderr goes to.
type mjaiSeat struct {
	*mjaibot.Player
	log *os.File
}

// Close ends the bot and closes its stderr file.
func (s *mjaiSeat) Close() error {
	err := s.Player.Close()
	s.log.Close()
	return err
}

// writeGameFiles writes the game record as tenhou.net/6 JSON to jsonPath
// (and as mjlog XML to mjlogPath when given) and reports both, with how to
// open the JSON: mentalmj view and the mjai-reviewer command for this
// player's seat (the tenhou.net/6 viewer link goes only into --progress
// json, as "viewer").
func writeGameFiles(out *reporter, rec *mjlog.Game, mjlogPath, jsonPath string, seats []peer.ID, self peer.ID) error {
	if mjlogPath != "" {
		if err := writeRecord(mjlogPath, rec); err != nil {
			return fmt.Errorf("--mjlog: %w", err)
		}
		out.event(map[string]any{"event": "mjlog", "path": mjlogPath}, "game record: %s", mjlogPath)
	}
	if rec.HasHidden() {
		out.event(map[string]any{"event": "json", "skipped": tenhou6.ErrHidden.Error()}, "tenhou.net/6 JSON: not written: %v", tenhou6.ErrHidden)
		if mjlogPath != "" {
			out.event(map[string]any{"event": "view", "path": mjlogPath}, "watch it again (your view): mentalmj view %s", mjlogPath)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(jsonPath), 0o755); err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	link, err := writeGameJSON(jsonPath, rec)
	if err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	seat := max(slices.Index(seats, self), 0)
	review := fmt.Sprintf("mjai-reviewer -e mortal -i %s -a %d", jsonPath, seat)
	out.event(map[string]any{"event": "json", "path": jsonPath, "review": review, "viewer": link},
		"tenhou.net/6 JSON: %s\n  review it with Mortal: %s\n  watch it again: mentalmj view %s", jsonPath, review, jsonPath)
	return nil
}

// parseMjaiBots reads local's --mjai-bot N=COMMAND values into a map from
// player number to command. It returns an error for a malformed value, a
// player outside 0..3, a player given twice, or player 0 with --play.
func parseMjaiBots(values []string, play bool) (map[int]string, error) {
	out := map[int]string{}
	for _, v := range values {
		n, c, ok := strings.Cut(v, "=")
		i, err := strconv.Atoi(n)
		switch {
		case !ok || err != nil || strings.TrimSpace(c) == "":
			return nil, fmt.Errorf("%q: want N=COMMAND with N the player number (0..3)", v)
		case i < 0 || i > 3:
			return nil, fmt.Errorf("%q: player %d outside 0..3", v, i)
		case play && i == 0:
			return nil, fmt.Errorf("%q: with --play you are player 0", v)
		}
		if _, dup := out[i]; dup {
			return nil, fmt.Errorf("player %d given twice", i)
		}
		out[i] = c
	}
	return out, nil
}

// printJSONRecord tells local's user where the tenhou.net/6 JSON is and
// how to open it (mentalmj view, mjai-reviewer); the review is for the seat of the player named name.
func printJSONRecord(w io.Writer, path, name string) {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(w, "tenhou.net/6 JSON: %v\n", err)
		return
	}
	var doc struct {
		Name []string `json:"name"`
	}
	json.Unmarshal(b, &doc)
	seat := max(slices.Index(doc.Name, name), 0)
	fmt.Fprintf(w, "tenhou.net/6 JSON: %s\n  review %s's play with Mortal: mjai-reviewer -e mortal -i %s -a %d\n  watch it again: mentalmj view %s\n",
		path, name, path, seat, path)
}
