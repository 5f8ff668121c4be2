package mjaibot

import (
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
)

// TestMajiangAI seats @kobalab/majiang-ai (a rule-based AI from npm)
// behind testdata/majiang_shim.js at three seats for two hands. It runs
// only when $MENTALMJ_MAJIANG_NODE_PATH names a node_modules directory
// holding @kobalab/majiang-ai (npm install @kobalab/majiang-ai@1.0.13).
// Every decision must be followed: no warning about a bad or late reply.
func TestMajiangAI(t *testing.T) {
	t.Parallel()
	nodePath := os.Getenv("MENTALMJ_MAJIANG_NODE_PATH")
	if nodePath == "" {
		t.Skip("MENTALMJ_MAJIANG_NODE_PATH not set")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	players := make([]protocol.Player, protocol.Players)
	for i := 1; i < 4; i++ {
		p, err := Start(Config{Command: "NODE_PATH=" + nodePath + " node testdata/majiang_shim.js", Logger: logger})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		players[i] = p
	}
	results, _ := table(t, 2, 10*time.Second, players)
	for _, r := range results {
		if len(r.TimedOut) > 0 {
			t.Errorf("hand %d: timed out: %v", r.Number, r.TimedOut)
		}
	}
	if s := logs.String(); strings.Contains(s, "level=WARN") || strings.Contains(s, "level=ERROR") {
		t.Errorf("majiang-ai was not followed:\n%s", s)
	}
}
