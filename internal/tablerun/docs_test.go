package tablerun

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/node"
)

// TestDocsShowWhatTheNodePrints reads the user docs (docs/networking.md,
// README.md) and checks their examples against the code that prints
// them: every "direct (…)" path line is one node.Path.String gives for a
// direct connection, which always has an address family (IPv4 or IPv6),
// and the hard-NAT example shows join's refusal (uncarriedError) word for
// word, remedies included.
func TestDocsShowWhatTheNodePrints(t *testing.T) {
	t.Parallel()
	printed := map[string]bool{}
	for _, tr := range []string{"QUIC", "TCP"} {
		for _, fam := range []string{"IPv4", "IPv6"} {
			for _, how := range []string{"hole punched", "LAN", "dialled"} {
				printed[node.Path{Direct: true, Transport: tr, Family: fam, How: how}.String()] = true
			}
		}
	}
	direct := regexp.MustCompile(`direct \((?:QUIC|TCP|…)[^)]*\)`)
	for _, f := range []string{"../../docs/networking.md", "../../README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Lines wrap anywhere in prose: compare with runs of white space
		// as one space.
		doc := strings.Join(strings.Fields(string(b)), " ")
		for _, ex := range direct.FindAllString(doc, -1) {
			if !printed[ex] {
				t.Errorf("%s: %q is not a path line the node prints (node.Path.String: e.g. %q)", f, ex, node.Path{Direct: true, Transport: "QUIC", Family: "IPv6", How: "hole punched"})
			}
		}
		if f != "../../docs/networking.md" {
			continue
		}
		refusal := "mentalmj join: " + uncarriedError([]string{"dave"}).Error()
		if !strings.Contains(doc, refusal) {
			t.Errorf("%s: the hard-NAT example does not show join's refusal:\n%s", f, refusal)
		}
	}
}
