package rules

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrUnknown is wrapped by Apply and Parse for a switch or preset name
// that does not exist; ErrValue for a value the switch cannot take.
var (
	ErrUnknown = errors.New("unknown rules name")
	ErrValue   = errors.New("impossible value")
)

// sw is one switch: its name, a line of help, the values it takes (for
// error messages and help) and how it reads and writes a Set.
type sw struct {
	name, help, values string
	get                func(*Set) string
	set                func(*Set, string) error
}

// Switch describes one switch for help screens.
type Switch struct {
	// Name is the switch name ("aka"), Values the values it takes
	// ("0..4", "on|off"), Help one line saying what it does.
	Name, Values, Help string
}

// List describes every switch, sorted by name (for help screens).
func List() []Switch {
	out := make([]Switch, 0, len(switches()))
	for _, s := range switches() {
		out = append(out, Switch{Name: s.name, Values: s.values, Help: s.help})
	}
	return out
}

// Names returns the switch names, sorted.
func Names() []string {
	var out []string
	for _, s := range switches() {
		out = append(out, s.name)
	}
	return out
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func parseOnOff(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "ari":
		return true, nil
	case "off", "false", "no", "nashi":
		return false, nil
	}
	return false, fmt.Errorf("%w %q: want on or off", ErrValue, v)
}

func flag(name, help string, p func(*Set) *bool) sw {
	return sw{name: name, help: help, values: "on|off",
		get: func(s *Set) string { return onOff(*p(s)) },
		set: func(s *Set, v string) error {
			b, err := parseOnOff(v)
			if err == nil {
				*p(s) = b
			}
			return err
		}}
}

// target is a score target: "return" (stored as 0, the return score) or
// points 100..maxPoints in steps of 100.
func target(name, help string, p func(*Set) *int) sw {
	return sw{name: name, help: help, values: "return|points",
		get: func(s *Set) string {
			if *p(s) == 0 {
				return "return"
			}
			return strconv.Itoa(*p(s))
		},
		set: func(s *Set, v string) error {
			if strings.ToLower(v) == "return" {
				*p(s) = 0
				return nil
			}
			n, err := parsePoints(v, 100, maxPoints)
			if err != nil || n == 0 {
				return fmt.Errorf("%w %q: want return or points 100..%d in steps of 100", ErrValue, v, maxPoints)
			}
			*p(s) = n
			return nil
		}}
}

// points is a non-negative multiple of step up to max.
func points(name, help string, step, max int, p func(*Set) *int) sw {
	return sw{name: name, help: help, values: fmt.Sprintf("points, multiple of %d", step),
		get: func(s *Set) string { return strconv.Itoa(*p(s)) },
		set: func(s *Set, v string) error {
			n, err := parsePoints(v, step, max)
			if err == nil {
				*p(s) = n
			}
			return err
		}}
}

func parsePoints(v string, step, max int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > max || n%step != 0 {
		return 0, fmt.Errorf("%w %q: want 0..%d in steps of %d", ErrValue, v, max, step)
	}
	return n, nil
}

func enum[T ~int](name, help string, names []string, p func(*Set) *T) sw {
	return sw{name: name, help: help, values: strings.Join(names, "|"),
		get: func(s *Set) string { return names[*p(s)] },
		set: func(s *Set, v string) error {
			i := slices.Index(names, strings.ToLower(v))
			if i < 0 {
				return fmt.Errorf("%w %q: want %s", ErrValue, v, strings.Join(names, " or "))
			}
			*p(s) = T(i)
			return nil
		}}
}

// uma parses n comma-separated whole numbers (thousands of points) that
// sum to 0, non-increasing by rank.
func parseUma(v string, out []int) error {
	parts := strings.Split(v, ",")
	bad := fmt.Errorf("%w %q: want %d comma-separated numbers (thousands of points), best rank first, not increasing, summing to 0, e.g. %s",
		ErrValue, v, len(out), map[int]string{4: "20,10,-10,-20", 3: "20,0,-20"}[len(out)])
	if len(parts) != len(out) {
		return bad
	}
	sum := 0
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < -1000 || n > 1000 || (i > 0 && n > out[i-1]) {
			return bad
		}
		out[i] = n
		sum += n
	}
	if sum != 0 {
		return bad
	}
	return nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// maxPoints bounds starting and return points (a million points).
const maxPoints = 1_000_000

