package spectate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
	"github.com/mentalmj/mentalmj/protocol"
)

// lateSpectator is spectator without testing.T's Fatal (it runs on a
// goroutine of the game's): a watcher dialling the host, once the host is
// among its topic's peers.
func lateSpectator(ctx context.Context, h host.Host, link Link, opt Options) (*Watch, error) {
	w, err := NewWatch(ctx, h, link, opt)
	if err != nil {
		return nil, err
	}
	if err := h.Connect(ctx, link.AddrInfo()); err != nil {
		return nil, err
	}
	for !slices.Contains(w.s.topic.ListPeers(), link.Host) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return w, nil
}

// joinLate plays hands hands at a test table, slowed down from hand 2 on
// so that it is still played when a spectator starts, six turns into hand
// 2 (once the host has sent what it was given so far: its first message
// waits up to 2 s for a spectator, and with none there hand 1 may still
// be queued, and a spectator joining while hand 1 is still going out
// takes it from the topic, as it should), with opt. before, if not nil, runs just
// before the spectator starts; a stop > 0 stops the spectator that long
// after the game (one that cannot finish). It returns what the late
// spectator took, the Watch, and the table.
func joinLate(t *testing.T, ctx context.Context, hands int, opt Options, before func(tb *testTable), stop time.Duration) (watched, *Watch, *testTable) {
	t.Helper()
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	tb := newTestTable(t, ctx)
	sh := newHost(t, nil)
	var once sync.Once
	type started struct {
		w   *Watch
		res chan watched
	}
	res := make(chan started, 1)
	fail := make(chan error, 1)
	turns := 0
	tb.play(t, ctx, hands, func(e protocol.PublicEntry) {
		tb.pub.Publish(e)
		published := int(e.Index) + 1
		o, err := protocol.Open(e.Envelope)
		if err != nil || o.Entry.Hand < 2 {
			return
		}
		time.Sleep(8 * time.Millisecond) // hands 2 on at a pace a spectator can join
		if o.Entry.GetTurn() != nil {
			turns++
		}
		if turns == 6 {
			once.Do(func() {
				go func() {
					for {
						tb.pub.cu.mu.Lock()
						sent := len(tb.pub.cu.history)
						tb.pub.cu.mu.Unlock()
						if sent >= published {
							break
						}
						time.Sleep(10 * time.Millisecond)
					}
					if before != nil {
						before(tb)
					}
					w, err := lateSpectator(wctx, sh, tb.link, opt)
					if err != nil {
						fail <- err
						return
					}
					res <- started{w, runWatch(wctx, w)}
				}()
			})
		}
	})
	if stop > 0 {
		time.AfterFunc(stop, wcancel)
	}
	select {
	case err := <-fail:
		t.Fatal(err)
	case st := <-res:
		select {
		case r := <-st.res:
			return r, st.w, tb
		case <-time.After(20 * time.Second):
			served, refused := tb.pub.CatchUps()
			t.Fatalf("the late spectator did not finish: records %d gaps %v catch-ups served %d refused %d", len(st.w.Records()), st.w.Gaps(), served, refused)
		}
	case <-ctx.Done():
		t.Fatal("no late spectator")
	}
	return watched{}, nil, nil
}

// TestWatchJoinsLate starts a spectator in the middle of hand 2 of three
// (the game slowed down so that it is still played): it catches up from
// the host (CatchUpProtocol) on the whole game so far, then audits every
// hand clean — hand 1, over before it joined, included — each with the
// match state and wall of a player's own audit, and exits 0.
func TestWatchJoinsLate(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	r, w, tb := joinLate(t, ctx, 3, Options{}, nil, 0)
	if r.err != nil || r.code != 0 {
		t.Fatalf("late spectator: exit %d, %v", r.code, r.err)
	}
	var got []int
	for _, v := range r.hands {
		got = append(got, v.Hand)
		if !v.OK() {
			t.Errorf("hand %d: %s", v.Hand, v)
		}
	}
	if !slices.Equal(got, []int{1, 2, 3}) {
		var first []string
		for _, o := range r.entries[:min(30, len(r.entries))] {
			first = append(first, fmt.Sprintf("%d:%s", o.Entry.Hand, o.Kind()))
		}
		t.Fatalf("the late spectator audited hands %v, want [1 2 3]; it took %d entries, the first %v", got, len(r.entries), first)
	}
	// It did join late: hand 1's entries came from the catch-up (the
	// topic had carried them before it came), and none was left out.
	if w.CaughtUp() == 0 || w.Joined() {
		t.Errorf("the late spectator took %d entries from the catch-up (joined with a gap: %v)", w.CaughtUp(), w.Joined())
	}
	full := protocol.AuditTranscript(mustRecords(t, tb.transcripts[1].Bytes()))
	for _, v := range r.hands {
		want := full.Hands[v.Hand-1]
		if v.Audit.Deal.Scores != want.Deal.Scores || v.Audit.Deal.Round != want.Deal.Round || v.Audit.Deal.Honba != want.Deal.Honba || !slices.Equal(v.Audit.Yama, want.Yama) {
			t.Errorf("hand %d from %+v, the player's audit's %+v (same wall %v)", v.Hand, v.Audit.Deal, want.Deal, slices.Equal(v.Audit.Yama, want.Yama))
		}
	}
	if r.entries[0].Entry.GetHello() == nil {
		t.Errorf("the first entry taken is a %s, not a Hello", r.entries[0].Kind())
	}
	// One catch-up, and under load perhaps a repair of an entry lost
	// before the host's mesh took the spectator in.
	if served, _ := tb.pub.CatchUps(); served < 1 || served > 3 {
		t.Errorf("the host answered %d catch-ups, want 1 (or a repair or two)", served)
	}
}

