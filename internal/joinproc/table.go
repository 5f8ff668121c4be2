package joinproc

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/node"
)

// Player is one player of a table, known before its process starts.
type Player struct {
	// Name is "player-I", I its index in the table (0-based).
	Name string
	// DataDir is DIR/player-I, which holds its identity.
	DataDir string
	// Transcript is DIR/player-I.mjt, the transcript it writes.
	Transcript string
	// Listen is its listen multiaddr, /ip4/127.0.0.1/tcp/PORT.
	Listen string
	// ID is the peer ID of its identity.
	ID peer.ID
}

// Table is the players of one table in a directory, and how each reaches
// the others.
type Table struct {
	Players []*Player
	ports   []int
	mesh    *latency.Mesh // nil: the players dial each other directly
}

// New seats n players in dir (which must exist): for player I the
// identity in DIR/player-I (created, or loaded if there is one), a free
// loopback port and the transcript path. With a non-zero link it starts a
// latency.Mesh between the players' ports, which ctx bounds and Close
// closes. It returns the errors of node.LoopbackPorts,
// node.LoadOrCreateIdentity and latency.NewMesh.
func New(ctx context.Context, dir string, n int, link latency.Link) (*Table, error) {
	ports, err := node.LoopbackPorts(n)
	if err != nil {
		return nil, err
	}
	t := &Table{ports: ports}
	for i := range n {
		p, err := newPlayer(dir, i, ports[i])
		if err != nil {
			return nil, err
		}
		t.Players = append(t.Players, p)
	}
	if !link.Zero() {
		if t.mesh, err = latency.NewMesh(ctx, ports, link, nil); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// newPlayer is player i of the table in dir, listening on port.
func newPlayer(dir string, i, port int) (*Player, error) {
	name := fmt.Sprintf("player-%d", i)
	p := &Player{
		Name:       name,
		DataDir:    filepath.Join(dir, name),
		Transcript: filepath.Join(dir, name+".mjt"),
		Listen:     fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port),
	}
	key, err := node.LoadOrCreateIdentity(p.DataDir)
	if err != nil {
		return nil, err
	}
	if p.ID, err = peer.IDFromPrivateKey(key); err != nil {
		return nil, err
	}
	return p, nil
}

// Close stops the latency mesh, if any. It returns nil.
func (t *Table) Close() error {
	if t.mesh == nil {
		return nil
	}
	return t.mesh.Close()
}

// PeerAddr is the multiaddr at which player i reaches player j: j's
// listen address, or the mesh's relay from i to j.
func (t *Table) PeerAddr(i, j int) string {
	if t.mesh != nil {
		return fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", t.mesh.Addr(i, j).Port, t.Players[j].ID)
	}
	return fmt.Sprintf("%s/p2p/%s", t.Players[j].Listen, t.Players[j].ID)
}

// Args returns the arguments that seat player i at the table named table:
// "join --table TABLE --name NAME --listen ADDR --data-dir DIR
// --transcript PATH --progress json" and a --peer PeerAddr(i, j) for every
// other player j. The caller appends the game's own flags.
func (t *Table) Args(i int, table string) []string {
	p := t.Players[i]
	args := []string{"join", "--table", table, "--name", p.Name, "--listen", p.Listen,
		"--data-dir", p.DataDir, "--transcript", p.Transcript, "--progress", "json"}
	for j := range t.Players {
		if j != i {
			args = append(args, "--peer", t.PeerAddr(i, j))
		}
	}
	return args
}