// switches returns the switch table, sorted by name.
func switches() []sw {
	return []sw{
		flag("agari-yame", "the match ends when the dealer, first with the target (west-target), wins the last hand", func(s *Set) *bool { return &s.AgariYame }),
		{name: "aka", help: "red fives: 0 none, 1 5p, 2 5p 5s, 3 one per suit, 4 one per suit and a second 5p", values: "0..4",
			get: func(s *Set) string { return strconv.Itoa(s.Aka) },
			set: func(s *Set, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 4 {
					return fmt.Errorf("%w %q: want 0, 1, 2, 3 or 4 red fives", ErrValue, v)
				}
				s.Aka = n
				return nil
			}},
		flag("double-yakuman", "suuankou tanki, junsei chuuren, kokushi 13-sided and daisuushii count two yakuman", func(s *Set) *bool { return &s.DoubleYakuman }),
		{name: "honba", help: "points of one honba stick on a ron (a third from each tsumo payer)", values: "points, multiple of 300",
			get: func(s *Set) string { return strconv.Itoa(s.Honba) },
			set: func(s *Set, v string) error {
				n, err := parsePoints(v, 300, 30000)
				if err != nil || n == 0 {
					return fmt.Errorf("%w %q: want 300..30000 in steps of 300", ErrValue, v)
				}
				s.Honba = n
				return nil
			}},
		flag("kan-dora", "a kan turns a new dora indicator", func(s *Set) *bool { return &s.KanDora }),
		flag("kan-ura", "kan dora indicators have ura dora too", func(s *Set) *bool { return &s.KanUra }),
		{name: "kazoe", help: "13 han or more: a kazoe yakuman, or capped at sanbaiman", values: "yakuman|sanbaiman",
			get: func(s *Set) string {
				if s.KazoeYakuman {
					return "yakuman"
				}
				return "sanbaiman"
			},
			set: func(s *Set, v string) error {
				switch strings.ToLower(v) {
				case "yakuman", "on":
					s.KazoeYakuman = true
				case "sanbaiman", "off":
					s.KazoeYakuman = false
				default:
					return fmt.Errorf("%w %q: want yakuman or sanbaiman", ErrValue, v)
				}
				return nil
			}},
		flag("kiriage", "4 han 30 fu and 3 han 60 fu are rounded up to mangan", func(s *Set) *bool { return &s.Kiriage }),
		enum("kuikae", "after a call: forbidden (called kind and other end of a chi), suji (only the called kind), allowed", []string{"forbidden", "suji", "allowed"}, func(s *Set) *Kuikae { return &s.Kuikae }),
		flag("kuitan", "open tanyao: tanyao counts in an open hand", func(s *Set) *bool { return &s.Kuitan }),
		flag("kyuushu", "abortive draw: kyuushu kyuuhai (nine terminals and honours on the first draw)", func(s *Set) *bool { return &s.Kyuushu }),
		flag("nagashi", "nagashi mangan at an exhaustive draw", func(s *Set) *bool { return &s.Nagashi }),
		flag("pao", "pao (sekinin barai) for daisangen and daisuushii", func(s *Set) *bool { return &s.Pao }),
		enum("renchan", "the dealer keeps the deal when tenpai at an exhaustive draw, or only on a win (agari)", []string{"tenpai", "agari"}, func(s *Set) *Renchan { return &s.Renchan }),
		points("return", "four-player return score (oka = return - start from each player, to the top)", 100, maxPoints, func(s *Set) *int { return &s.Return }),
		flag("riichi-no-draw", "riichi is allowed with no draw left (fewer than 4 tiles, 3 in sanma)", func(s *Set) *bool { return &s.RiichiNoDraw }),
		enum("ron", "several rons on one discard: double (triple: see sanchahou), atamahane (nearest only), triple", []string{"double", "atamahane", "triple"}, func(s *Set) *Ron { return &s.Ron }),
		flag("sanchahou", "abortive draw: three rons on one discard (with ron=double)", func(s *Set) *bool { return &s.Sanchahou }),
		points("sanma-return", "three-player return score", 100, maxPoints, func(s *Set) *int { return &s.Return3 }),
		points("sanma-start", "three-player starting points", 100, maxPoints, func(s *Set) *int { return &s.Start3 }),
		{name: "sanma-uma", help: "three-player uma in thousands, first to third", values: "a,b,c summing to 0",
			get: func(s *Set) string { return joinInts(s.Uma3[:]) },
			set: func(s *Set, v string) error {
				var u [3]int
				if err := parseUma(v, u[:]); err != nil {
					return err
				}
				s.Uma3 = u
				return nil
			}},
		target("sanma-west-target", "three-player west-target: points, or return (the sanma return)", func(s *Set) *int { return &s.WestTarget3 }),
		flag("stacked-yakuman", "several yakuman (or a double yakuman) in one hand add up; off pays one yakuman at most", func(s *Set) *bool { return &s.StackedYakuman }),
		points("start", "four-player starting points", 100, maxPoints, func(s *Set) *int { return &s.Start }),
		flag("suucha", "abortive draw: suucha riichi (all four in riichi)", func(s *Set) *bool { return &s.Suucha }),
		flag("suufon", "abortive draw: suufon renda (four same winds on the first discards)", func(s *Set) *bool { return &s.Suufon }),
		flag("suukaikan", "abortive draw: four kans by more than one player", func(s *Set) *bool { return &s.Suukaikan }),
		flag("tenpai-yame", "the match ends when the dealer, first with the target (west-target), is tenpai at the last hand's draw", func(s *Set) *bool { return &s.TenpaiYame }),
		{name: "tobi", help: "bust: the match ends when a score falls below this many points, or off", values: "off|points",
			get: func(s *Set) string {
				if !s.Tobi {
					return "off"
				}
				return strconv.Itoa(s.TobiBelow)
			},
			set: func(s *Set, v string) error {
				if b, err := parseOnOff(v); err == nil && !b {
					s.Tobi, s.TobiBelow = false, 0
					return nil
				}
				n, err := parsePoints(v, 100, maxPoints)
				if err != nil {
					return fmt.Errorf("%w %q: want off or points 0..%d in steps of 100", ErrValue, v, maxPoints)
				}
				s.Tobi, s.TobiBelow = true, n
				return nil
			}},
		{name: "uma", help: "four-player uma in thousands, first to fourth", values: "a,b,c,d summing to 0",
			get: func(s *Set) string { return joinInts(s.Uma[:]) },
			set: func(s *Set, v string) error {
				var u [4]int
				if err := parseUma(v, u[:]); err != nil {
					return err
				}
				s.Uma = u
				return nil
			}},
		flag("ura", "ura dora count for a riichi winner", func(s *Set) *bool { return &s.Ura }),
		flag("west", "extension round (sudden death) when nobody has west-target at the last hand", func(s *Set) *bool { return &s.West }),
		target("west-target", "score that ends the extension round and lets the last hand end the match: points, or return", func(s *Set) *int { return &s.WestTarget }),
	}
}

