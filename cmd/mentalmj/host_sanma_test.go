package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/invite"
)

// TestHostSanmaInvite runs "mentalmj host --players 3" and two "mentalmj
// join INVITE" processes on 127.0.0.1: the invite says three players, the
// host gathers two guests ("3 of 3"), the three play a three-player hand,
// and their transcripts audit as a sanma game and agree.
func TestHostSanmaInvite(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test starts three processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	common := func(name string) []string {
		return []string{"--bot", "--name", name, "--hands", "1", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s"}
	}
	host := exec.CommandContext(ctx, bin, append([]string{"host", "--table", "sunday", "--players", "3"}, common("alice")...)...)
	hostOut, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var hostErr bytes.Buffer
	host.Stderr = &hostErr
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(hostOut)
	first, err := rd.ReadString('\n')
	if err != nil {
		t.Fatalf("host printed nothing: %v\n%s", err, hostErr.String())
	}
	m := regexp.MustCompile(`^mentalmj join (mmj1[a-z2-7]+)\n$`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("host's first line %q is not 'mentalmj join mmj1…'", first)
	}
	if inv, err := invite.Parse(m[1]); err != nil || inv.PlayerCount() != 3 {
		t.Fatalf("printed invite: %+v %v", inv, err)
	}
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&rest, rd); close(copied) }()

	names := []string{"bob", "carol"}
	outs := make([]bytes.Buffer, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		cmd := exec.CommandContext(ctx, bin, append([]string{"join", m[1]}, common(name)...)...)
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { errs[i] = cmd.Wait() })
		time.Sleep(300 * time.Millisecond)
	}
	wg.Wait()
	hostWait := host.Wait()
	<-copied
	if hostWait != nil {
		t.Fatalf("host: %v\n%s\n%s", hostWait, rest.String(), hostErr.String())
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v\n%s", names[i], err, outs[i].String())
		}
	}
	for i, want := range []string{"bob joined, 2 of 3", "carol joined, 3 of 3", "all 1 hands audited ok"} {
		if !strings.Contains(rest.String(), want) {
			t.Errorf("host output lacks %d %q:\n%s", i, want, rest.String())
		}
	}
	if !strings.Contains(outs[0].String(), "at the table: alice (host), bob (you); 2 of 3") {
		t.Errorf("bob's output does not show the arrivals of 3:\n%s", outs[0].String())
	}
	paths := []string{filepath.Join(dir, "alice.mjt")}
	for _, name := range names {
		paths = append(paths, filepath.Join(dir, name+".mjt"))
	}
	out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "three-player (sanma)") {
		t.Errorf("mentalmj audit of the three transcripts: %v\n%s", err, out)
	}
}
