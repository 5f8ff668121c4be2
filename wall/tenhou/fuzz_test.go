package tenhou

import (
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// FuzzParseSeed checks that no seed text panics and that accepted seeds
// have the documented key length.
func FuzzParseSeed(f *testing.F) {
	f.Add(PrefixBase64 + "," + strings.Repeat("A", 3328))
	f.Add(PrefixHex2009 + strings.Repeat(",0", 32))
	f.Add("mt19937ar-sha512-n288,zz")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		seed, err := ParseSeed(s)
		if err != nil {
			return
		}
		if (seed.Variant == Base64 && len(seed.Key) != KeyWords) || (seed.Variant == Hex2009 && len(seed.Key) != HexKeyWords) {
			t.Fatalf("seed %q parsed to %v with %d words", s, seed.Variant, len(seed.Key))
		}
	})
}

// FuzzVerify checks that Verify never panics on a log mjlog accepts
// (seeded with a real log, so mutations keep a valid SHUFFLE seed).
func FuzzVerify(f *testing.F) {
	b, err := tenhoucorpus.ReadFile(tenhoucorpus.For(f).Path(f, "2022060100gm-00a9-0000-a11749d5.xml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add(`<mjloggm ver="2.3"><SHUFFLE seed="` + PrefixHex2009 + strings.Repeat(",1", 32) + `" ref=""/><GO type="185" lobby="0"/><TAIKYOKU oya="0"/><INIT seed="0,0,0,1,2,3" ten="350,350,350,0" oya="2" hai0="1" hai1="" hai2="" hai3="5"/><N who="0" m="8224"/><U9/><T1/><DORA hai="5"/><RYUUKYOKU ba="0,0" sc="350,0,350,0,350,0,0,0"/></mjloggm>`)
	f.Fuzz(func(t *testing.T, doc string) {
		g, err := mjlog.Parse(strings.NewReader(doc), "fuzz.xml")
		if err != nil {
			return
		}
		res, err := Verify(g)
		if err == nil && res.Skipped == "" && res.Rounds != len(g.Rounds) {
			t.Fatalf("verified %d of %d rounds", res.Rounds, len(g.Rounds))
		}
	})
}
