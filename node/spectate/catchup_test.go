package spectate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
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
func lateSpectator(ctx context.Context, h host.Host, link Link) (*Watch, error) {
	w, err := NewWatch(ctx, h, link, Options{})
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

// TestWatchJoinsLate starts a spectator in the middle of hand 2 of three
// (the game slowed down so that it is still played): it catches up from
// the host (CatchUpProtocol), then audits hands 2 and 3 clean, with the
// match state hand 1 left (a player's own audit's), and exits 0; hand 1
// is not audited, and the watch says it joined late.
func TestWatchJoinsLate(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tb := newTestTable(t, ctx)
	sh := newHost(t, nil)
	var once sync.Once
	res := make(chan chan watched, 1)
	fail := make(chan error, 1)
	turns := 0
	tb.play(t, ctx, 3, func(e protocol.PublicEntry) {
		tb.pub.Publish(e)
		published := int(e.Index) + 1
		o, err := protocol.Open(e.Envelope)
		if err != nil || o.Entry.Hand < 2 {
			return
		}
		time.Sleep(8 * time.Millisecond) // hands 2 and 3 at a pace a spectator can join
		if o.Entry.GetTurn() != nil {
			turns++
		}
		if turns == 6 {
			once.Do(func() {
				go func() {
					// Once the host has sent what it was given so far
					// (its first message waits up to 2 s for a spectator,
					// and with none there hand 1 may still be queued):
					// a spectator joining while hand 1 is still going
					// out takes it from the topic, as it should.
					for {
						tb.pub.cu.mu.Lock()
						sent := len(tb.pub.cu.history)
						tb.pub.cu.mu.Unlock()
						if sent >= published {
							break
						}
						time.Sleep(10 * time.Millisecond)
					}
					w, err := lateSpectator(ctx, sh, tb.link)
					if err != nil {
						fail <- err
						return
					}
					res <- runWatch(ctx, w)
				}()
			})
		}
	})
	var r watched
	select {
	case err := <-fail:
		t.Fatal(err)
	case ch := <-res:
		select {
		case r = <-ch:
		case <-time.After(20 * time.Second):
			t.Fatal("the late spectator did not finish")
		}
	case <-ctx.Done():
		t.Fatal("no late spectator")
	}
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
	if !slices.Equal(got, []int{2, 3}) {
		var first []string
		for _, o := range r.entries[:min(30, len(r.entries))] {
			first = append(first, fmt.Sprintf("%d:%s", o.Entry.Hand, o.Kind()))
		}
		t.Fatalf("the late spectator audited hands %v, want [2 3]; it took %d entries, the first %v", got, len(r.entries), first)
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
		once.Do(func() {
			go func() {
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
			}()
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
	// first entries, or nothing).
	if served != 2 || refused != 39 {
		t.Errorf("the host served %d and refused %d catch-ups, want 2 and 39", served, refused)
	}
}
