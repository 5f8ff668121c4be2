package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// handTranscript is a real transcript of one hand (written by join), kept
// with the viewer's test data.
const handTranscript = "../../ui/viewer/testdata/hand.mjt"

// The surprises of issue 25, each as the new user typed it: flags after
// the file are read as flags, for every command.
func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	code, out, errOut := runMain(t, "audit", handTranscript, "--json")
	var report map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &report) != nil || report["ok"] != true {
		t.Errorf("audit FILE --json: exit %d, stderr %q; want 0 and a JSON report, got:\n%.300s", code, errOut, out)
	}
	code, out, errOut = runMain(t, "view", handTranscript, "--no-open", "--check")
	if code != 0 || !strings.Contains(out, "kyoku") {
		t.Errorf("view FILE --no-open --check: exit %d, stdout %q, stderr %q; want 0 and the summary", code, out, errOut)
	}
	// "--" ends the flags: what follows is a file name, even "--json".
	code, _, errOut = runMain(t, "audit", "--", "--json")
	if code != 2 || !strings.Contains(errOut, "--json: no such file") {
		t.Errorf("audit -- --json: exit %d, stderr %q; want 2 naming the file --json", code, errOut)
	}
}

// A usage error is two lines: what is wrong, naming the flag, and where
// the help is; never the whole help.
func TestUsageErrorIsTwoLines(t *testing.T) {
	t.Parallel()
	used := t.TempDir()
	if err := os.WriteFile(filepath.Join(used, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		first string
	}{
		{[]string{"local", "--hands", "two"}, `mentalmj local: --hands: "two" is not a number`},
		{[]string{"local", "--data-dir", used}, "mentalmj local: --data-dir " + used + " is not empty; give a new directory"},
		{[]string{"local", "--timeout", "soon"}, `mentalmj local: --timeout: "soon" is not a duration like 30s, 5m or 1h30m`},
		{[]string{"local", "--play=maybe"}, `mentalmj local: --play: "maybe" is not true or false`},
		{[]string{"join", "--table"}, "mentalmj join: --table needs a value"},
		{[]string{"tenhou", "verify", "--jobs", "0", "x"}, "mentalmj tenhou verify: --jobs 0: want at least 1"},
	} {
		code, out, errOut := runMain(t, c.args...)
		cmd := strings.TrimPrefix(strings.SplitN(c.first, ":", 2)[0], "mentalmj ")
		want := c.first + "\nRun 'mentalmj help " + cmd + "' for usage.\n"
		if code != 2 || errOut != want || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr\n%s\nwant exit 2 and stderr\n%s", c.args, code, out, errOut, want)
		}
	}
}

// A mistyped command, subcommand, flag, preset, switch or strategy gets
// the names it resembles.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	peers := []string{"--peer", "a", "--peer", "b", "--peer", "c"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"jion"}, `mentalmj: unknown command "jion"; did you mean join?`},
		{[]string{"tenhou", "verfy"}, `mentalmj tenhou: unknown subcommand "verfy"; did you mean verify?`},
		{[]string{"help", "jion"}, `unknown command "jion"; did you mean join?`},
		{append([]string{"join", "--table", "t", "--rules", "tenhuo"}, peers...), `mentalmj join: --rules: no preset "tenhuo" (did you mean tenhou?); presets: tenhou, majsoul`},
		{[]string{"join", "--tabel", "t"}, "mentalmj join: unknown flag --tabel; did you mean --table?"},
		{[]string{"host", "--table", "t", "--rule", "akka=0"}, `mentalmj host: --rule: no switch "akka" (did you mean aka?); switches: agari-yame`},
		{[]string{"local", "--rules", "mleage"}, `(did you mean mleague?)`},
		{[]string{"score", "1m", "--win", "1m", "--rules", "TENHOU", "--rule", "kiriage=on", "--rulse", "x"}, "did you mean --rule or --rules?"},
		{[]string{"rules", "wcr"}, `mentalmj rules: no preset "wcr" (did you mean wrc?)`},
		{append([]string{"join", "--table", "t", "--research-cheat", "nosuch"}, peers...), `--research-cheat: no strategy "nosuch"; strategies:`},
	} {
		code, _, errOut := runMain(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 2 {
			t.Errorf("%q: exit %d, stderr\n%s\nwant exit 2, two lines, with %q", c.args, code, errOut, c.want)
		}
	}
	// A preset is matched without case, as before.
	if code, out, errOut := runMain(t, "rules", "TENHOU"); code != 0 || !strings.Contains(out, "Tenhou") {
		t.Errorf("rules TENHOU: exit %d, %q %q", code, out, errOut)
	}
}

