package settings

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings/pb"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// The issue's own example of what a guest is shown.
func TestSummaryExample(t *testing.T) {
	s := Default()
	s.PrivateHands = true
	want := "4 players, hanchan, Tenhou rules (red fives, open tanyao), 5+10 s per decision, private hands"
	if got := s.Summary(); got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
	s = Default()
	s.Players, s.Tonpuu, s.Hands, s.Time, s.NoProofs = 3, true, 2, timecontrol.Off, true
	if got := s.Summary(); !strings.HasPrefix(got, "3 players, 2 hands of a tonpuu, ") || !strings.HasSuffix(got, ", no time limit, no proofs") {
		t.Errorf("Summary() = %q", got)
	}
}

// variants returns settings covering every field: each preset, a switch
// on top, sanma, tonpuu, hands, time controls, proofs and private hands.
func variants(t *testing.T) []Settings {
	var out []Settings
	for _, name := range rules.PresetNames() {
		r, err := rules.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		s := Default()
		s.Rules = r
		out = append(out, s)
	}
	s := Default()
	if err := s.Rules.Apply("aka=0"); err != nil {
		t.Fatal(err)
	}
	out = append(out, s)
	s = Default()
	s.Players, s.Tonpuu, s.Hands = 3, true, 4
	out = append(out, s)
	s = Default()
	s.Time, s.PrivateHands = timecontrol.Control{Base: 3 * time.Second, Bank: 0}, true
	out = append(out, s)
	s = Default()
	s.Time, s.NoProofs = timecontrol.Off, true
	out = append(out, s)
	return out
}

// Every setting survives the wire: encoded, serialized, parsed and
// decoded, the settings are the same game, and any two different
// variants differ.
func TestProtoRoundTrip(t *testing.T) {
	vs := variants(t)
	for i, s := range vs {
		b, err := proto.Marshal(s.Proto())
		if err != nil {
			t.Fatal(err)
		}
		var m pb.Settings
		if err := proto.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		got, err := FromProto(&m)
		if err != nil {
			t.Fatalf("variant %d (%s): %v", i, s.Summary(), err)
		}
		if err := got.Diff(s); err != nil || got != s {
			t.Errorf("variant %d came back as %+v: %v", i, got, err)
		}
		for j, o := range vs {
			if i != j && s.Diff(o) == nil {
				t.Errorf("variants %d and %d read as the same game: %s", i, j, s.Summary())
			}
		}
	}
	// The preset's own switches do not travel: Tenhou's rules are short.
	if n := len(Default().Proto().Rules.Switches); n != 0 {
		t.Errorf("the default rules send %d switches, want none", n)
	}
}

