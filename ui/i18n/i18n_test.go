package i18n

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
)

// TestEveryCatalogueHasEveryKey fails when a catalogue lacks a key the
// English one has (the target: the Japanese catalogue at 100%),
// or has a key English lacks (a typo that would never show).
func TestEveryCatalogueHasEveryKey(t *testing.T) {
	cs, err := catalogues()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 2 || cs["en"] == nil || cs["ja"] == nil {
		t.Fatalf("catalogues %v: want en and ja at least", Languages())
	}
	for code, m := range cs {
		miss, err := Missing(code)
		if err != nil {
			t.Fatal(err)
		}
		if len(miss) > 0 {
			t.Errorf("catalog/%s.json lacks %d of the English keys: %s", code, len(miss), strings.Join(miss, ", "))
		}
		for k, v := range m {
			if _, ok := cs[Reference][k]; !ok {
				t.Errorf("catalog/%s.json has %q, which English lacks", code, k)
			}
			if strings.TrimSpace(v) == "" {
				t.Errorf("catalog/%s.json: %q is empty", code, k)
			}
		}
	}
}

// TestVerbsMatchEnglish: each message takes the same arguments as the
// English one (the same count of each verb kind), so that no language
// prints %!d(MISSING) or drops a number.
func TestVerbsMatchEnglish(t *testing.T) {
	verbs := regexp.MustCompile(`%(?:\[(\d+)\])?([sd])`)
	args := func(m string) []string {
		var out []string
		i := 0
		for _, v := range verbs.FindAllStringSubmatch(m, -1) {
			n := i + 1
			if v[1] != "" {
				n, _ = strconv.Atoi(v[1])
			}
			i = n
			out = append(out, strconv.Itoa(n)+v[2])
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	cs, _ := catalogues()
	for code, m := range cs {
		for k, v := range m {
			if want, got := args(cs[Reference][k]), args(v); !slices.Equal(want, got) {
				t.Errorf("catalog/%s.json %q takes %v, English %v", code, k, got, want)
			}
		}
	}
}

// TestFallbackAndUnknown: a key a language lacks is the English message
// (never the raw key); an unknown language names the languages there
// are; locales and tags are read for their language.
func TestFallbackAndUnknown(t *testing.T) {
	ja, err := Load("ja_JP.UTF-8")
	if err != nil {
		t.Fatal(err)
	}
	if ja.Code != "ja" {
		t.Errorf("Load(ja_JP.UTF-8).Code = %q", ja.Code)
	}
	if got := ja.T("round", ja.T("wind.East"), 1); got != "東1局" {
		t.Errorf("ja round = %q, want 東1局", got)
	}
	if got := ja.T("result.value", 30, 4, 7700); got != "<b>30符4飜7700点</b>" {
		t.Errorf("ja value = %q, want <b>30符4飜7700点</b>", got)
	}
	if got := English().T("result.value", 30, 4, 7700); got != "<b>4 han 30 fu</b> — <b>7700</b> points" {
		t.Errorf("en value = %q", got)
	}
	partial := &Lang{Code: "xx", msgs: map[string]string{}, ref: ja.ref}
	if got := partial.T("act.pon"); got != "Pon" {
		t.Errorf("a missing key gave %q, want the English Pon", got)
	}
	if got := partial.T("no.such.key"); !strings.Contains(got, "no.such.key") || got == "no.such.key" {
		t.Errorf("a key no catalogue has gave %q", got)
	}
	_, err = Load("zz")
	if err == nil || !strings.Contains(err.Error(), "en, ja") {
		t.Errorf("Load(zz): %v, want an error naming en, ja", err)
	}
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LANG": "ja_JP.UTF-8"}, "ja"},
		{map[string]string{"LANG": "ja_JP.UTF-8", "LC_ALL": "C"}, "en"},
		{map[string]string{"LC_MESSAGES": "ja_JP", "LANG": "en_US"}, "ja"},
		{map[string]string{}, "en"},
		{map[string]string{"LANG": "de_DE.UTF-8"}, "en"},
	} {
		if got := Detect(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("Detect(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestYakuNames: the English yaku names are riichi.YakuName's, and the
// Japanese ones are Tenhou's as riichi/yakuname.go lists them beside
// each id (a second source, read from that file).
func TestYakuNames(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "riichi", "yakuname.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^\s*"[^"]*",\s*// (\d+) (.+)$`)
	en, ja := English(), must(Load("ja"))
	n := 0
	for _, m := range line.FindAllStringSubmatch(string(src), -1) {
		id, _ := strconv.Atoi(m[1])
		if got, want := ja.T("yaku."+m[1]), strings.TrimSpace(m[2]); got != want {
			t.Errorf("yaku %d in Japanese: %q, Tenhou writes %q", id, got, want)
		}
		if got, want := en.T("yaku."+m[1]), riichi.YakuName(id); got != want {
			t.Errorf("yaku %d in English: %q, riichi.YakuName says %q", id, got, want)
		}
		n++
	}
	if n != 55 {
		t.Errorf("read %d yaku from riichi/yakuname.go, want 55", n)
	}
}

func must(l *Lang, err error) *Lang {
	if err != nil {
		panic(err)
	}
	return l
}

// TestPagesUseKnownKeys: every message key the pages' scripts ask for
// (t("key") and t("prefix." + …) with the prefix's keys) is in the English
// catalogue, so that no page shows a raw key.
func TestPagesUseKnownKeys(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "*", "assets", "*.js"))
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	en := English()
	lit := regexp.MustCompile(`\bt\("([a-z_.]+[a-z_])"`)
	prefix := regexp.MustCompile(`\bt\("([a-z_]+\.)" \+`)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lit.FindAllStringSubmatch(string(b), -1) {
			n++
			if !en.Has(m[1]) {
				t.Errorf("%s asks for %q, which catalog/en.json lacks", f, m[1])
			}
		}
		for _, m := range prefix.FindAllStringSubmatch(string(b), -1) {
			found := false
			for k := range en.msgs {
				found = found || strings.HasPrefix(k, m[1])
			}
			if !found {
				t.Errorf("%s asks for keys %q…, none in catalog/en.json", f, m[1])
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d message keys found in the pages' scripts: the scan is broken", n)
	}
}

// TestEnglishLeft: English words of a message left on a Japanese screen
// are found (a pieces between verbs), a fully Japanese text gives none.
func TestEnglishLeft(t *testing.T) {
	ja := must(Load("ja"))
	en := English()
	if left := ja.EnglishLeft("<p>"+en.T("lobby.seats", 2, 4)+"</p>", "lobby."); !slices.Contains(left, "lobby.seats: seats free") {
		t.Errorf("English left in an English line: %v", left)
	}
	if left := ja.EnglishLeft("<p>"+ja.T("lobby.seats", 2, 4)+ja.T("league.note")+"</p>", "lobby.", "league."); len(left) > 0 {
		t.Errorf("English left in a Japanese line: %v", left)
	}
}

// TestEveryKeyIsUsed fails on a key of the English catalogue that no
// code asks for: a message left behind when its screen changed. A key is
// asked for when a string literal of the Go code (ui/…, internal/tablerun,
// cmd/mentalmj), of the pages' scripts or templates is the key, is a
// prefix of it ending in "." or "_" (t("act." + kind), "wind."+w), or a
// fmt pattern matching it ("yaku.%d", "tile.%dz").
func TestEveryKeyIsUsed(t *testing.T) {
	var files []string
	for _, glob := range []string{"../*/*.go", "../*/assets/*.js", "../*/assets/*.html", "../../internal/tablerun/*.go", "../../internal/localgame/*.go", "../../internal/progress/*.go", "../../cmd/mentalmj/*.go"} {
		fs, _ := filepath.Glob(glob)
		files = append(files, fs...)
	}
	// A literal that looks like a key: lower-case words joined by dots
	// (the abort and stage keys hold spaces), maybe a fmt verb.
	literal := regexp.MustCompile(`"([a-z][a-z0-9_]*(?:\.[a-z0-9_ %]*)*)"`)
	keyish := regexp.MustCompile(`^[a-z_]+\.[a-z_.]*%`) // "yaku.%d", not "%s (%s)"
	exact, prefixes := map[string]bool{}, map[string]bool{}
	var patterns []*regexp.Regexp
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(b), -1) {
			s := m[1]
			switch {
			case strings.Contains(s, "%") && keyish.MatchString(s):
				p := regexp.QuoteMeta(s)
				p = strings.NewReplacer("%d", `\d+`, "%s", `.+`).Replace(p)
				if re, err := regexp.Compile("^" + p + "$"); err == nil {
					patterns = append(patterns, re)
				}
			case strings.HasSuffix(s, ".") || strings.HasSuffix(s, "_"):
				prefixes[s] = true
			default:
				exact[s] = true
			}
		}
	}
	if len(files) < 20 || len(exact) < 100 {
		t.Fatalf("read %d files, %d literals: the scan is broken", len(files), len(exact))
	}
	var unused []string
	for k := range English().msgs {
		used := exact[k]
		for p := range prefixes {
			used = used || strings.HasPrefix(k, p) && p != "."
		}
		for _, re := range patterns {
			used = used || re.MatchString(k)
		}
		if !used {
			unused = append(unused, k)
		}
	}
	slices.Sort(unused)
	if len(unused) > 0 {
		t.Errorf("%d keys of catalog/en.json are asked for by no code: %s", len(unused), strings.Join(unused, ", "))
	}
}

// TestMsgRoundTrip: a Msg written as JSON and read back says the same in
// every language: nested messages stay messages, whole numbers stay ints
// (%d), text stays text.
func TestMsgRoundTrip(t *testing.T) {
	m := M("fault.peer", 3, M("name", "bob", M("wind.South")), "12D3KooWabc", M("verdict.detail", M("fault.kind.silence"), "silent for 1m0s"))
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Msg
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, code := range Languages() {
		l := must(Load(code))
		if got, want := l.Say(back), l.Say(m); got != want || strings.Contains(got, "%!") {
			t.Errorf("%s: read back %q, want %q (JSON %s)", code, got, want, b)
		}
	}
}

// PickSystem: --lang wins over the locale; without it the locale decides;
// an unknown language or locale falls back to English.
func TestPickSystem(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	ja := env(map[string]string{"LANG": "ja_JP.UTF-8"})
	for _, c := range []struct {
		lang   string
		getenv func(string) string
		want   string
	}{
		{"", ja, "ja"},
		{"en", ja, "en"},
		{"ja", env(nil), "ja"},
		{"", env(map[string]string{"LANG": "fr_FR.UTF-8"}), "en"},
		{"xx", ja, "en"},
	} {
		if got := PickSystem(c.lang, c.getenv).Code; got != c.want {
			t.Errorf("PickSystem(%q, …) = %s, want %s", c.lang, got, c.want)
		}
	}
}
