package tablerun

import (
	"context"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// Table is one player's game at a table, as join or host checked its
// flags. Play may change it: a resumed game takes Nick and Play from its
// own first Hello, and an mjai bot without a DecisionTimeout gets one.
type Table struct {
	// Name is the table's name; DataDir holds the identity, transcripts,
	// games, logs and resume state.
	Name, DataDir string
	// Nick is this player's nickname.
	Nick string
	// Bot plays with the built-in bot; MjaiBot, if set, is the command of
	// an external mjai bot that plays instead (join --mjai-bot).
	Bot     bool
	MjaiBot string
	// Transcript, Mjlog and JSON are the record paths ("" for the
	// defaults: Play's doc says which, and no mjlog).
	Transcript, Mjlog, JSON string
	// Progress is "json" for JSON progress events on stdout (the table
	// and the prompts then go to stderr), else text.
	Progress string
	// Timeout, TurnTimeout and DecisionTimeout are the protocol's waits
	// (protocol.Config); ConnectTimeout bounds the wait for every peer;
	// ReconnectGrace is how long a lost peer may take to come back.
	Timeout, TurnTimeout, DecisionTimeout time.Duration
	ConnectTimeout, ReconnectGrace        time.Duration
	// NoPipeline plays without the pipelined setup (join
	// --no-pipeline); by default each hand's passes are prepared during
	// the hand before (SPEC.md §22).
	NoPipeline bool
	// Misbehavior is a research cheat (package player/cheat); nil for an honest node.
	Misbehavior protocol.Misbehavior
	// UI serves the browser table (NoOpen: print its URL only), kept up
	// UILinger after the game; Passive always discards the drawn tile.
	UI, NoOpen, Passive bool
	UILinger            time.Duration
	// ResumeState is the game to resume after a crash, or nil for a new one.
	ResumeState *resume.State
	// Play is the game the table plays: players, match, rules, time control.
	Play settings.Settings
	// SpectateHost names the table's spectator topic (package
	// node/spectate) when Play admits spectators: the host's peer ID
	// (host, and join with an invite); "" takes the one the resume state
	// saved (--resume), else the lowest of the players' peer IDs
	// (join --peer).
	SpectateHost peer.ID
	// Lang is the language the player asked for (--lang; package i18n):
	// "" lets the browser table speak the browser's language and the
	// terminal the system's.
	Lang string

	// front and stopUI are the browser table Confirm started, which Play
	// takes over.
	front  *frontend
	stopUI context.CancelFunc
}

// Seat is the started node of a player: its identity key, the libp2p
// node with the table's peers set, its logger and progress reporter.
type Seat struct {
	Key  crypto.PrivKey
	Node *node.Node
	Log  *slog.Logger
	Out  *progress.Reporter
}
