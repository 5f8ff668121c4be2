package protocol

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	spb "github.com/mentalmj/mentalmj/riichi/settings/pb"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// A Hello whose match length is neither "hanchan" nor "tonpuu" is a
// signed malformed message, blamed on its signer by every node (not a
// configuration mismatch: no table plays it).
func TestHelloUnknownLengthBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		e.GetHello().Settings.Length = "tonpuusen"
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectBlame(t, out, tb.ids[3], "invalid hello")
	for i, o := range out {
		if o.err == nil || !strings.Contains(o.err.Error(), `match length "tonpuusen"`) {
			t.Errorf("player %d: %v, want the match length named", i, o.err)
		}
	}
}

// The offline audit judges a Hello's length as the live nodes do: four
// Hellos that agree on an unknown length are not a game of some default
// length but a malformed message, blamed on the first Hello's signer with
// it as evidence.
func TestOfflineAuditBlamesUnknownLength(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	var recs []Record
	for i, key := range tb.keys {
		e := properHello(tb, "test")
		e.Sender = []byte(tb.ids[i])
		e.GetHello().Settings.Length = "west"
		o, err := Seal(key, e)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, Record{Index: i + 1, Envelope: o.Envelope})
	}
	a := AuditTranscript(recs)
	if len(a.Blame) != 1 || a.Blame[0].Peer != tb.ids[0] || !strings.Contains(a.Blame[0].Reason, `match length "west"`) {
		t.Fatalf("blame %v, faults %v; want a blame of %s for the match length", a.Blame, a.Faults, tb.ids[0])
	}
	if ev := a.Blame[0].Evidence; len(ev) != 1 || ev[0].Kind != "hello" || ev[0].Sender != tb.ids[0] {
		t.Errorf("evidence %v, want the first hello", ev)
	}
}

// helloChange is a Hello that player 3 sends with change applied, and
// the text the configuration fault naming it must hold.
type helloChange struct {
	name   string
	change func(h *pb.Hello)
	reason string
}

// expectHelloConfigFaults plays each change at a table of four (player 3
// sending the changed Hello) and checks that every other node ends on a
// configuration fault naming player 3 whose reason holds the change's.
func expectHelloConfigFaults(t *testing.T, changes []helloChange) {
	t.Helper()
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t)
			out := playThree(t, tb, func(ctx context.Context, tr Transport) {
				e := properHello(tb, "test")
				c.change(e.GetHello())
				sendAll(ctx, t, tb, tr, tb.keys[3], e)
			})
			expectFault(t, out, tb.ids[3], FaultConfig, c.reason)
		})
	}
}

// A Hello whose settings differ from the table's is a configuration fault
// naming its sender on every node, whichever setting differs: never a
// blame (it follows other settings, it does not cheat).
func TestHelloOtherSettingsIsAConfigFault(t *testing.T) {
	t.Parallel()
	expectHelloConfigFaults(t, []helloChange{
		{"hands", func(h *pb.Hello) { h.Settings.Hands = 3 }, "wants 3 hands, we want 1"},
		{"tonpuu", func(h *pb.Hello) { h.Settings.Length = "tonpuu" }, `wants a "tonpuu" match`},
		{"time", func(h *pb.Hello) {
			b, k, off := timecontrol.Default.Millis()
			h.Settings.Time = &spb.TimeControl{BaseMs: b, BankMs: k, Off: off}
		}, "time control 5+10, we play off"},
		{"private hands", func(h *pb.Hello) { h.Settings.PrivateHands = true }, "private_hands = true"},
		{"spectators", func(h *pb.Hello) { h.Settings.Spectators = 20 }, "admits 20 spectators, we admit 0"},
	})
}