// Apply sets one switch from assign, "NAME=VALUE" (the --rule flag), e.g.
// "aka=0" or "uma=30,10,-10,-30". Names are case-sensitive, values not.
// It returns an error wrapping ErrUnknown (listing the valid names) for an
// unknown name, ErrValue (listing the valid values) for a value the
// switch cannot take, and leaves s unchanged on error. A return score
// below the starting points is refused by Parse and Check, not here, so
// that start and return may be changed in either order.
func (s *Set) Apply(assign string) error {
	name, value, ok := strings.Cut(assign, "=")
	if !ok || name == "" || value == "" {
		return fmt.Errorf("%w: rule %q is not NAME=VALUE; switches: %s", ErrValue, assign, strings.Join(Names(), ", "))
	}
	for _, d := range switches() {
		if d.name == name {
			if err := d.set(s, value); err != nil {
				return fmt.Errorf("rule %s: %w", name, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%w: switch %q; switches: %s", ErrUnknown, name, strings.Join(Names(), ", "))
}

// Switches returns the canonical form of s: every switch as "name=value",
// sorted by name (the form that travels in the Hello and the invite).
// Parse(s.Preset, s.Switches()) == s for every valid s.
func (s Set) Switches() []string {
	ds := switches()
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.name + "=" + d.get(&s)
	}
	return out
}

// Check reports whether s is a playable rule set: a known preset name,
// return scores at least the starting points, a bust line not above the
// starting points. Errors wrap ErrValue or ErrUnknown.
func (s Set) Check() error {
	if !slices.Contains(PresetNames(), s.Preset) {
		return fmt.Errorf("%w: preset %q; presets: %s", ErrUnknown, s.Preset, strings.Join(PresetNames(), ", "))
	}
	if s.Start <= 0 || s.Start3 <= 0 {
		return fmt.Errorf("%w: starting points %d (sanma %d) must be positive", ErrValue, s.Start, s.Start3)
	}
	if s.Return < s.Start || s.Return3 < s.Start3 {
		return fmt.Errorf("%w: return %d (sanma %d) is below the starting points %d (sanma %d)", ErrValue, s.Return, s.Return3, s.Start, s.Start3)
	}
	if s.Tobi && (s.TobiBelow > s.Start || s.TobiBelow > s.Start3) {
		return fmt.Errorf("%w: tobi=%d would bust at the start (starting points %d, sanma %d)", ErrValue, s.TobiBelow, s.Start, s.Start3)
	}
	return nil
}

// Parse builds a Set from a preset name and switches applied in order,
// each "NAME=VALUE": the decoding of the Hello and invite wire form (and
// of --rules and --rule). An empty preset is "tenhou". It returns an
// error wrapping ErrUnknown or ErrValue, with the valid names or values,
// for an unknown preset or switch, an impossible value or an unplayable
// result (see Check).
func Parse(preset string, switches []string) (Set, error) {
	if preset == "" {
		preset = "tenhou"
	}
	s, err := Preset(preset)
	if err != nil {
		return Set{}, err
	}
	for _, a := range switches {
		if err := s.Apply(a); err != nil {
			return Set{}, err
		}
	}
	if err := s.Check(); err != nil {
		return Set{}, err
	}
	return s, nil
}
