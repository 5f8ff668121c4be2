package settings

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings/pb"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// Errors FromProto and Check return, wrapped with details; test them with
// errors.Is.
var (
	// ErrInvalid: settings whose values are out of range or contradict
	// each other (5 players, private hands without proofs).
	ErrInvalid = errors.New("invalid settings")
	// ErrUnknown: settings this build cannot honour: an unknown field,
	// rule preset or switch (a newer program's settings).
	ErrUnknown = errors.New("settings this program does not know")
)

// Proof systems (Settings.Proofs; SPEC §12, §13).
const (
	// ProofsLog is the logarithmic-size pair, commcrypto/logshuffle and
	// commcrypto/logrekey: the default. Its wire name is "log".
	ProofsLog = "log"
	// ProofsTW is the first release's pair, the Terelius–Wikström shuffle
	// argument (commcrypto/shuffleproof) and the batched Chaum–Pedersen
	// rekey argument (commcrypto/rekeyproof). Its wire name is the empty
	// string, so transcripts and peers from before the choice existed
	// read as it.
	ProofsTW = "tw"
)

// Length names of the wire form (pb.Settings.length).
const (
	Hanchan = "hanchan"
	Tonpuu  = "tonpuu"
)

// Settings are the game a table plays. The zero value is not valid; start
// from Default.
type Settings struct {
	// Players is 4, or 3 for a three-player (sanma) table.
	Players int
	// Tonpuu plays an east-only match instead of a hanchan.
	Tonpuu bool
	// Hands is the number of hands to play; 0 plays the whole match.
	Hands int
	// Rules are the house rules (package riichi/rules).
	Rules rules.Set
	// Time is the time control of a human seat.
	Time timecontrol.Control
	// NoProofs plays without the shuffle and rekey proofs.
	NoProofs bool
	// PrivateHands reveals at the end of a hand only what the rules need.
	PrivateHands bool
	// NoPipeline turns the pipelined setup off (SPEC §22): each hand runs
	// its whole setup after the hand before.
	NoPipeline bool
	// Proofs names the shuffle and rekey arguments: "" for the default,
	// ProofsLog (FromProto and Flags give "" for it, so that settings
	// compare equal with ==), or ProofsTW. See ProofSystem.
	Proofs string
	// Spectators, when not 0, lets spectators watch the game live (SPEC
	// §25): the players publish their broadcast entries on the table's
	// gossipsub topic, and each admits at most Spectators spectator
	// connections (gossipsub only). 0 publishes nothing.
	Spectators int
}

// ProofSystem returns the proof system s plays: ProofsLog for "" (the
// default) or s.Proofs.
func (s Settings) ProofSystem() string {
	if s.Proofs == "" {
		return ProofsLog
	}
	return s.Proofs
}

// Default returns the settings of a table nobody chose anything for: four
// players, a whole hanchan, the default rules preset, the default time
// control (timecontrol.Default, 5+10), with proofs.
func Default() Settings {
	return Settings{Players: 4, Rules: rules.Default(), Time: timecontrol.Default}
}

// Length returns the match length's name: Hanchan or Tonpuu.
func (s Settings) Length() string {
	if s.Tonpuu {
		return Tonpuu
	}
	return Hanchan
}

// Check returns an error wrapping ErrInvalid if s cannot be played: a
// player count other than 3 or 4, a negative number of hands, or private
// hands without proofs.
func (s Settings) Check() error {
	switch {
	case s.Players != 3 && s.Players != 4:
		return fmt.Errorf("%w: %d players, want 3 or 4", ErrInvalid, s.Players)
	case s.Hands < 0:
		return fmt.Errorf("%w: %d hands, want 0 (the whole match) or more", ErrInvalid, s.Hands)
	case s.PrivateHands && s.NoProofs:
		return fmt.Errorf("%w: private hands need the proofs (private_hands with no_proofs)", ErrInvalid)
	case s.Spectators < 0 || s.Spectators > maxSpectators:
		return fmt.Errorf("%w: %d spectators, want 0 to %d", ErrInvalid, s.Spectators, maxSpectators)
	case s.ProofSystem() != ProofsLog && s.ProofSystem() != ProofsTW:
		return fmt.Errorf("%w: proof system %q, want %q or %q", ErrInvalid, s.Proofs, ProofsLog, ProofsTW)
	}
	return nil
}

// Proto returns the wire form of s (pb/settings.proto).
func (s Settings) Proto() *pb.Settings {
	base, bank, off := s.Time.Millis()
	return &pb.Settings{
		Players:      uint32(s.Players),
		Length:       s.Length(),
		Hands:        uint32(s.Hands),
		Rules:        rulesProto(s.Rules),
		Time:         &pb.TimeControl{BaseMs: base, BankMs: bank, Off: off},
		NoProofs:     s.NoProofs,
		PrivateHands: s.PrivateHands,
		NoPipeline:   s.NoPipeline,
		Proofs:       wireProofs(s.ProofSystem()),
		Spectators:   uint32(s.Spectators),
	}
}

// wireProofs returns the wire name of a proof system: "" for ProofsTW
// (the field's absence, as before the choice existed), else the name.
func wireProofs(system string) string {
	if system == ProofsTW {
		return ""
	}
	return system
}

// maxHands bounds the hands a table may ask for (a hanchan with every
// renchan is far fewer).
const maxHands = 1000

// maxSpectators bounds Settings.Spectators: the spectator connections
// one player admits (the others reach the topic through each other).
const maxSpectators = 1000

