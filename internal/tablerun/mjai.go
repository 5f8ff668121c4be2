package tablerun

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/player/mjaibot"
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
func (f *Table) startMjaiBot(logger *slog.Logger, out *progress.Reporter, stderr io.Writer) (p *mjaiSeat, code int, ok bool) {
	if f.MjaiBot == "" {
		return nil, 0, true
	}
	if f.DecisionTimeout == 0 {
		// Within the others' wait for a decision (the table's time
		// control plus a grace), less a margin for the message.
		f.DecisionTimeout = min(mjaiDecisionTimeout, max(f.TurnTimeout/2, f.TurnTimeout-5*time.Second))
	}
	logPath := filepath.Join(f.DataDir, "logs", fmt.Sprintf("%s-%s-mjai.log", safeName(f.Name), time.Now().UTC().Format("20060102T150405Z")))
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
	bot, err := mjaibot.Start(mjaibot.Config{Command: f.MjaiBot, Stderr: lf, Fallback: newBuiltinBot(), Logger: logger})
	if err != nil {
		lf.Close()
		return fail(err)
	}
	out.Event(progress.MjaiBot{Command: f.MjaiBot, Stderr: logPath}, "mjai bot: %s (its stderr: %s)", f.MjaiBot, logPath)
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