// A Hello whose settings carry what this build does not know — a rule
// switch, a preset, or a field of a newer program — is a configuration
// fault naming its sender on every node, never a blame and never a panic.
func TestHelloUnknownSettingsIsAConfigFault(t *testing.T) {
	t.Parallel()
	expectHelloConfigFaults(t, []helloChange{
		{"rule switch", func(h *pb.Hello) { h.Settings.Rules.Switches = []string{"moonlight-haitei=on"} }, "moonlight-haitei"},
		{"preset", func(h *pb.Hello) { h.Settings.Rules.Preset = "riichi-city" }, "riichi-city"},
		{"settings field", func(h *pb.Hello) {
			h.Settings.ProtoReflect().SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 1))
		}, "does not know"},
		{"rules field", func(h *pb.Hello) {
			h.Settings.Rules.ProtoReflect().SetUnknown(protowire.AppendString(protowire.AppendTag(nil, 7, protowire.BytesType), "x"))
		}, "does not know"},
	})
}

// A node of the previous protocol version, mentalmj/3, sends its
// settings in the fields 6 to 10 this version reserved and none in
// settings: a configuration mismatch naming it, never a blame for the
// fields it lacks.
func TestOlderVersionHelloIsAConfigFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		h := e.GetHello()
		h.Version, h.Settings = "mentalmj/3", nil
		// hands = 1, length = "hanchan", players = 4, as mentalmj/3 wrote them.
		var old []byte
		old = protowire.AppendVarint(protowire.AppendTag(old, 6, protowire.VarintType), 1)
		old = protowire.AppendString(protowire.AppendTag(old, 7, protowire.BytesType), "hanchan")
		old = protowire.AppendVarint(protowire.AppendTag(old, 9, protowire.VarintType), 4)
		h.ProtoReflect().SetUnknown(old)
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectFault(t, out, tb.ids[3], FaultConfig, `protocol version "mentalmj/3"`)
}

// The offline audit judges unknown settings as the live nodes do: a
// configuration fault naming the sender, no blame.
func TestOfflineAuditUnknownRuleIsAFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	var recs []Record
	for i, key := range tb.keys {
		e := properHello(tb, "test")
		e.Sender = []byte(tb.ids[i])
		if i == 2 {
			e.GetHello().Settings.Rules.Switches = []string{"moonlight-haitei=on"}
		}
		o, err := Seal(key, e)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, Record{Index: i + 1, Envelope: o.Envelope})
	}
	a := AuditTranscript(recs)
	if len(a.Blame) != 0 || len(a.Faults) != 1 || a.Faults[0].Peer != tb.ids[2] || a.Faults[0].Kind != FaultConfig {
		t.Fatalf("blame %v, faults %v; want one configuration fault of %s", a.Blame, a.Faults, tb.ids[2])
	}
}

// A game whose Hellos agree on a time control plays with it, and each
// player's own Clock limits its decisions: a Player that never decides
// is acted for once the base and the bank have run out, and the
// transcript's message says timed_out.
func TestClockActsForPlayer(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	tc := timecontrol.Control{Base: 100 * time.Millisecond, Bank: 100 * time.Millisecond}
	stall := PlayerFunc(func(ctx context.Context, _ *game.Kyoku, _ game.Seat) (game.Action, error) {
		<-ctx.Done()
		return game.Action{}, ctx.Err()
	})
	out := tb.play(t, 1, func(i int, c *Config) {
		c.Time = tc
		c.TurnTimeout = tc.Wait(10*time.Second, 0)
		if i == 0 {
			// Only the clock can act for it in time: its decision timeout
			// is longer than the others' wait.
			c.Clock, c.Player, c.DecisionTimeout = timecontrol.NewClock(tc), stall, time.Minute
		}
	})
	for i, o := range out {
		if o.err != nil || len(o.results) != 1 {
			t.Fatalf("player %d: %v", i, o.err)
		}
		r := o.results[0]
		if len(r.TimedOut) == 0 || r.TimedOut[0] != tb.ids[0] {
			t.Fatalf("player %d: timed out %v, want player 0 named", i, r.TimedOut)
		}
		for _, p := range r.TimedOut {
			if p != tb.ids[0] {
				t.Errorf("player %d: %s named as timed out, only player 0 stalls", i, p)
			}
		}
	}
}