// FromProto decodes and checks settings received from a host or a peer.
// It returns an error wrapping ErrUnknown if m, its rules or its time
// control carry fields this build does not know, or name a preset or a
// switch it does not know; and one wrapping ErrInvalid if m is nil, lacks
// its rules or time control, or holds values out of range (see Check).
// It never panics, whatever m holds.
func FromProto(m *pb.Settings) (Settings, error) {
	if m == nil {
		return Settings{}, fmt.Errorf("%w: no settings", ErrInvalid)
	}
	for what, msg := range map[string]proto.Message{"settings": m, "rules": m.GetRules(), "time control": m.GetTime()} {
		if r := msg.ProtoReflect(); r.IsValid() && len(r.GetUnknown()) > 0 {
			return Settings{}, fmt.Errorf("%w: the %s carry fields this program does not know (a newer version's? update mentalmj)", ErrUnknown, what)
		}
	}
	if m.Rules == nil || m.Time == nil {
		return Settings{}, fmt.Errorf("%w: no rules or no time control", ErrInvalid)
	}
	if m.Hands > maxHands {
		return Settings{}, fmt.Errorf("%w: %d hands, at most %d", ErrInvalid, m.Hands, maxHands)
	}
	if m.Spectators > maxSpectators {
		return Settings{}, fmt.Errorf("%w: %d spectators, at most %d", ErrInvalid, m.Spectators, maxSpectators)
	}
	s := Settings{Players: int(m.Players), Hands: int(m.Hands), NoProofs: m.NoProofs, PrivateHands: m.PrivateHands, NoPipeline: m.NoPipeline, Spectators: int(m.Spectators)}
	switch m.Proofs {
	case "":
		s.Proofs = ProofsTW
	case ProofsLog: // the default: Proofs stays ""
	default:
		return Settings{}, fmt.Errorf("%w: proof system %q (a newer version's? update mentalmj)", ErrUnknown, m.Proofs)
	}
	switch m.Length {
	case Hanchan:
	case Tonpuu:
		s.Tonpuu = true
	default:
		return Settings{}, fmt.Errorf("%w: match length %q, want %q or %q", ErrInvalid, m.Length, Hanchan, Tonpuu)
	}
	var err error
	if s.Rules, err = rulesFromProto(m.Rules); err != nil {
		return Settings{}, err
	}
	if s.Time, err = timecontrol.FromMillis(m.Time.BaseMs, m.Time.BankMs, m.Time.Off); err != nil {
		return Settings{}, fmt.Errorf("%w: time control: %v", ErrInvalid, err)
	}
	return s, s.Check()
}

// Equal reports whether s and o are the same game.
func (s Settings) Equal(o Settings) bool { return s.Diff(o) == nil }

// Diff returns nil if s and o are the same game, else an error saying
// the first setting that differs, s's value first, as a node names
// another's configuration: "wants 3 hands, we want 1".
func (s Settings) Diff(o Settings) error {
	switch {
	case s.Players != o.Players:
		return fmt.Errorf("plays with %d players, we play with %d (the number of peers given, --players with local)", s.Players, o.Players)
	case s.Hands != o.Hands:
		return fmt.Errorf("wants %d hands, we want %d", s.Hands, o.Hands)
	case s.Tonpuu != o.Tonpuu:
		return fmt.Errorf("wants a %q match, we want %q", s.Length(), o.Length())
	case s.Rules.Preset != o.Rules.Preset:
		return fmt.Errorf("plays the %q rules, we play %q", s.Rules.Preset, o.Rules.Preset)
	case s.Rules != o.Rules:
		return fmt.Errorf("plays the rules %s, we play %s", s.Rules.Summary(), o.Rules.Summary())
	case s.Time != o.Time:
		return fmt.Errorf("plays with the time control %s, we play %s", s.Time, o.Time)
	case s.NoProofs != o.NoProofs:
		return fmt.Errorf("plays with no_proofs = %v, we play with no_proofs = %v (--no-proofs must be the same for all players)", s.NoProofs, o.NoProofs)
	case s.PrivateHands != o.PrivateHands:
		return fmt.Errorf("plays with private_hands = %v, we play with private_hands = %v (--private-hands must be the same for all players)", s.PrivateHands, o.PrivateHands)
	case s.NoPipeline != o.NoPipeline:
		return fmt.Errorf("plays with no_pipeline = %v, we play with no_pipeline = %v (--no-pipeline must be the same for all players)", s.NoPipeline, o.NoPipeline)
	case s.ProofSystem() != o.ProofSystem():
		return fmt.Errorf("plays with the %q proofs, we play with %q (--proofs must be the same for all players)", s.ProofSystem(), o.ProofSystem())
	case s.Spectators != o.Spectators:
		return fmt.Errorf("admits %d spectators, we admit %d (--spectators must be the same for all players)", s.Spectators, o.Spectators)
	}
	return nil
}

// Summary returns the settings as a player reads them before the game:
// "4 players, hanchan, Tenhou rules (red fives, open tanyao), 5+10 s per
// decision, private hands"; "3 hands of a tonpuu" for a match cut short.
func (s Settings) Summary() string {
	length := s.Length()
	switch {
	case s.Hands == 1:
		length = "1 hand of a " + length
	case s.Hands > 1:
		length = fmt.Sprintf("%d hands of a %s", s.Hands, length)
	}
	parts := []string{fmt.Sprintf("%d players", s.Players), length, s.Rules.Summary(), s.Time.Describe()}
	if s.NoProofs {
		parts = append(parts, "no proofs")
	} else if s.ProofSystem() != ProofsLog {
		parts = append(parts, s.ProofSystem()+" proofs")
	}
	if s.PrivateHands {
		parts = append(parts, "private hands")
	}
	if s.NoPipeline {
		parts = append(parts, "no pipelined setup")
	}
	if s.Spectators > 0 {
		parts = append(parts, fmt.Sprintf("up to %d spectators", s.Spectators))
	}
	return strings.Join(parts, ", ")
}
