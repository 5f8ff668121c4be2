package tenhou6

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// TestTenhouReference compares Convert, for every four-player log of the
// corpus (tenhoucorpus.For), with a reading of the same mjlog written apart
// from this repository: @kobalab/tenhou-log's convlog (npm; Satoshi
// Kobayashi's mjlog → 電脳麻将 paipu converter), run under Node.js through
// testdata/majiang_reference.js, which says in tenhou.net/6's terms what
// each kyoku must hold (refSummary). Every kyoku's round, start scores,
// dora and ura indicators, haipai, draws, discards (tsumogiri and riichi
// marks resolved), result name, winners and score changes, and the final
// scores and points must agree. It runs when $MENTALMJ_MAJIANG_NODE_PATH
// names a node_modules directory holding @kobalab/tenhou-log (.ci/run
// installs 1.3.0 there) and node is on the PATH; otherwise it skips saying
// so. A subtest changes one discard in our JSON and wants the comparison
// to fail.
//
// When $MENTALMJ_TENHOU6_REF names a directory of pairs LOGID.xml (an
// mjlog) and LOGID.json (what tenhou.net/5/mjlog2json.cgi served for it,
// such as the six pairs in tsubakisakura/mjlog2json's data/ directory,
// commit 74defac), Convert must also reproduce Tenhou's own JSON exactly.
func TestTenhouReference(t *testing.T) {
	if dir := os.Getenv("MENTALMJ_TENHOU6_REF"); dir != "" {
		t.Run("Tenhou's own JSON", func(t *testing.T) { compareServedJSON(t, dir) })
	}
	nodePath := os.Getenv("MENTALMJ_MAJIANG_NODE_PATH")
	if nodePath == "" {
		t.Skip("needs node and @kobalab/tenhou-log: MENTALMJ_MAJIANG_NODE_PATH not set (npm install @kobalab/tenhou-log@1.3.0 and point it at node_modules)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs node: not on the PATH")
	}
	if _, err := os.Stat(filepath.Join(nodePath, "@kobalab", "tenhou-log")); err != nil {
		t.Skipf("needs @kobalab/tenhou-log in %s: %v", nodePath, err)
	}
	corpus := tenhoucorpus.For(t)
	types, err := corpus.GoTypes()
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range corpus.MustFiles(t) {
		if types[tenhoucorpus.Name(f)]&0x10 == 0 { // convlog reads four-player logs only
			files = append(files, f)
		}
	}
	cmd := exec.Command(node, append([]string{"testdata/majiang_reference.js"}, files...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodePath)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("majiang_reference.js: %v", err)
	}
	refs := map[string]refSummary{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r refSummary
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("majiang_reference.js: %v", err)
		}
		if r.Error != "" {
			t.Fatalf("%s: convlog: %s", r.File, r.Error)
		}
		refs[r.File] = r
	}
	kyoku := 0
	var first *refSummary
	for _, f := range files {
		want, ok := refs[f]
		if !ok {
			t.Fatalf("%s: no reference line", f)
		}
		got := convertedSummary(t, f)
		for _, d := range compareSummaries(got, want) {
			t.Errorf("%s: %s", tenhoucorpus.Name(f), d)
		}
		kyoku += len(want.Kyoku)
		if first == nil {
			first = &got
		}
	}
	if len(refs) != len(files) || len(files) == 0 {
		t.Fatalf("%d reference lines for %d four-player logs", len(refs), len(files))
	}
	t.Logf("%d four-player logs of %s, %d kyoku, agree with convlog's reading", len(files), corpus, kyoku)
	t.Run("a changed discard is caught", func(t *testing.T) {
		bad := *first
		bad.Kyoku = slices.Clone(bad.Kyoku)
		k := bad.Kyoku[0]
		k.Discards = slices.Clone(k.Discards)
		k.Discards[0] = slices.Clone(k.Discards[0])
		d := k.Discards[0][0]
		k.Discards[0][0] = []int{d[0] + 1, d[1], d[2]}
		bad.Kyoku[0] = k
		if len(compareSummaries(bad, refs[files[0]])) == 0 {
			t.Error("a discard changed in kyoku 0 went unnoticed")
		}
	})
}

