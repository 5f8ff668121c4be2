package settings

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings/pb"
)

// digestLen is the length of pb.Rules.digest, in bytes.
const digestLen = 8

// rulesProto returns the wire form of r: its preset, the switches that
// differ from the preset's, and the digest of all of them.
func rulesProto(r rules.Set) *pb.Rules {
	m := &pb.Rules{Preset: r.Preset, Digest: rulesDigest(r)}
	base, err := rules.Preset(r.Preset)
	if err != nil {
		// Not a preset of this build: send every switch (FromProto of
		// any build then refuses the preset by name).
		m.Switches = r.Switches()
		return m
	}
	preset := base.Switches()
	for _, sw := range r.Switches() {
		if !slices.Contains(preset, sw) {
			m.Switches = append(m.Switches, sw)
		}
	}
	return m
}

// lateSwitches are the switches added after mentalmj/4's first release,
// each with the value every earlier release plays without knowing it. A
// late switch at that value stays out of the digest, so that rules the
// releases agree on keep their digest, and the transcripts and records of
// earlier releases still audit and replay; at any other value it is in,
// and an earlier release refuses the rules by digest.
var lateSwitches = map[string]string{
	"sanma-west-target": "return", // three players' extension-round target: their return score
}

// rulesDigest is the first digestLen bytes of SHA-256 over every switch
// of r, canonical and sorted (rules.Set.Switches), each followed by "\n",
// leaving out late switches at their earlier value (lateSwitches).
func rulesDigest(r rules.Set) []byte {
	h := sha256.New()
	for _, sw := range r.Switches() {
		name, value, _ := strings.Cut(sw, "=")
		if old, ok := lateSwitches[name]; ok && value == old {
			continue
		}
		h.Write([]byte(sw + "\n"))
	}
	return h.Sum(nil)[:digestLen]
}

// rulesFromProto decodes the rules of m: errors wrap ErrUnknown for a
// preset, a switch or a value this build does not know, or a digest that
// says the sender's build reads them otherwise, and ErrInvalid for an
// unplayable set (a return below the starting points).
func rulesFromProto(m *pb.Rules) (rules.Set, error) {
	r, err := rules.Parse(m.Preset, m.Switches)
	switch {
	case errors.Is(err, rules.ErrValue):
		return rules.Set{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	case err != nil:
		return rules.Set{}, fmt.Errorf("%w: %v", ErrUnknown, err)
	case len(m.Digest) != digestLen:
		return rules.Set{}, fmt.Errorf("%w: a rules digest of %d bytes, want %d", ErrInvalid, len(m.Digest), digestLen)
	case !bytes.Equal(m.Digest, rulesDigest(r)):
		return rules.Set{}, fmt.Errorf("%w: the %q rules with switches %v are other rules in this program's release (their digests differ): play the same mentalmj release", ErrUnknown, m.Preset, m.Switches)
	}
	return r, nil
}