// A host whose catch-up leaves indexes out, as the catch-up's first
// version did (the Hellos, hand 1's nonces and the hand in play only;
// here hand 1's other entries are taken out of the host's history before
// the spectator joins in hand 2): the spectator skips the gaps, audits
// hands 2 and 3 clean from the match state their nonce commitments state
// (protocol.TranscriptAudit.Joined), and says it joined with a gap.
func TestWatchJoinsLateWithGaps(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	r, w, _ := joinLate(t, ctx, 3, Options{}, func(tb *testTable) {
		tb.pub.cu.mu.Lock()
		defer tb.pub.cu.mu.Unlock()
		var keep []sent
		for _, s := range tb.pub.cu.history {
			var m pb.Published
			if proto.Unmarshal(s.data, &m) != nil {
				continue
			}
			o, err := protocol.Open(m.Envelope)
			if err != nil {
				continue
			}
			e := o.Entry
			if e.Hand == 0 || e.Hand >= 2 || e.GetNonceCommit() != nil || e.GetNonceReveal() != nil {
				keep = append(keep, s)
			}
		}
		tb.pub.cu.history = keep
	}, 0)
	if r.err != nil || r.code != 0 {
		t.Fatalf("late spectator: exit %d, %v", r.code, r.err)
	}
	var got []int
	for _, v := range r.hands {
		got = append(got, v.Hand)
		if !v.OK() {
			t.Errorf("hand %d: %s", v.Hand, v)
		}
	}
	if !slices.Equal(got, []int{2, 3}) || !w.Joined() {
		t.Errorf("the late spectator audited hands %v (joined with a gap: %v), want [2 3] and a gap", got, w.Joined())
	}
}

// A late spectator whose catch-up takes several answers (the host's
// answers bounded to 64 KiB, a hand's public entries are about 150 KB)
// asks again from where each answer stopped, as often as the host's
// limit allows, and still audits every hand clean, the one over before
// it came included.
func TestWatchLateCatchUpInParts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	const every = 300 * time.Millisecond
	r, w, tb := joinLate(t, ctx, 3, Options{CatchUpEvery: every}, func(tb *testTable) {
		tb.pub.cu.mu.Lock()
		tb.pub.cu.bytes, tb.pub.cu.every = 64<<10, every
		tb.pub.cu.mu.Unlock()
	}, 0)
	if r.err != nil || r.code != 0 {
		t.Fatalf("late spectator: exit %d, %v (gaps %v)", r.code, r.err, w.Gaps())
	}
	var got []int
	for _, v := range r.hands {
		got = append(got, v.Hand)
		if !v.OK() {
			t.Errorf("hand %d: %s", v.Hand, v)
		}
	}
	if !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("the late spectator audited hands %v, want [1 2 3]", got)
	}
	if served, refused := tb.pub.CatchUps(); served < 3 {
		t.Errorf("the host answered %d catch-ups (refused %d): hand 1 alone takes more than two answers of 64 KiB", served, refused)
	}
}