// refSummary is what a tenhou.net/6 log of a game says, in the terms of
// testdata/majiang_reference.js (which documents each field).
type refSummary struct {
	File  string       `json:"file"`
	Error string       `json:"error"`
	Kyoku []refKyoku   `json:"kyoku"`
	Final refStandings `json:"final"`
}

type refKyoku struct {
	Round    []int     `json:"round"`
	Scores   []int     `json:"scores"`
	Dora     []int     `json:"dora"`
	Ura      []int     `json:"ura"`
	Haipai   [][]int   `json:"haipai"`
	Draws    [][]int   `json:"draws"`
	Discards [][][]int `json:"discards"`
	Result   string    `json:"result"`
	Wins     []refWin  `json:"wins"`
	Deltas   []int     `json:"deltas"`
}

type refWin struct {
	Who    int   `json:"who"`
	From   int   `json:"from"`
	Deltas []int `json:"deltas"`
}

type refStandings struct {
	Scores []float64 `json:"scores"`
	Points []float64 `json:"points"`
}

// convertedSummary converts the log at path with Convert and Encode and
// reads the JSON back, by the format's documented layout (package doc),
// into a refSummary: a discard 60 is the seat's draw at the same index
// (tsumogiri), "r" marks the riichi declaration, kan and nukidora
// declarations ("a", "k", "f" strings, and the 0 after a daiminkan) and
// calls in the takes are left out, as convlog leaves them out of draws and
// discards; 全員聴牌 and 全員不聴 are 流局.
func convertedSummary(t *testing.T, path string) refSummary {
	t.Helper()
	g, err := mjlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Log [][]json.RawMessage `json:"log"`
		Sc  []float64           `json:"sc"`
	}
	if err := json.Unmarshal(encoded(t, g), &doc); err != nil {
		t.Fatal(err)
	}
	out := refSummary{File: path}
	for ki, raw := range doc.Log {
		fail := func(what string, err error) {
			t.Helper()
			t.Fatalf("%s kyoku %d: %s: %v", path, ki, what, err)
		}
		if len(raw) != 17 {
			t.Fatalf("%s kyoku %d: %d elements, want 17", path, ki, len(raw))
		}
		k := refKyoku{Ura: []int{}, Deltas: []int{0, 0, 0, 0}, Wins: []refWin{}}
		for i, dst := range []*[]int{&k.Round, &k.Scores, &k.Dora, &k.Ura} {
			if err := json.Unmarshal(raw[i], dst); err != nil {
				fail("header", err)
			}
		}
		for s := range 4 {
			var haipai []int
			var takes, discards []any
			if err := json.Unmarshal(raw[4+3*s], &haipai); err != nil {
				fail("haipai", err)
			}
			slices.Sort(haipai)
			if err := json.Unmarshal(raw[5+3*s], &takes); err != nil {
				fail("takes", err)
			}
			if err := json.Unmarshal(raw[6+3*s], &discards); err != nil {
				fail("discards", err)
			}
			draws := []int{}
			for _, x := range takes {
				if n, ok := x.(float64); ok {
					draws = append(draws, int(n))
				}
			}
			ds := [][]int{}
			for i, x := range discards {
				riichi := 0
				if str, ok := x.(string); ok {
					if !strings.HasPrefix(str, "r") {
						continue // a kan or nukidora declaration
					}
					n, err := strconv.Atoi(str[1:])
					if err != nil {
						fail("riichi discard", err)
					}
					x, riichi = float64(n), 1
				}
				n := int(x.(float64))
				switch {
				case n == 0:
					continue // after a daiminkan
				case n == 60:
					drawn, ok := takes[i].(float64)
					if !ok {
						t.Fatalf("%s kyoku %d seat %d: tsumogiri %d after take %v", path, ki, s, i, takes[i])
					}
					ds = append(ds, []int{int(drawn), 1, riichi})
				default:
					ds = append(ds, []int{n, 0, riichi})
				}
			}
			k.Haipai = append(k.Haipai, haipai)
			k.Draws = append(k.Draws, draws)
			k.Discards = append(k.Discards, ds)
		}
		var res []json.RawMessage
		if err := json.Unmarshal(raw[16], &res); err != nil || len(res) == 0 {
			fail("result", err)
		}
		if err := json.Unmarshal(res[0], &k.Result); err != nil {
			fail("result name", err)
		}
		switch k.Result {
		case "和了":
			for i := 1; i+1 < len(res); i += 2 {
				var w refWin
				var info []any
				if err := json.Unmarshal(res[i], &w.Deltas); err != nil {
					fail("win deltas", err)
				}
				if err := json.Unmarshal(res[i+1], &info); err != nil || len(info) < 2 {
					fail("win detail", err)
				}
				w.Who, w.From = int(info[0].(float64)), int(info[1].(float64))
				k.Wins = append(k.Wins, w)
			}
		case "全員聴牌", "全員不聴":
			k.Result = "流局"
		}
		if k.Result != "和了" && len(res) > 1 {
			if err := json.Unmarshal(res[1], &k.Deltas); err != nil {
				fail("draw deltas", err)
			}
		}
		out.Kyoku = append(out.Kyoku, k)
	}
	for i := 0; i+1 < len(doc.Sc); i += 2 {
		out.Final.Scores = append(out.Final.Scores, doc.Sc[i])
		out.Final.Points = append(out.Final.Points, doc.Sc[i+1])
	}
	return out
}

