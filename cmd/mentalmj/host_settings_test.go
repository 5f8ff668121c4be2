package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// hostSettingsRun is one table of TestHostSettingsTravel: the host's
// settings flags, the settings they mean (built here from the rules and
// timecontrol packages, not from the flags), and the guests.
type hostSettingsRun struct {
	table  string
	flags  []string
	want   func(t *testing.T) settings.Settings
	guests []string
	hands  int
}

// TestHostSettingsTravel runs "mentalmj host" with settings flags and
// guests that give none ("join INVITE --name NICK --bot"): every guest is
// shown the host's game, plays exactly it, and every transcript's Hello
// and the audit say so. The first table (four players, 2 hands of a
// hanchan, the M-League preset with a switch, a 3+7 time control, private
// hands) also sees a guest refused before dialling for a contradicting
// --hands (exit 2, naming the flag and the host's value) and a guest who
// declines at the prompt (exit 1, the host told); the second is a
// three-player tonpuu without proofs or clock.
func TestHostSettingsTravel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts several processes")
	}
	bin := buildBinary(t)
	runs := []hostSettingsRun{
		{
			table: "friday",
			flags: []string{"--hands", "2", "--rules", "mleague", "--rule", "aka=0", "--time", "3+7", "--private-hands"},
			want: func(t *testing.T) settings.Settings {
				r, err := rules.Preset("mleague")
				if err != nil {
					t.Fatal(err)
				}
				if err := r.Apply("aka=0"); err != nil {
					t.Fatal(err)
				}
				return settings.Settings{Players: 4, Hands: 2, Rules: r, Time: timecontrol.Control{Base: 3 * time.Second, Bank: 7 * time.Second}, PrivateHands: true}
			},
			guests: []string{"bob", "carol", "dave"},
			hands:  2,
		},
		{
			table: "sunday",
			flags: []string{"--players", "3", "--tonpuu", "--hands", "1", "--time", "off", "--no-proofs", "--no-pipeline"},
			want: func(*testing.T) settings.Settings {
				return settings.Settings{Players: 3, Tonpuu: true, Hands: 1, Rules: rules.Default(), Time: timecontrol.Off, NoProofs: true, NoPipeline: true}
			},
			guests: []string{"bob", "carol"},
			hands:  1,
		},
	}
	for i, run := range runs {
		t.Run(run.table, func(t *testing.T) { testHostSettings(t, bin, run, i == 0) })
	}
}

// playerFlags are the flags of a player named name whose files go in
// dir: its nickname, a loopback listener, its data directory and
// transcript, and bounded waits.
func playerFlags(dir, name string) []string {
	return []string{"--name", name, "--listen", "/ip4/127.0.0.1/tcp/0",
		"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
		"--timeout", "20s", "--connect-timeout", "60s"}
}

