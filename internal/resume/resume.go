// Package resume keeps, in a node's data directory, what the node needs to
// pick a game up again after it crashed or was killed: the game's secret
// seed, the table and its peers, and where its transcript is.
//
// # The model
//
// A node's secrets in a game — nonces, SRA keys, permutations, per-position
// keys — are all read, in the game's order, from one random source:
// protocol.SeedRand(seed), the ChaCha20 keystream under a 32-byte seed.
// Before its first message the node writes the seed, with the table, the
// peers' addresses and the transcript's path, to DATA-DIR/resume/TABLE.json,
// mode 0600, and syncs it to disk. Its transcript is appended and written
// through as the game goes. Restarted with --resume, the node reads the
// file, reopens the transcript (dropping a record cut short by the crash),
// and replays it with the same seed (protocol.Config.Resume): it computes
// the same secrets again, so nothing secret is ever stored elsewhere or
// sent twice. A game that ends, however it ends, removes its file.
//
// The file is the one secret of the data directory besides the identity
// key: anyone who reads it learns the node's keys for the whole game.
package resume

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
)

// State is one game in progress, as kept on disk.
type State struct {
	// Table is the table name.
	Table string `json:"table"`
	// Players is the number of players, 3 or 4.
	Players int `json:"players"`
	// Peers are the other players' full multiaddrs, each ending in
	// /p2p/<peer id> (several per peer when it had several).
	Peers []string `json:"peers"`
	// Listen are the multiaddrs the node listened on, so that a restart
	// listens where the others redial.
	Listen []string `json:"listen"`
	// Transcript is the path of the game's transcript file.
	Transcript string `json:"transcript"`
	// Seed is the game's secret seed, protocol.SeedSize bytes (base64 in
	// the file).
	Seed []byte `json:"seed"`
	// Started is when the game started (UTC).
	Started time.Time `json:"started"`
	// SpectateHost is the peer ID (text) the table's spectator topic is
	// named after (SPEC.md §25: the host's, the one its watch link
	// names), "" when the game started without one; a resumed game keeps
	// publishing where its spectators listen.
	SpectateHost string `json:"spectate_host,omitempty"`
}

// ErrNoGame is wrapped by Load's error when the data directory holds no
// game in progress at the table.
var ErrNoGame = errors.New("no game in progress to resume")

// File returns the path of the state file of table in dataDir:
// DATA-DIR/resume/TABLE.json, the table name with every character outside
// [A-Za-z0-9._-] replaced by '_'.
func File(dataDir, table string) string {
	safe := strings.Map(func(r rune) rune {
		if r < 128 && (r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, table)
	return filepath.Join(dataDir, "resume", safe+".json")
}

// Save writes st to path with mode 0600 and syncs it to disk before it
// returns (written to a temporary file, synced, renamed over path, and the
// directory synced), so that a crash at any moment leaves either no file
// or the whole of it. It creates the directory (0700) if needed. Errors
// name the path.
func Save(path string, st State) error {
	if len(st.Seed) != protocol.SeedSize {
		return fmt.Errorf("resume: seed of %d bytes, want %d", len(st.Seed), protocol.SeedSize)
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".resume-*")
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("resume: %s: %w", path, err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("resume: %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("resume: %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("resume: %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Load reads the state file at path. Errors name the path: ErrNoGame
// (wrapped) when there is none, or a description of what is wrong with it
// (unreadable, not JSON, a seed of the wrong size, no transcript).
func Load(path string) (State, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, fmt.Errorf("%s: %w (the game finished or ended, or was never started with this --data-dir)", path, ErrNoGame)
	}
	if err != nil {
		return State{}, fmt.Errorf("resume: %w", err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		return State{}, fmt.Errorf("resume: %s: not a resume file: %w", path, err)
	}
	switch {
	case len(st.Seed) != protocol.SeedSize:
		return State{}, fmt.Errorf("resume: %s: seed of %d bytes, want %d", path, len(st.Seed), protocol.SeedSize)
	case st.Transcript == "":
		return State{}, fmt.Errorf("resume: %s: names no transcript", path)
	case st.Players != 3 && st.Players != 4:
		return State{}, fmt.Errorf("resume: %s: %d players, want 3 or 4", path, st.Players)
	}
	return st, nil
}

// Remove deletes the state file at path once the game has ended; a file
// already gone is not an error.
func Remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("resume: %w", err)
	}
	return nil
}
