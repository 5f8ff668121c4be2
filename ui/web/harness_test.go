package web

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// botTable is four in-process nodes on a protocol.MemNetwork: the first
// is played through this package's page, the three others by bots.
type botTable struct {
	model  *screen.Model
	player *Player
	srv    *Server

	mu      sync.Mutex
	obs     protocol.Observation // the UI node's latest observation
	results []protocol.HandResult
	err     error
	game    *protocol.Game // the UI node's game
	done    chan struct{}
	// checked takes the test's word that it has checked a hand's
	// end-of-hand screen: until then the UI node does not start the
	// next hand. With the pipelined setup (the default) the next hand
	// asks the player for a decision a few milliseconds after a hand
	// ends, and the page then hides the end-of-hand screen by design.
	checked chan struct{}
}

// startTable starts the four nodes and the page's server; they stop when
// ctx ends. decision bounds the human's decisions.
func startTable(t testing.TB, ctx context.Context, hands int, decision time.Duration) *botTable {
	t.Helper()
	net := protocol.NewMemNetwork()
	var keys []crypto.PrivKey
	var ids []peer.ID
	for range protocol.Players {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		keys, ids = append(keys, k), append(ids, id)
	}
	bt := &botTable{model: screen.NewModel(map[string]string{"transcript": "/download/transcript"}), done: make(chan struct{}), checked: make(chan struct{}, hands)}
	bt.player = NewPlayer(bt.model)
	srv, err := Listen(Config{Model: bt.model, Player: bt.player})
	if err != nil {
		t.Fatal(err)
	}
	bt.srv = srv
	go srv.Serve(ctx)
	nicks := []string{"alice", "bot-ayame", "bot-botan", "bot-chidori"}
	var wg sync.WaitGroup
	for i := range protocol.Players {
		cfg := protocol.Config{
			Table: "ui-test", Identity: keys[i], Peers: ids, Nick: nicks[i], Hands: hands,
			Transport: net.Transport(ids[i]), Timeout: 20 * time.Second, TurnTimeout: decision + 10*time.Second,
		}
		if i == 0 {
			cfg.Player = bt.player
			cfg.DecisionTimeout = decision
			cfg.Observer = protocol.ObserverFunc(func(o protocol.Observation) {
				bt.mu.Lock()
				bt.obs = o
				bt.mu.Unlock()
				bt.model.Observe(o)
			})
			cfg.OnHand = func(r protocol.HandResult) {
				bt.mu.Lock()
				bt.results = append(bt.results, r)
				bt.mu.Unlock()
				bt.model.HandDone(r)
				if r.Number < hands && !r.Aborted {
					select {
					case <-bt.checked:
					case <-ctx.Done():
					}
				}
			}
		} else {
			b := bot.New(uint64(i))
			cfg.Player = protocol.PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return b.Choose(v, s) })
		}
		g, err := protocol.NewGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			bt.game = g
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := g.Run(ctx)
			if err != nil {
				net.Disconnect(ids[i])
			}
			if i == 0 {
				bt.mu.Lock()
				bt.err = err
				bt.mu.Unlock()
				var st *game.Standings
				if g.MatchOver() {
					s := g.Standings()
					st = &s
				}
				bt.model.Finish(st, err)
			}
		}()
	}
	go func() { wg.Wait(); close(bt.done) }()
	return bt
}

// observation returns the UI node's latest observation.
func (bt *botTable) observation() protocol.Observation {
	bt.mu.Lock()
	defer bt.mu.Unlock()
	return bt.obs
}
