package settings

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// Flags are the command-line flags that choose a table's settings: the
// host's (mentalmj host), and those of a player who gives the others'
// addresses itself (join --peer, local). A guest with an invite plays the
// host's settings; Contradicts finds a flag it gave that says otherwise.
type Flags struct {
	fs           *pflag.FlagSet
	hands        int
	tonpuu       bool
	players      int
	preset       string
	switches     switchList
	time         string
	noProofs     bool
	privateHands bool
	noPipeline   bool
	proofs       string
	spectators   int
}

// switchList collects the repeatable --rule flag.
type switchList []string

func (l *switchList) String() string     { return strings.Join(*l, ",") }
func (l *switchList) Set(v string) error { *l = append(*l, v); return nil }
func (l *switchList) Type() string       { return "NAME=VALUE" }
func (l *switchList) GetSlice() []string { return *l }

// Register defines the flags on fs: --hands, --tonpuu, --rules, --rule,
// --time, --no-proofs, --private-hands, --no-pipeline, --proofs, --spectators, and --players when
// withPlayers.
func (f *Flags) Register(fs *pflag.FlagSet, withPlayers bool) {
	f.fs = fs
	fs.IntVar(&f.hands, "hands", 0, "number of hands to play; 0 (the default) plays the whole match")
	fs.BoolVar(&f.tonpuu, "tonpuu", false, "play an east-only match (tonpuu) instead of a hanchan")
	fs.StringVar(&f.preset, "rules", rules.Default().Preset, "house rules preset: "+strings.Join(rules.PresetNames(), ", ")+" (mentalmj rules lists them)")
	fs.Var(&f.switches, "rule", "a house rule switch NAME=VALUE on top of --rules, repeatable (mentalmj rules lists the switches and their values)")
	fs.StringVar(&f.time, "time", timecontrol.Default.String(), "time control of a human seat, BASE+BANK seconds: BASE per decision, and a bank for each hand that pays for longer ones (Tenhou's 5+10); off: no limit (bots and mjai seats keep their own --decision-timeout)")
	fs.BoolVar(&f.noProofs, "no-proofs", false, "play without zero-knowledge proofs of the shuffle and rekey passes (a bad pass is then caught only at the end of the hand); all players must agree")
	fs.BoolVar(&f.privateHands, "private-hands", false, "private hands: at the end of a hand reveal only the keys the rules need (a riichi loser's hand), so the losers' concealed hands and the unseen wall stay private, even from the audit, which then checks every proof and shown tile but not the whole wall; needs the proofs; all players must agree; each player's --mjlog record is its own view (unseen tiles hidden) and no tenhou.net/6 JSON is written")
	fs.BoolVar(&f.noPipeline, "no-pipeline", false, "turn the pipelined setup off: by default the next hand's shuffle and rekey passes, with their proofs, are prepared while this hand is played, so that a hand starts two message times after the previous one ends; with this flag each hand runs its whole setup after the previous one; all players must agree")
	fs.StringVar(&f.proofs, "proofs", ProofsLog, "the shuffle and rekey arguments: log (logarithmic size, about 2.4 KB and 0.8 KB a pass; SPEC §12.1, §13.1) or tw (the first release's Terelius–Wikström and Chaum–Pedersen arguments, 22 KB and 8.7 KB a pass); all players must agree")
	fs.IntVar(&f.spectators, "spectators", 0, fmt.Sprintf("let spectators watch the game live (mentalmj watch LINK, SPEC §25): every player publishes its public entries on the table's gossipsub topic and admits at most this many spectator connections (they forward to each other); 0 (the default) publishes nothing; at most %d; all players must agree", maxSpectators))
	if withPlayers {
		fs.IntVar(&f.players, "players", 4, "number of players, this node included: 4, or 3 for a three-player (sanma) table")
	}
}

