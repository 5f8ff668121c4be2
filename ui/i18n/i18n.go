package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed catalog/*.json
var files embed.FS

// Reference is the language every catalogue is checked against and falls
// back to.
const Reference = "en"

// catalogues reads every embedded catalogue: language code → key →
// message. A catalogue that is not a JSON object of strings is a build
// defect; the package's tests read each.
func catalogues() (map[string]map[string]string, error) {
	loadOnce.Do(func() { loaded, loadErr = readCatalogues() })
	return loaded, loadErr
}

var (
	loadOnce sync.Once
	loaded   map[string]map[string]string // read once; never changed after
	loadErr  error
)

// readCatalogues reads the embedded catalogues.
func readCatalogues() (map[string]map[string]string, error) {
	names, err := fs.Glob(files, "catalog/*.json")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", n, err)
		}
		out[strings.TrimSuffix(path.Base(n), ".json")] = m
	}
	return out, nil
}

// Languages returns the codes of the languages with a catalogue, sorted
// ("en", "ja").
func Languages() []string {
	cs, _ := catalogues()
	var out []string
	for c := range cs {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// Lang is one language's messages, with English behind them.
type Lang struct {
	// Code is the language's code ("en", "ja").
	Code string
	msgs map[string]string
	ref  map[string]string
}

// Load returns the language code ("ja", or a locale such as "ja_JP.UTF-8"
// or "ja-JP", of which the language is taken). An unknown language is an
// error that names the languages there are.
func Load(code string) (*Lang, error) {
	cs, err := catalogues()
	if err != nil {
		return nil, err
	}
	c := base(code)
	m, ok := cs[c]
	if !ok {
		return nil, fmt.Errorf("unknown language %q: the languages are %s", code, strings.Join(Languages(), ", "))
	}
	return &Lang{Code: c, msgs: m, ref: cs[Reference]}, nil
}

// English returns the reference language.
func English() *Lang {
	l, err := Load(Reference)
	if err != nil {
		panic(err) // the embedded English catalogue is part of the build
	}
	return l
}

// base returns the language of a locale or language tag: "ja_JP.UTF-8",
// "ja-JP" and "JA" are "ja".
func base(code string) string {
	c := strings.ToLower(code)
	if i := strings.IndexAny(c, "_-.@"); i >= 0 {
		c = c[:i]
	}
	return c
}

// Detect returns the language of the system's locale, read with getenv
// from LC_ALL, LC_MESSAGES and LANG in that order (POSIX's precedence),
// when it has a catalogue; else Reference. "C" and "POSIX" are English.
func Detect(getenv func(string) string) string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		loc := getenv(v)
		if loc == "" {
			continue
		}
		if _, err := Load(loc); err == nil {
			return base(loc)
		}
		return Reference // the first set variable decides, as in POSIX
	}
	return Reference
}

// T returns the message key formatted with args (fmt.Sprintf), in l's
// language, or in English when l's catalogue lacks it; a key English
// lacks too is returned as "‹key›" (the tests make sure none is used).
// A nil *Lang is English.
func (l *Lang) T(key string, args ...any) string {
	if l == nil {
		l = English()
	}
	m, ok := l.msgs[key]
	if !ok {
		m, ok = l.ref[key]
	}
	if !ok {
		return "‹" + key + "›"
	}
	if len(args) == 0 {
		return m
	}
	return fmt.Sprintf(m, args...)
}

// Has reports whether l's own catalogue has key (no fallback).
func (l *Lang) Has(key string) bool {
	if l == nil {
		l = English()
	}
	_, ok := l.msgs[key]
	return ok
}

// Missing returns the keys of the English catalogue that language code's
// catalogue lacks, sorted.
func Missing(code string) ([]string, error) {
	cs, err := catalogues()
	if err != nil {
		return nil, err
	}
	m, ok := cs[base(code)]
	if !ok {
		return nil, fmt.Errorf("unknown language %q", code)
	}
	var out []string
	for k := range cs[Reference] {
		if _, ok := m[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

// All returns every catalogue, language code → key → message, for a page
// to pick from.
func All() map[string]map[string]string {
	cs, _ := catalogues()
	return cs
}

// Wind returns a seat or round wind the engine names in English ("East",
// game.RoundName's words) in l's language ("東"); any other word as is.
func (l *Lang) Wind(w string) string {
	if l == nil {
		l = English()
	}
	if _, ok := l.ref["wind."+w]; ok {
		return l.T("wind." + w)
	}
	return w
}

// Round returns a round the engine names ("East 1", game.RoundName) in
// l's language ("東1局"); any other text as is.
func (l *Lang) Round(name string) string {
	w, n, ok := strings.Cut(name, " ")
	num, err := strconv.Atoi(n)
	if !ok || err != nil || l.Wind(w) == w {
		return name
	}
	return l.T("round", l.Wind(w), num)
}

// FromAcceptLanguage returns the first language of an HTTP
// Accept-Language header (RFC 9110 §12.5.4; weights are read in order of
// appearance, which browsers use for preference) that has a catalogue,
// else Reference.
func FromAcceptLanguage(header string) string {
	for _, part := range strings.Split(header, ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if _, err := Load(tag); err == nil && tag != "" && tag != "*" {
			return base(tag)
		}
	}
	return Reference
}

// Pick returns the catalogue of lang (a --lang flag), or when lang is ""
// that of the first language of the Accept-Language header that has one
// (FromAcceptLanguage); English when neither loads. Pages call it per
// request.
func Pick(lang, acceptLanguage string) *Lang {
	if lang == "" {
		lang = FromAcceptLanguage(acceptLanguage)
	}
	l, err := Load(lang)
	if err != nil {
		return English()
	}
	return l
}

// PickSystem returns the catalogue of lang (a --lang flag), or when lang
// is "" that of the system's locale read with getenv (Detect); English
// when neither loads. The terminal table, `local` and `watch --table`
// call it once.
func PickSystem(lang string, getenv func(string) string) *Lang {
	if lang == "" {
		lang = Detect(getenv)
	}
	l, err := Load(lang)
	if err != nil {
		return English()
	}
	return l
}

// verb matches a fmt verb of a message ("%s", "%[2]d", "%%").
var verb = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[a-zA-Z%]`)

// EnglishLeft returns the English words left in text, a page or screen
// drawn in language l: the literal pieces (between the fmt verbs) of the
// English messages of the keys starting with one of prefixes whose
// message in l differs, that have a word of three letters or more and
// occur in text. A page fully in l gives none. Tests of the pages and the
// terminal call it.
func (l *Lang) EnglishLeft(text string, prefixes ...string) []string {
	if l == nil {
		l = English()
	}
	word := regexp.MustCompile(`[A-Za-z]{3,}`)
	var out []string
	for k, en := range l.ref {
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) || l.msgs[k] == en {
			continue
		}
		for _, piece := range verb.Split(en, -1) {
			piece = strings.TrimSpace(piece)
			if word.MatchString(piece) && strings.Contains(text, piece) {
				out = append(out, k+": "+piece)
			}
		}
	}
	slices.Sort(out)
	return out
}
