package tenhou6

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// TestTenhouReference compares Convert with the JSON Tenhou itself served
// for the same games: a directory named by $MENTALMJ_TENHOU6_REF holding
// pairs LOGID.xml (the mjlog) and LOGID.json (tenhou.net/5/mjlog2json.cgi
// output), such as the six pairs published in tsubakisakura/mjlog2json's
// data/ directory (commit 74defac). The data are not part of this
// repository; the test skips without them.
func TestTenhouReference(t *testing.T) {
	dir := os.Getenv("MENTALMJ_TENHOU6_REF")
	if dir == "" {
		t.Skip("MENTALMJ_TENHOU6_REF not set")
	}
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
		l, err := Convert(g)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := l.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		var a, b map[string]any
		if err := json.Unmarshal(buf.Bytes(), &a); err != nil {
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