// What this build cannot honour is ErrUnknown (a configuration fault);
// what no build can play is ErrInvalid.
func TestFromProtoRefuses(t *testing.T) {
	unknownField := protowire.AppendVarint(protowire.AppendTag(nil, 42, protowire.VarintType), 7)
	for name, c := range map[string]struct {
		change func(m *pb.Settings)
		want   error
	}{
		"unknown switch":     {func(m *pb.Settings) { m.Rules.Switches = []string{"moonlight=on"} }, ErrUnknown},
		"unknown preset":     {func(m *pb.Settings) { m.Rules.Preset = "riichi-city" }, ErrUnknown},
		"settings field":     {func(m *pb.Settings) { m.ProtoReflect().SetUnknown(unknownField) }, ErrUnknown},
		"rules field":        {func(m *pb.Settings) { m.Rules.ProtoReflect().SetUnknown(unknownField) }, ErrUnknown},
		"time field":         {func(m *pb.Settings) { m.Time.ProtoReflect().SetUnknown(unknownField) }, ErrUnknown},
		"other preset table": {func(m *pb.Settings) { m.Rules.Digest[0] ^= 1 }, ErrUnknown},
		"impossible value":   {func(m *pb.Settings) { m.Rules.Switches = []string{"aka=5"} }, ErrInvalid},
		"no digest":          {func(m *pb.Settings) { m.Rules.Digest = nil }, ErrInvalid},
		"5 players":          {func(m *pb.Settings) { m.Players = 5 }, ErrInvalid},
		"length":             {func(m *pb.Settings) { m.Length = "west" }, ErrInvalid},
		"hands":              {func(m *pb.Settings) { m.Hands = 1 << 30 }, ErrInvalid},
		"private no proofs":  {func(m *pb.Settings) { m.PrivateHands, m.NoProofs = true, true }, ErrInvalid},
		"no rules":           {func(m *pb.Settings) { m.Rules = nil }, ErrInvalid},
		"no time":            {func(m *pb.Settings) { m.Time = nil }, ErrInvalid},
		"time off and base":  {func(m *pb.Settings) { m.Time.Off = true }, ErrInvalid},
	} {
		m := Default().Proto()
		c.change(m)
		if _, err := FromProto(m); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if _, err := FromProto(nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil: %v", err)
	}
}

func TestDiffNames(t *testing.T) {
	a, b := Default(), Default()
	a.Hands, b.Hands = 3, 1
	if err := a.Diff(b); err == nil || err.Error() != "wants 3 hands, we want 1" {
		t.Errorf("Diff = %v", err)
	}
	b = Default()
	b.Time = timecontrol.Off
	if err := Default().Diff(b); err == nil || !strings.Contains(err.Error(), "5+10") {
		t.Errorf("Diff = %v", err)
	}
}

func parseFlags(t *testing.T, withPlayers bool, args ...string) *Flags {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f Flags
	f.Register(fs, withPlayers)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &f
}

func TestFlags(t *testing.T) {
	s, err := parseFlags(t, true, "--players", "3", "--tonpuu", "--hands", "2", "--rules", "mleague", "--rule", "tobi=off", "--time", "3+20", "--private-hands").Settings(4)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := rules.Preset("mleague")
	if err := want.Apply("tobi=off"); err != nil {
		t.Fatal(err)
	}
	if s.Players != 3 || !s.Tonpuu || s.Hands != 2 || s.Rules != want || s.Time.String() != "3+20" || !s.PrivateHands {
		t.Errorf("settings %+v", s)
	}
	if s, err := parseFlags(t, false).Settings(4); err != nil || s != Default() {
		t.Errorf("no flags: %+v %v, want Default()", s, err)
	}
	for args, flagName := range map[string]string{
		"--rules nowhere":             "--rules",
		"--rule aka=5":                "--rule aka=5",
		"--rule moon=on":              "--rule moon=on",
		"--time 5-10":                 "--time",
		"--hands -1":                  "--hands",
		"--players 5":                 "--players",
		"--private-hands --no-proofs": "--private-hands",
	} {
		_, err := parseFlags(t, true, strings.Fields(args)...).Settings(4)
		if err == nil || !strings.Contains(err.Error(), flagName) {
			t.Errorf("%s: %v, want an error naming %s", args, err, flagName)
		}
	}
	if _, err := parseFlags(t, false, "--time", "soon").Settings(4); err == nil || !strings.Contains(err.Error(), "off") {
		t.Errorf("a malformed --time does not list the forms: %v", err)
	}
}

// Game plays the host's settings when there is an invite (the flags may
// only repeat them: a guest's --hands 1 against the host's 3 is refused,
// --players is the invite's), and the flags' otherwise.
func TestGame(t *testing.T) {
	host := Default()
	host.Hands, host.Players = 3, 3
	if got, err := parseFlags(t, false, "--tonpuu=false").Game(&host, 4); err != nil || got != host {
		t.Errorf("a guest repeating the host: %+v, %v; want the host's %+v", got, err, host)
	}
	if _, err := parseFlags(t, false, "--hands", "1").Game(&host, 4); err == nil || !strings.Contains(err.Error(), "--hands 1") {
		t.Errorf("a guest contradicting the host: %v", err)
	}
	got, err := parseFlags(t, false, "--hands", "1").Game(nil, 3)
	if err != nil || got.Hands != 1 || got.Players != 3 || got.Rules != Default().Rules {
		t.Errorf("without an invite: %+v, %v; want the flags' 1 hand at 3 players", got, err)
	}
	if _, err := parseFlags(t, false, "--rules", "nowhere").Game(nil, 4); err == nil {
		t.Error("an unknown preset without an invite: no error")
	}
}

// A guest's flags may repeat the host's settings, never contradict them;
// the error names the flag and the host's value.
func TestContradicts(t *testing.T) {
	host := Default()
	host.Hands, host.Time = 3, timecontrol.Control{Base: 5 * time.Second, Bank: 10 * time.Second}
	for _, args := range [][]string{{}, {"--hands", "3"}, {"--time", "5+10"}, {"--rules", "tenhou"}, {"--rule", "aka=3"}, {"--tonpuu=false"}} {
		if err := parseFlags(t, false, args...).Contradicts(host); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	for args, want := range map[string]string{
		"--hands 1":       "--hands 1, but the host's table plays 3 hands",
		"--tonpuu":        "a hanchan",
		"--time off":      "5+10",
		"--rules mleague": "Tenhou rules",
		"--rule aka=0":    "--rule aka=0",
		"--no-proofs":     "with proofs",
		"--private-hands": "open hands",
	} {
		err := parseFlags(t, false, strings.Fields(args)...).Contradicts(host)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

// The proof system travels as its wire name: "log" for the default, the
// field's absence for the first release's arguments (so older Hellos and
// transcripts read as ProofsTW), and an unknown name is a newer
// program's setting.
func TestProofSystem(t *testing.T) {
	s := Default()
	if s.ProofSystem() != ProofsLog || s.Proto().Proofs != "log" {
		t.Fatalf("default: %q on the wire %q, want log", s.ProofSystem(), s.Proto().Proofs)
	}
	if got, err := FromProto(s.Proto()); err != nil || got != s {
		t.Fatalf("default round trip: %+v, %v", got, err)
	}
	tw := Default()
	tw.Proofs = ProofsTW
	m := tw.Proto()
	if m.Proofs != "" {
		t.Fatalf("tw on the wire %q, want the empty string", m.Proofs)
	}
	if got, err := FromProto(m); err != nil || got.ProofSystem() != ProofsTW {
		t.Fatalf("tw round trip: %+v, %v", got, err)
	}
	if err := s.Diff(tw); err == nil || !strings.Contains(err.Error(), "--proofs") {
		t.Fatalf("Diff(log, tw) = %v", err)
	}
	m = s.Proto()
	m.Proofs = "snark"
	if _, err := FromProto(m); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown proof system: %v, want ErrUnknown", err)
	}
	bad := Default()
	bad.Proofs = "snark"
	if err := bad.Check(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Check(snark) = %v", err)
	}
}

// Spectators travels in the wire form and two tables that disagree on it
// are different games, named by the flag.
func TestSpectatorsSetting(t *testing.T) {
	s := Default()
	s.Spectators = 20
	back, err := FromProto(s.Proto())
	if err != nil || back.Spectators != 20 || !back.Equal(s) {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	if err := Default().Diff(s); err == nil || !strings.Contains(err.Error(), "--spectators") {
		t.Errorf("no spectators vs 20: %v", err)
	}
	m := s.Proto()
	m.Spectators = maxSpectators + 1
	if _, err := FromProto(m); !errors.Is(err, ErrInvalid) {
		t.Errorf("%d spectators accepted: %v", m.Spectators, err)
	}
}