// A host whose catch-up carries an altered entry of a hand over before
// the spectator joined (hand 1's first key reveal, its signature broken
// in the host's own history after it went out on the topic) is named:
// the spectator rejects it as it rejects a topic message, takes nothing
// from it on, names the host's entry that never came, and does not say
// the game verified.
func TestWatchLateRejectsTamperedCatchUp(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var bad uint64
	r, w, tb := joinLate(t, ctx, 2, Options{}, func(tb *testTable) {
		tb.pub.cu.mu.Lock()
		defer tb.pub.cu.mu.Unlock()
		for i, s := range tb.pub.cu.history {
			var m pb.Published
			if proto.Unmarshal(s.data, &m) != nil {
				continue
			}
			o, err := protocol.Open(m.Envelope)
			if err != nil || o.Entry.Hand != 1 || o.Entry.GetKeyReveal() == nil {
				continue
			}
			m.Envelope = slices.Clone(m.Envelope)
			m.Envelope[len(m.Envelope)-3] ^= 1 // in the signature
			b, _ := proto.Marshal(&m)
			tb.pub.cu.history[i].data = b
			bad = m.Index
			return
		}
	}, 3*time.Second)
	if r.code == 0 {
		t.Fatalf("the spectator verified a game whose catch-up held an altered entry")
	}
	if bad == 0 {
		t.Fatal("no key reveal of hand 1 in the host's history (the test could not fail)")
	}
	want := fmt.Sprintf("entry %d does not verify", bad)
	if !slices.ContainsFunc(w.Rejections(), func(x Rejection) bool {
		return x.Author == tb.ids[0] && strings.Contains(x.Reason, "catch-up") && strings.Contains(x.Reason, want)
	}) {
		t.Errorf("no rejection names the host %s and %q: %v", tb.ids[0], want, w.Rejections())
	}
	if len(r.hands) != 0 {
		t.Errorf("the spectator audited hands %v past the altered entry", r.hands)
	}
	if g := w.Gaps()[tb.ids[0]]; !strings.Contains(g, fmt.Sprintf("entry %d never came", bad)) {
		t.Errorf("the spectator does not name the host's missing entry %d: %q", bad, g)
	}
}

// askCatchUp opens the catch-up stream to the host as a spectator would
// and returns the messages and bytes it got, or the stream's error.
func askCatchUp(ctx context.Context, h host.Host, to peer.ID, table string) (n, size int, err error) {
	st, err := h.NewStream(ctx, to, CatchUpProtocol)
	if err != nil {
		return 0, 0, err
	}
	defer st.Close()
	if _, err := protodelim.MarshalTo(st, &pb.CatchUpRequest{Table: table}); err != nil {
		return 0, 0, err
	}
	_ = st.CloseWrite()
	r := bufio.NewReader(st)
	for {
		var m pb.Published
		err := (protodelim.UnmarshalOptions{MaxSize: MaxMessageSize}).UnmarshalFrom(r, &m)
		if errors.Is(err, io.EOF) {
			return n, size, nil
		}
		if err != nil {
			return n, size, err
		}
		n++
		size += proto.Size(&m)
	}
}

// TestCatchUpLimited: a peer that asks the host for the catch-up again
// and again while the game is played gets one answer, bounded in bytes
// (Options.CatchUpBytes), and every other request is refused (the stream
// reset, nothing sent); so is a request for another table. The game
// never notices: a spectator there from the start audits every hand
// clean.
func TestCatchUpLimited(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tb := newTestTable(t, ctx)
	const bound = 64 << 10
	tb.pub.cu.bytes = bound
	w := spectator(t, ctx, tb.link)
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	res := runWatch(wctx, w)
	greedy := newHost(t, nil)
	connect(t, ctx, greedy, tb.hosts[0])
	type answer struct {
		n, size int
		err     error
	}
	var mu sync.Mutex
	var answers []answer
	var once sync.Once
	done := make(chan struct{})
	turns := 0
	tb.play(t, ctx, 2, func(e protocol.PublicEntry) {
		tb.pub.Publish(e)
		if o, _ := protocol.Open(e.Envelope); o.Entry.GetTurn() != nil {
			turns++
		}
		if turns < 10 {
			return
		}
		// On the game's goroutine: the host's game waits for the 40
		// requests, which so all come while it is played (asked from a
		// goroutine of their own, a loaded run's last ones came after
		// the host had left the topic, and were not refused but unheard).
		once.Do(func() {
			defer close(done)
			for i := range 40 {
				table := tb.link.Table
				if i == 1 {
					table = "another"
				}
				n, size, err := askCatchUp(ctx, greedy, tb.ids[0], table)
				mu.Lock()
				answers = append(answers, answer{n, size, err})
				mu.Unlock()
			}
		})
	})
	<-done
	var r watched
	select {
	case r = <-res:
	case <-time.After(10 * time.Second):
		wcancel()
		r = <-res
	}
	if r.err != nil || r.code != 0 || len(r.hands) != 2 {
		t.Fatalf("the spectator from the start: exit %d, %d hands, %v", r.code, len(r.hands), r.err)
	}
	for _, v := range r.hands {
		if !v.OK() {
			t.Errorf("%s", v)
		}
	}
	if a := answers[0]; a.err != nil || a.n == 0 || a.size > bound {
		t.Errorf("the first catch-up: %d messages, %d bytes (bound %d), %v", a.n, a.size, bound, a.err)
	}
	for i, a := range answers[1:] {
		if a.err == nil || a.n != 0 {
			t.Errorf("catch-up %d: %d messages, %v; want refused", i+2, a.n, a.err)
		}
	}
	served, refused := tb.pub.CatchUps()
	// The spectator from the start asked once too (and got the game's
	// first entries, or nothing), and may ask again for a gap or a silence
	// of its own (a loaded run served it twice): the greedy peer's answers
	// are checked one by one above; here, that every refusal was its.
	if served < 2 || refused != 39 {
		t.Errorf("the host served %d and refused %d catch-ups, want 2 or more and 39", served, refused)
	}
}

