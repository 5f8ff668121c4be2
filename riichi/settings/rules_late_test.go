package settings

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi/rules"
)

// A switch added after the first mentalmj/4 release leaves the digest of
// rules that earlier releases play unchanged (the transcripts in
// protocol/testdata and ui/viewer/testdata, made before it, still audit),
// and changes it at any other value.
func TestLateSwitchDigest(t *testing.T) {
	r, err := rules.Preset("tenhou")
	if err != nil {
		t.Fatal(err)
	}
	// The digest as a release before the switch computed it: every
	// switch it knew, in order.
	h := sha256.New()
	for _, sw := range r.Switches() {
		if !strings.HasPrefix(sw, "sanma-west-target=") {
			h.Write([]byte(sw + "\n"))
		}
	}
	if before := h.Sum(nil)[:digestLen]; !bytes.Equal(rulesDigest(r), before) {
		t.Errorf("tenhou rules: digest %x, an earlier release's %x", rulesDigest(r), before)
	}
	moved, err := rules.Parse("tenhou", []string{"sanma-west-target=45000"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(rulesDigest(moved), rulesDigest(r)) {
		t.Error("sanma-west-target=45000 leaves the digest unchanged: an earlier release would play other rules")
	}
}