func testHostSettings(t *testing.T, bin string, run hostSettingsRun, refusals bool) {
	want := run.want(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	infra := func(name string) []string { return playerFlags(dir, name) }
	guest := func(name string) []string { return append([]string{"--bot"}, infra(name)...) }
	h := startHost(t, ctx, bin, slices.Concat([]string{"host", "--table", run.table, "--bot"}, run.flags, infra("alice"))...)
	inv, err := invite.Parse(h.invite)
	if err != nil || inv.Settings == nil {
		t.Fatalf("printed invite: %+v %v", inv, err)
	}
	if !inv.Settings.Equal(want) || *inv.Settings != want {
		t.Fatalf("the invite carries %s, want %s", inv.Settings.Summary(), want.Summary())
	}
	shown := "alice's table " + run.table + ": " + want.Summary()
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&rest, h.lines); close(copied) }()

	if refusals {
		// A contradicting flag: refused before dialling.
		out, err := exec.CommandContext(ctx, bin, append([]string{"join", h.invite, "--hands", "5"}, guest("zed")...)...).CombinedOutput()
		if code := exitCode(err); code != 2 || !strings.Contains(string(out), "--hands 5, but the host's table plays 2 hands") {
			t.Errorf("join with --hands 5: exit %d, want 2 naming the flag and the host's value:\n%s", code, out)
		}
		// A guest at the terminal who says no.
		decline := exec.CommandContext(ctx, bin, append([]string{"join", h.invite}, infra("yan")...)...)
		decline.Stdin = strings.NewReader("n\n")
		out, err = decline.CombinedOutput()
		if code := exitCode(err); code != 1 || !strings.Contains(string(out), shown) || !strings.Contains(string(out), "play this game? [y/N]") || !strings.Contains(string(out), "the host was told") {
			t.Errorf("a guest declining: exit %d, want 1 after the game and the question:\n%s", code, out)
		}
	}
	h.join(t, ctx, bin, run.guests, guest, 300*time.Millisecond)
	h.wg.Wait()
	hostWait := h.host.Wait()
	<-copied
	if hostWait != nil {
		t.Fatalf("host: %v\n%s\n%s", hostWait, rest.String(), h.hostErr.String())
	}
	if !strings.Contains(rest.String(), shown) {
		t.Errorf("the host does not show its game %q:\n%s", shown, rest.String())
	}
	if refusals && !strings.Contains(rest.String(), "yan declined the game") {
		t.Errorf("the host was not told of the guest who declined:\n%s", rest.String())
	}
	paths := []string{filepath.Join(dir, "alice.mjt")}
	for i, name := range run.guests {
		if h.errs[i] != nil {
			t.Fatalf("%s: %v\n%s", name, h.errs[i], h.outs[i].String())
		}
		out := h.outs[i].String()
		if !strings.Contains(out, shown) {
			t.Errorf("%s was not shown the game %q:\n%s", name, shown, out)
		}
		if done := "all " + strconv.Itoa(run.hands) + " hands audited ok"; !strings.Contains(out, done) {
			t.Errorf("%s did not play the host's %d hands:\n%s", name, run.hands, out)
		}
		paths = append(paths, filepath.Join(dir, name+".mjt"))
	}
	// The records say so: every transcript opens with its player's Hello
	// announcing the host's settings, and the audit reads them back.
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := protocol.ReadTranscript(f, path)
		f.Close()
		if err != nil || len(recs) == 0 {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := settings.FromProto(recs[0].Entry.GetHello().GetSettings())
		if err != nil || got != want {
			t.Errorf("%s: the Hello announces %+v (%v), want %s", path, got, err, want.Summary())
		}
	}
	out, err := exec.CommandContext(ctx, bin, append([]string{"audit", "--json"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("mentalmj audit: %v\n%s", err, out)
	}
	var report struct {
		Settings string `json:"settings"`
		Hands    []any  `json:"hands"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatal(err)
	}
	if report.Settings != want.Summary() || len(report.Hands) != run.hands {
		t.Errorf("audit: settings %q, %d hands; want %q, %d", report.Settings, len(report.Hands), want.Summary(), run.hands)
	}
}

// exitCode returns the process exit code of err from exec (0 for nil).
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestHostTimeControl: a guest at the terminal confirms the host's game
// (--time 0.3+0.6) and then never types again. Its prompts show the
// countdown and the bank, its node acts for it once both are used, and
// every player's hand line names it as timed out; nobody is named
// silent: the others wait for its decisions as the time control says.
func TestHostTimeControl(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	infra := func(name string) []string { return playerFlags(dir, name) }
	h := startHost(t, ctx, bin, slices.Concat([]string{"host", "--table", "clock", "--bot", "--hands", "1", "--time", "0.3+0.6"}, infra("alice"))...)
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&rest, h.lines); close(copied) }()

	// The human: answers y, then keeps its terminal open and silent.
	human := exec.CommandContext(ctx, bin, append([]string{"join", h.invite}, infra("hana")...)...)
	keys, err := human.StdinPipe() // open until the process exits
	if err != nil {
		t.Fatal(err)
	}
	var humanOut bytes.Buffer
	human.Stdout, human.Stderr = &humanOut, &humanOut
	if err := human.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Write([]byte("y\n")); err != nil {
		t.Fatal(err)
	}
	h.join(t, ctx, bin, []string{"bob", "carol"}, func(name string) []string { return append([]string{"--bot"}, infra(name)...) }, 0)
	humanErr := human.Wait()
	h.wg.Wait()
	hostErr := h.host.Wait()
	<-copied
	out := humanOut.String()
	if humanErr != nil || hostErr != nil {
		t.Fatalf("hana: %v, host: %v\n%s\n%s", humanErr, hostErr, out, rest.String())
	}
	for _, want := range []string{"play this game? [y/N]", "0.3+0.6 s per decision", "within 1 s + bank 1 s", "time is up: the node chose", "all 1 hands audited ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("hana's terminal lacks %q:\n%s", want, out)
		}
	}
	for name, o := range map[string]string{"alice": rest.String(), "bob": h.outs[0].String(), "carol": h.outs[1].String()} {
		if !strings.Contains(o, "hana") || !strings.Contains(o, "timed out and was acted for") || strings.Contains(o, "FAULT") {
			t.Errorf("%s's hand line does not name hana as timed out, or names a fault:\n%s", name, o)
		}
	}
}
