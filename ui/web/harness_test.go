package web

import (
	"context"
	"crypto/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// botTable is four in-process nodes on a memnet.Network: the first
// is played through this package's page, the three others by bots.
type botTable struct {
	model  *screen.Model
	player *Player
	srv    *Server
	ids    []peer.ID // the players' peer IDs, the UI node's first

	mu      sync.Mutex
	obs     protocol.Observation // the UI node's latest observation
	results []protocol.HandResult
	err     error
	game    *protocol.Game // the UI node's game
	done    chan struct{}
	// hold is how long the UI node holds the next deal after each hand
	// while the page shows its result (screen.Model.WaitResult, as
	// package tablerun does); held[n] is how long it held after hand n,
	// and dealt[n] when the UI node first saw hand n's kyoku (its deal).
	hold  time.Duration
	held  map[int]time.Duration
	dealt map[int]time.Time
}

// startTable starts the four nodes and the page's server; they stop when
// ctx ends. decision bounds the human's decisions.
// hold is the UI node's hold after each hand (0 none).
// lang, if given, is the page's language (Config.Lang).
func startTable(t testing.TB, ctx context.Context, hands int, decision, hold time.Duration, lang ...string) *botTable {
	t.Helper()
	return startTableWith(t, ctx, hands, decision, hold, strings.Join(lang, ""), timecontrol.Off)
}

// startTableWith is startTable with the table's language and a time
// control tc, which the UI seat's clock (shown on its page) keeps.
func startTableWith(t testing.TB, ctx context.Context, hands int, decision, hold time.Duration, lang string, tc timecontrol.Control) *botTable {
	t.Helper()
	net := memnet.New()
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
	bt := &botTable{model: screen.NewModel(map[string]string{"transcript": "/download/transcript"}), done: make(chan struct{}), hold: hold, held: map[int]time.Duration{}, dealt: map[int]time.Time{}}
	bt.ids = ids
	bt.player = NewPlayer(bt.model)
	srv, err := Listen(Config{Model: bt.model, Player: bt.player, Lang: lang})
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
			Time: tc,
		}
		if i == 0 {
			cfg.Player = bt.player
			cfg.DecisionTimeout = decision
			if !tc.IsOff() {
				cfg.Clock = timecontrol.NewClock(tc)
				bt.model.SetClock(cfg.Clock)
			}
			cfg.Observer = protocol.ObserverFunc(func(o protocol.Observation) {
				bt.mu.Lock()
				bt.obs = o
				if _, ok := bt.dealt[o.Hand]; !ok && o.View != nil {
					bt.dealt[o.Hand] = time.Now()
				}
				bt.mu.Unlock()
				bt.model.Observe(o)
			})
			cfg.OnHand = func(r protocol.HandResult) {
				bt.mu.Lock()
				bt.results = append(bt.results, r)
				last := hands > 0 && len(bt.results) == hands
				bt.mu.Unlock()
				bt.model.HandDone(r)
				if last { // as package tablerun does (isLastHand)
					bt.model.MarkLastHand()
				}
				t0 := time.Now()
				bt.model.WaitResult(ctx, bt.hold)
				bt.mu.Lock()
				bt.held[r.Number] = time.Since(t0)
				bt.mu.Unlock()
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
