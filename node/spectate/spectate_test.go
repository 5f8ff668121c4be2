package spectate

import (
	"bytes"
	"context"
	"crypto/rand"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	ppb "github.com/mentalmj/mentalmj/protocol/pb"
)

// newHost returns a libp2p host on 127.0.0.1 with identity k (a fresh
// one for nil).
func newHost(t *testing.T, k crypto.PrivKey) host.Host {
	t.Helper()
	opts := []libp2p.Option{libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics()}
	if k != nil {
		opts = append(opts, libp2p.Identity(k))
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func connect(t *testing.T, ctx context.Context, a, b host.Host) {
	t.Helper()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
}

// testTable is four players whose game runs over memnet and whose
// spectator topic runs over real libp2p hosts on 127.0.0.1, player 0
// hosting and publishing (pub).
type testTable struct {
	keys        []crypto.PrivKey
	ids         []peer.ID
	hosts       []host.Host
	pub         *Publisher
	transcripts []*bytes.Buffer
	link        Link
}

func newTestTable(t *testing.T, ctx context.Context) *testTable {
	tb := &testTable{}
	for range 4 {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		h := newHost(t, k)
		tb.keys, tb.ids, tb.hosts = append(tb.keys, k), append(tb.ids, h.ID()), append(tb.hosts, h)
		tb.transcripts = append(tb.transcripts, &bytes.Buffer{})
	}
	for i := 1; i < 4; i++ {
		for j := range i {
			connect(t, ctx, tb.hosts[i], tb.hosts[j])
		}
	}
	tb.link = Link{Table: "watched", Host: tb.ids[0], Addrs: tb.hosts[0].Addrs()}
	p, err := NewPublisher(ctx, tb.hosts[0], tb.link.Table, tb.ids, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb.pub = p
	return tb
}

// play plays hands hands; publish may replace the host's Publish.
func (tb *testTable) play(t *testing.T, ctx context.Context, hands int, publish func(e protocol.PublicEntry)) {
	t.Helper()
	net := memnet.New()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 4 {
		var pub func(protocol.PublicEntry) // only the host publishes
		if i == 0 {
			pub = tb.pub.Publish
			if publish != nil {
				pub = publish
			}
		}
		g, err := protocol.NewGame(protocol.Config{Table: tb.link.Table, Identity: tb.keys[i], Peers: tb.ids, Hands: hands,
			Transport: net.Transport(tb.ids[i]), Transcript: protocol.NewTranscript(tb.transcripts[i]), Timeout: 20 * time.Second, Publish: pub})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = g.Run(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("player %d: %v", i, err)
		}
	}
	tb.pub.Close(2 * time.Second)
}

// spectator starts a watcher that dials the host, and waits until it
// has the host among the topic's peers.
func spectator(t *testing.T, ctx context.Context, link Link) *Watch {
	t.Helper()
	return spectatorWith(t, ctx, link, Options{})
}

// spectatorWith is spectator with the watcher's options opt.
func spectatorWith(t *testing.T, ctx context.Context, link Link, opt Options) *Watch {
	t.Helper()
	h := newHost(t, nil)
	w, err := NewWatch(ctx, h, link, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if err := h.Connect(ctx, link.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	for !slices.Contains(w.s.topic.ListPeers(), link.Host) {
		select {
		case <-ctx.Done():
			t.Fatal("the spectator never saw the host subscribed")
		case <-time.After(20 * time.Millisecond):
		}
	}
	time.Sleep(1500 * time.Millisecond) // a gossipsub heartbeat: the mesh
	return w
}

type watched struct {
	hands   []HandVerdict
	entries []*protocol.Opened
	// shownBefore[h] are the positions whose tiles were public before
	// hand h's first key reveal was taken.
	shownBefore map[uint32]map[int]bool
	code        int
	err         error
}

func runWatch(ctx context.Context, w *Watch) chan watched {
	out := make(chan watched, 1)
	go func() {
		var r watched
		r.shownBefore = map[uint32]map[int]bool{}
		revealed := map[uint32]bool{}
		rep, err := w.Run(ctx, func(o *protocol.Opened) {
			r.entries = append(r.entries, o)
			e := o.Entry
			if e.GetKeyReveal() != nil {
				revealed[e.Hand] = true
			}
			if revealed[e.Hand] {
				return
			}
			m := r.shownBefore[e.Hand]
			if m == nil {
				m = map[int]bool{}
				r.shownBefore[e.Hand] = m
			}
			for _, p := range publicPositions(e) {
				m[p] = true
			}
		}, func(v HandVerdict) { r.hands = append(r.hands, v) })
		r.err = err
		if rep != nil {
			r.code = rep.ExitCode()
		}
		out <- r
	}()
	return out
}

// publicPositions returns the yama positions whose keys an entry makes
// public: a public key release, or tiles shown by a turn, call or
// declaration.
func publicPositions(e *ppb.Entry) []int {
	var ps []uint32
	if kr := e.GetKeyRelease(); kr != nil {
		ps = append(ps, kr.Positions...)
	}
	for _, sh := range []*ppb.Shown{e.GetTurn().GetShown(), e.GetCall().GetShown(), e.GetDeclare().GetShown()} {
		ps = append(ps, sh.GetPositions()...)
	}
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = int(p)
	}
	return out
}

// concealed returns, per hand, the positions privately released to a
// drawer in a player's full transcript (its haipai and draws, and the
// others') that no public entry of the hand ever showed: the concealed
// hands at the hand's end, from the players' side.
func concealed(t *testing.T, transcript []byte) map[uint32][]int {
	recs, err := protocol.LoadRecords(bytes.NewReader(transcript), "player")
	if err != nil {
		t.Fatal(err)
	}
	private, shown := map[uint32]map[int]bool{}, map[uint32]map[int]bool{}
	for _, r := range recs {
		o, err := protocol.Open(r.Envelope)
		if err != nil {
			t.Fatal(err)
		}
		e := o.Entry
		if private[e.Hand] == nil {
			private[e.Hand], shown[e.Hand] = map[int]bool{}, map[int]bool{}
		}
		if kr := e.GetKeyRelease(); kr != nil && o.Recipient != "" {
			for _, p := range kr.Positions {
				private[e.Hand][int(p)] = true
			}
			continue
		}
		for _, p := range publicPositions(e) {
			shown[e.Hand][p] = true
		}
	}
	out := map[uint32][]int{}
	for h, m := range private {
		for p := range m {
			if !shown[h][p] {
				out[h] = append(out[h], p)
			}
		}
	}
	return out
}

// A spectator watching a two-hand game over gossipsub verifies it: each
// hand audits with no blame or fault once its keys are revealed, and the
// final verdict exits 0, as `mentalmj audit` of a player's transcript
// does. Before a hand's reveal, no entry it took showed a tile that was
// concealed at the hand's end (checked against a player's own
// transcript, which holds the private key releases). A second spectator
// that publishes game entries of its own is rejected by the validators,
// named, and the game completes.
func TestWatchVerifiesGame(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tb := newTestTable(t, ctx)
	w := spectator(t, ctx, tb.link)
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	res := runWatch(wctx, w)

	var rejected sync.Map
	tb.pub.s.opt.OnReject = func(r Rejection) { rejected.Store(r.Author, r.Reason) }
	// The rogue: a spectator that publishes an entry it signed itself,
	// as if it were the host.
	rk, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	rogue := newHost(t, rk)
	rs, err := join(ctx, rogue, tb.link.Table, tb.ids[0], append(slices.Clone(tb.ids), rogue.ID()), true, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rs.close()
	rs.host = rogue.ID() // its own validator takes it for the host, so that it sends
	connect(t, ctx, rogue, tb.hosts[0])
	for !slices.Contains(rs.topic.ListPeers(), tb.ids[0]) {
		time.Sleep(20 * time.Millisecond)
	}
	o, err := protocol.Seal(rk, &ppb.Entry{Hand: 1, Seq: 0, Sender: []byte(rogue.ID()), Body: &ppb.Entry_Hello{Hello: &ppb.Hello{Table: tb.link.Table}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := proto.Marshal(&pb.Published{Envelope: o.Envelope, Index: 0})
	if err := rs.topic.Publish(ctx, b, pubsub.WithReadiness(pubsub.MinTopicSize(1))); err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		if _, ok := rejected.Load(rogue.ID()); ok {
			break
		}
	}

	tb.play(t, ctx, 2, nil)
	var r watched
	select {
	case r = <-res:
	case <-time.After(10 * time.Second):
		wcancel()
		r = <-res
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.code != 0 || len(r.hands) != 2 {
		t.Fatalf("spectator: exit code %d, %d hands: %v; %d entries taken; gaps %v; rejections %v", r.code, len(r.hands), r.hands, len(r.entries), w.Gaps(), w.Rejections())
	}
	for _, v := range r.hands {
		if !v.OK() || !strings.Contains(v.String(), "wall verified") {
			t.Errorf("spectator's hand: %s", v)
		}
	}
	// What the spectator took is what player 0's audit takes: the same
	// walls, and after the reveal the same whole hand as a Tenhou round
	// (what a replay view draws).
	full := protocol.AuditTranscript(mustRecords(t, tb.transcripts[0].Bytes()))
	for i, v := range r.hands {
		if !slices.Equal(v.Audit.Yama, full.Hands[i].Yama) {
			t.Errorf("hand %d: the spectator's wall differs from player 0's audit", i+1)
		}
		if v.Audit.Record == nil || full.Hands[i].Record == nil || !reflect.DeepEqual(v.Audit.Record, full.Hands[i].Record) {
			t.Errorf("hand %d: the spectator's replayed round differs from player 0's (or is missing)", i+1)
		}
	}
	for h, ps := range concealed(t, tb.transcripts[0].Bytes()) {
		if h == 0 || int(h) > len(r.hands) {
			continue
		}
		if len(ps) == 0 {
			t.Errorf("hand %d: no concealed tile at the end (the check could not fail)", h)
		}
		for _, p := range ps {
			if r.shownBefore[h][p] {
				t.Errorf("hand %d: position %d, concealed at the end, was public before the key reveal", h, p)
			}
		}
	}
	dahai := 0
	for _, o := range r.entries {
		if strings.Contains(EventLine(o, func(p peer.ID) string { return p.String() }), " dahai ") {
			dahai++
		}
	}
	if dahai < 8 {
		t.Errorf("the spectator's view shows %d discards in two hands", dahai)
	}
	for _, o := range r.entries {
		if o.Sender == rogue.ID() {
			t.Errorf("the spectator took the rogue's entry %d", o.Entry.Seq)
		}
	}
	if why, ok := rejected.Load(rogue.ID()); !ok || !strings.Contains(why.(string), "only the table's host") {
		t.Errorf("the host's validator did not reject the rogue spectator %s as not the host: %v", rogue.ID(), why)
	}
}

func mustRecords(t *testing.T, b []byte) []protocol.Record {
	recs, err := protocol.LoadRecords(bytes.NewReader(b), "player")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A published entry altered on the way (its signature no longer
// verifies) is rejected by the spectator's validator, naming the host as
// its publisher (the host's own validator takes its own publications
// unchecked: what it publishes, its game checked); the spectator never
// takes it nor anything after it (the later entries wait for it, or never
// come: peer scoring graylists the host after an invalid message), names
// the host's entry that never came if later ones did, and its verdict is
// not "verified".
func TestWatchRejectsTamperedEntry(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tb := newTestTable(t, ctx)
	w := spectator(t, ctx, tb.link)
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	res := runWatch(wctx, w)
	tb.play(t, ctx, 1, func(e protocol.PublicEntry) {
		if e.Index == 5 {
			env := bytes.Clone(e.Envelope)
			env[len(env)/2] ^= 1
			e.Envelope = env
		}
		tb.pub.Publish(e)
	})
	time.Sleep(2 * time.Second)
	wcancel()
	r := <-res
	if r.code == 0 {
		t.Fatal("the spectator verified a game one of whose entries was refused")
	}
	if !slices.ContainsFunc(w.Rejections(), func(r Rejection) bool {
		return r.Author == tb.ids[0] && r.From == tb.ids[0] && strings.Contains(r.Reason, "entry 5 does not verify")
	}) {
		t.Errorf("no rejection of the spectator's validator names the host's entry 5: %v", w.Rejections())
	}
	if len(r.entries) != 5 {
		t.Errorf("the spectator took %d entries, want the 5 before the altered one", len(r.entries))
	}
	if gaps := w.Gaps(); len(gaps) > 0 && !strings.Contains(gaps[tb.ids[0]], "entry 5 never came") {
		t.Errorf("the spectator does not name the host's missing entry 5: %v", gaps)
	}
	for _, rej := range w.Rejections() {
		if rej.Author != tb.ids[0] {
			t.Errorf("the spectator rejected a message of another peer than the host: %s", rej)
		}
	}
}