// Every command, subcommand included, prints the same help for -h,
// --help and "mentalmj help COMMAND", on stdout with exit 0, in one shape.
func TestEveryCommandHasTheSameHelp(t *testing.T) {
	t.Parallel()
	var paths [][]string
	root := rootCommand(nil, io.Discard, io.Discard)
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		paths = append(paths, []string{c.Name()})
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				paths = append(paths, []string{c.Name(), s.Name()})
			}
		}
	}
	if len(paths) < 20 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, p := range paths {
		_, want, _ := runMain(t, append([]string{"help"}, p...)...)
		if !strings.HasPrefix(want, "Usage: mentalmj "+strings.Join(p, " ")) {
			t.Errorf("help %s does not start with its synopsis:\n%.200s", strings.Join(p, " "), want)
		}
		for _, h := range []string{"-h", "--help"} {
			code, out, errOut := runMain(t, append(p, h)...)
			if code != 0 || out != want || errOut != "" {
				t.Errorf("%s %s: exit %d, stderr %q; its help differs from help %s:\n%s", strings.Join(p, " "), h, code, errOut, strings.Join(p, " "), out)
			}
		}
	}
	if code, out, _ := runMain(t, "help"); code != 0 || !strings.Contains(out, "completion") || !strings.Contains(out, "join ") {
		t.Errorf("help: exit %d:\n%s", code, out)
	}
	// Alone, mentalmj and a command with subcommands print their help
	// as a usage error: on stderr, exit 2.
	for _, args := range [][]string{nil, {"tenhou"}, {"majsoul"}} {
		if code, out, errOut := runMain(t, args...); code != 2 || out != "" || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%q: exit %d, stdout %q, stderr %.100q", args, code, out, errOut)
		}
	}
}

// join --turn-timeout's help says once what its default is.
func TestTurnTimeoutHelp(t *testing.T) {
	t.Parallel()
	_, out, _ := runMain(t, "help", "join")
	_, entry, ok := strings.Cut(out, "--turn-timeout")
	if !ok {
		t.Fatalf("help join has no --turn-timeout:\n%s", out)
	}
	entry, _, _ = strings.Cut(entry, "\n      --") // up to the next flag
	entry = strings.Join(strings.Fields(entry), " ")
	if n := strings.Count(entry, "default"); n != 1 || !strings.Contains(entry, "BASE+BANK plus --timeout") {
		t.Errorf("--turn-timeout's help says default %d times: %s", n, entry)
	}
}

// completion prints each shell's script, which calls back into mentalmj.
func TestCompletion(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := runMain(t, "completion", shell)
		if code != 0 || !strings.Contains(out, " for mentalmj") || !strings.Contains(out, "__complete") {
			t.Errorf("completion %s: exit %d, stderr %q, script:\n%.300s", shell, code, errOut, out)
		}
	}
	// The completions themselves: commands, and a flag's names.
	if _, out, _ := runMain(t, "__complete", "jo"); !strings.Contains(out, "join") {
		t.Errorf("__complete jo: %q", out)
	}
	if _, out, _ := runMain(t, "__complete", "join", "--rules", ""); !strings.Contains(out, "mleague") {
		t.Errorf("__complete join --rules: %q", out)
	}
	if code, _, errOut := runMain(t, "completion", "tcsh"); code != 2 || !strings.Contains(errOut, "tcsh") {
		t.Errorf("completion tcsh: exit %d, %q", code, errOut)
	}
}

// The single-dash long flags the Go flag package read (-win 4s, -json)
// still work, and -v is still --verbose.
func TestSingleDashLongFlags(t *testing.T) {
	t.Parallel()
	code, out, errOut := runMain(t, "score", "123m456p789s2344s", "-win", "4s", "-ron", "-riichi", "-dora=1m")
	if code != 0 || !strings.Contains(out, "3900 points") {
		t.Errorf("score -win 4s -ron -riichi -dora=1m: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := runMain(t, "audit", "-json", handTranscript); code != 0 {
		t.Errorf("audit -json FILE: exit %d, %q", code, errOut)
	}
	if got := longFlags(rootCommand(nil, io.Discard, io.Discard), []string{"join", "-v", "-table", "-t", "-name", "-x", "--", "-yes"}); strings.Join(got, " ") != "join -v --table -t --name -x -- -yes" {
		t.Errorf("longFlags = %q", got)
	}
}
