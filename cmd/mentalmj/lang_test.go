package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestUnknownLang: an unknown --lang is a usage error (exit 2) that names
// the languages there are, for host (and join, which shares its flags), view, league, lobby and local alike; a known one passes
// the check (view then fails on the missing file, not on --lang).
func TestUnknownLang(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"view", "--lang", "zz", "nofile.mjt"},
		{"host", "--lang", "klingon", "--table", "t"},
		{"league", "--ui", "--lang", "fr", "nodir"},
		{"lobby", "--ui", "--lang", "fr"},
		{"local", "--play", "--lang", "de"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "--lang") || !strings.Contains(errb.String(), "en, ja") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the languages en, ja", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	run(context.Background(), []string{"view", "--lang", "ja", "nofile.mjt"}, &out, &errb)
	if strings.Contains(errb.String(), "--lang") {
		t.Errorf("--lang ja refused: %s", errb.String())
	}
}