// encoded returns g as tenhou.net/6 JSON (Convert, then Encode).
func encoded(t *testing.T, g *mjlog.Game) []byte {
	t.Helper()
	l, err := Convert(g)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compareSummaries lists where got and want differ: kyoku by kyoku, field
// by field, then the final standings.
func compareSummaries(got, want refSummary) []string {
	var out []string
	if len(got.Kyoku) != len(want.Kyoku) {
		return []string{fmt.Sprintf("%d kyoku, the reference has %d", len(got.Kyoku), len(want.Kyoku))}
	}
	for i := range want.Kyoku {
		g, w := got.Kyoku[i], want.Kyoku[i]
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"round", g.Round, w.Round}, {"scores", g.Scores, w.Scores}, {"dora", g.Dora, w.Dora}, {"ura", g.Ura, w.Ura},
			{"haipai", g.Haipai, w.Haipai}, {"draws", g.Draws, w.Draws}, {"discards", g.Discards, w.Discards},
			{"result", g.Result, w.Result}, {"wins", g.Wins, w.Wins}, {"deltas", g.Deltas, w.Deltas},
		} {
			if !reflect.DeepEqual(f.got, f.want) {
				out = append(out, fmt.Sprintf("kyoku %d %s: %v, the reference %v", i, f.name, f.got, f.want))
			}
		}
	}
	if len(want.Final.Scores) > 0 && !reflect.DeepEqual(got.Final, want.Final) {
		out = append(out, fmt.Sprintf("final %v, the reference %v", got.Final, want.Final))
	}
	return out
}

// compareServedJSON compares Convert with the JSON Tenhou served: dir holds
// pairs LOGID.xml and LOGID.json.
func compareServedJSON(t *testing.T, dir string) {
	xmls, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
	if len(xmls) == 0 {
		t.Fatalf("no *.xml in %s", dir)
	}
	compared := 0
	for _, x := range xmls {
		want, err := os.ReadFile(strings.TrimSuffix(x, ".xml") + ".json")
		if err != nil {
			continue
		}
		g, err := mjlog.Read(x)
		if err != nil {
			t.Fatal(err)
		}
		var a, b map[string]any
		if err := json.Unmarshal(encoded(t, g), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		compared++
		for _, d := range diff("", a, b) {
			t.Errorf("%s: %s", filepath.Base(x), d)
		}
	}
	if compared == 0 {
		t.Fatalf("no LOGID.xml with its LOGID.json in %s", dir)
	}
	t.Logf("%d games compared with Tenhou's JSON", compared)
}

// diff lists the paths where got and want differ.
func diff(path string, got, want any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: got %v, want an object", path, got)}
		}
		var out []string
		for k := range w {
			out = append(out, diff(path+"."+k, g[k], w[k])...)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: extra key", path, k))
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: got %v, want %v", path, got, want)}
		}
		var out []string
		for i := range w {
			out = append(out, diff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: got %v, want %v", path, got, want)}
	}
	return nil
}