// A spectator that gossip never reaches (here the host's entries go to
// its catch-up history only, as when the host's mesh never took the
// spectator in: a fresh-clone CI run's spectator got no message of a
// whole game) hears nothing, so it sees no gap; it asks the host once it
// has been silent for its catch-up interval, and audits the game from
// the answers.
func TestWatchDeafToGossipAsksTheHost(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tb := newTestTable(t, ctx)
	const every = 300 * time.Millisecond
	tb.pub.cu.mu.Lock()
	tb.pub.cu.every = every
	tb.pub.cu.mu.Unlock()
	w := spectatorWith(t, ctx, tb.link, Options{CatchUpEvery: every})
	wctx, wcancel := context.WithTimeout(ctx, 40*time.Second)
	defer wcancel()
	res := runWatch(wctx, w)
	// The game starts once the spectator's first catch-up is answered
	// (with nothing): all it gets after that, it must ask for.
	waitFirstCatchUp(t, ctx, tb)
	tb.play(t, ctx, 2, func(e protocol.PublicEntry) { historyOnly(t, tb, e) })
	r := <-res
	if r.err != nil || r.code != 0 || len(r.hands) != 2 {
		t.Fatalf("a spectator gossip never reached: exit %d, %d hands audited, %v; %d entries taken", r.code, len(r.hands), r.err, len(r.entries))
	}
	if served, _ := tb.pub.CatchUps(); served < 2 {
		t.Errorf("the host answered %d catch-ups; the first (before the game) held nothing", served)
	}
}

// A spectator the host's Hello never reached by gossip (the host
// published it before its mesh held the spectator: a fresh-clone CI
// run's spectator held every later message for the Hello, ignored them
// and took nothing) asks the host for it at once, although its first
// catch-up, before the game, was answered (with nothing) less than the
// host's limit ago: that answer does not count. It audits the game,
// which here ends, with the host's catch-up, 2 s after its last entry:
// far within the 10 s limit and the spectator's 10 s of silence before
// it asks on its own.
func TestWatchMissingHelloAsksTheHost(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tb := newTestTable(t, ctx)
	w := spectator(t, ctx, tb.link)
	wctx, wcancel := context.WithTimeout(ctx, 40*time.Second)
	defer wcancel()
	res := runWatch(wctx, w)
	waitFirstCatchUp(t, ctx, tb)
	withheld := false
	tb.play(t, ctx, 2, func(e protocol.PublicEntry) {
		if o, err := protocol.Open(e.Envelope); err == nil && o.Sender == tb.ids[0] && o.Entry.GetHello() != nil {
			withheld = true
			historyOnly(t, tb, e)
			return
		}
		tb.pub.Publish(e)
	})
	if !withheld {
		t.Fatal("the host published no Hello of its own")
	}
	r := <-res
	if r.err != nil || r.code != 0 || len(r.hands) != 2 {
		t.Fatalf("a spectator the host's Hello did not reach: exit %d, %d hands audited, %v; %d entries taken", r.code, len(r.hands), r.err, len(r.entries))
	}
}

// waitFirstCatchUp waits until the host has answered a spectator's first
// catch-up (with nothing, before the game).
func waitFirstCatchUp(t *testing.T, ctx context.Context, tb *testTable) {
	t.Helper()
	for served, _ := tb.pub.CatchUps(); served == 0; served, _ = tb.pub.CatchUps() {
		select {
		case <-ctx.Done():
			t.Fatal("the spectator never asked for its first catch-up")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// historyOnly puts e in the host's catch-up history, never on the topic:
// a message gossip lost.
func historyOnly(t *testing.T, tb *testTable, e protocol.PublicEntry) {
	m := &pb.Published{Envelope: e.Envelope, Index: e.Index}
	b, err := proto.Marshal(m)
	if err != nil {
		t.Error(err)
		return
	}
	tb.pub.cu.record(m, b)
}