// Settings returns the settings the flags choose, for a table of players
// players unless --players is registered (then --players). Its errors
// name the flag and list the valid values: an unknown preset or switch,
// an impossible value, a malformed --time, 3 or 4 players, private hands
// without proofs.
func (f *Flags) Settings(players int) (Settings, error) {
	if f.fs != nil && f.fs.Lookup("players") != nil {
		players = f.players
	}
	s := Settings{Players: players, Tonpuu: f.tonpuu, Hands: f.hands, NoProofs: f.noProofs, PrivateHands: f.privateHands, NoPipeline: f.noPipeline, Spectators: f.spectators}
	if f.proofs == ProofsTW {
		s.Proofs = ProofsTW
	}
	switch {
	case f.proofs != "" && f.proofs != ProofsLog && f.proofs != ProofsTW:
		return Settings{}, fmt.Errorf("--proofs must be %s or %s, got %q", ProofsLog, ProofsTW, f.proofs)
	case players != 3 && players != 4:
		return Settings{}, fmt.Errorf("--players must be 3 or 4, got %d", players)
	case f.hands < 0 || f.hands > maxHands:
		return Settings{}, fmt.Errorf("--hands must be 0 (the whole match) to %d, got %d", maxHands, f.hands)
	case f.spectators < 0 || f.spectators > maxSpectators:
		return Settings{}, fmt.Errorf("--spectators must be 0 to %d, got %d", maxSpectators, f.spectators)
	case f.privateHands && f.noProofs:
		return Settings{}, fmt.Errorf("--private-hands needs the zero-knowledge proofs: it cannot be combined with --no-proofs")
	}
	var err error
	if s.Rules, err = rules.Preset(f.preset); err != nil {
		return Settings{}, fmt.Errorf("--rules: %w", err)
	}
	for _, sw := range f.switches {
		if err := s.Rules.Apply(sw); err != nil {
			return Settings{}, fmt.Errorf("--rule %s: %w", sw, err)
		}
	}
	if err := s.Rules.Check(); err != nil {
		return Settings{}, fmt.Errorf("--rule: %w", err)
	}
	if s.Time, err = timecontrol.Parse(f.time); err != nil {
		return Settings{}, fmt.Errorf("--time: %w", err)
	}
	return s, s.Check()
}

// Given reports whether the flag named name was set on the command line.
func (f *Flags) Given(name string) bool {
	return f.fs != nil && f.fs.Lookup(name) != nil && f.fs.Changed(name)
}

// Contradicts returns nil if every settings flag given on the command
// line agrees with host, the settings of the host's invite, else an
// error naming the first flag that does not and the host's value:
// "--hands 1, but the host's table plays 3 hands". Flags left out take
// the host's values.
func (f *Flags) Contradicts(host Settings) error {
	var err error
	say := func(flagValue, hostValue string) {
		if err == nil {
			err = fmt.Errorf("%s, but the host's table plays %s (leave the flag out to play the host's game)", flagValue, hostValue)
		}
	}
	if f.Given("hands") && f.hands != host.Hands {
		say(fmt.Sprintf("--hands %d", f.hands), handsText(host.Hands))
	}
	if f.Given("tonpuu") && f.tonpuu != host.Tonpuu {
		say(fmt.Sprintf("--tonpuu=%v", f.tonpuu), "a "+host.Length())
	}
	if f.Given("players") && f.players != host.Players {
		say(fmt.Sprintf("--players %d", f.players), fmt.Sprintf("%d players", host.Players))
	}
	if f.Given("rules") && !strings.EqualFold(f.preset, host.Rules.Preset) {
		say(fmt.Sprintf("--rules %s", f.preset), host.Rules.Summary())
	}
	for _, sw := range f.switches {
		r := host.Rules
		if e := r.Apply(sw); e != nil || r != host.Rules {
			say("--rule "+sw, host.Rules.Summary())
		}
	}
	if f.Given("time") {
		if c, e := timecontrol.Parse(f.time); e != nil || c != host.Time {
			say("--time "+f.time, host.Time.String())
		}
	}
	if f.Given("no-proofs") && f.noProofs != host.NoProofs {
		say(fmt.Sprintf("--no-proofs=%v", f.noProofs), map[bool]string{true: "without proofs", false: "with proofs"}[host.NoProofs])
	}
	if f.Given("private-hands") && f.privateHands != host.PrivateHands {
		say(fmt.Sprintf("--private-hands=%v", f.privateHands), map[bool]string{true: "private hands", false: "open hands (no --private-hands)"}[host.PrivateHands])
	}
	if f.Given("proofs") && f.proofs != host.ProofSystem() {
		say("--proofs "+f.proofs, host.ProofSystem()+" proofs")
	}
	if f.Given("spectators") && f.spectators != host.Spectators {
		say(fmt.Sprintf("--spectators %d", f.spectators), fmt.Sprintf("%d spectators", host.Spectators))
	}
	if f.Given("no-pipeline") && f.noPipeline != host.NoPipeline {
		say(fmt.Sprintf("--no-pipeline=%v", f.noPipeline), map[bool]string{true: "without the pipelined setup (--no-pipeline)", false: "with the pipelined setup"}[host.NoPipeline])
	}
	return err
}

// handsText is "the whole match", "1 hand" or "N hands".
func handsText(n int) string {
	switch n {
	case 0:
		return "the whole match"
	case 1:
		return "1 hand"
	}
	return fmt.Sprintf("%d hands", n)
}

// Game returns the settings a player's table plays. With host, the
// settings of the host's invite, it returns those, or Contradicts' error
// if a flag given on the command line says otherwise; without, the
// flags' settings for a table of players players (3 or 4; see Settings,
// whose errors it returns).
func (f *Flags) Game(host *Settings, players int) (Settings, error) {
	if host != nil {
		if err := f.Contradicts(*host); err != nil {
			return Settings{}, err
		}
		return *host, nil
	}
	return f.Settings(players)
}
