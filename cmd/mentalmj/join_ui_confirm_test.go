package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/internal/headless"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// TestJoinUIConfirm: guests with --ui (their terminal input at its end)
// answer the host's game on the page. The page shows the game as the
// host's flags make it (settings.Summary of the settings built here); a
// guest who clicks Decline exits 1 and the host is told; a guest who
// clicks Accept meets the host and the game starts on the same page (its
// seats drawn).
func TestJoinUIConfirm(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts several processes and a browser")
	}
	if headless.Chromium() == "" {
		t.Skip("no Chromium found: the browser test cannot run")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	infra := func(name string) []string {
		return []string{"--name", name, "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s"}
	}
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "sunday", "--bot", "--players", "3", "--tonpuu", "--hands", "1", "--time", "off", "--no-proofs"}, infra("alice")...)...)
	want := "alice's table sunday: " + settings.Settings{Players: 3, Tonpuu: true, Hands: 1, Rules: rules.Default(), Time: timecontrol.Off, NoProofs: true}.Summary()
	hostOut := make(chan string, 1)
	go func() {
		var b strings.Builder
		for {
			line, err := h.lines.ReadString('\n')
			b.WriteString(line)
			if strings.Contains(line, "declined the game") || err != nil {
				hostOut <- b.String()
				return
			}
		}
	}()
	bctx := headless.New(t, ctx)
	urlRE := regexp.MustCompile(`table: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+)`)
	// guest starts a --ui guest and opens its page at the question.
	guest := func(name string) (<-chan error, *lockedText) {
		cmd := exec.CommandContext(ctx, bin, append([]string{"join", h.invite, "--ui", "--no-open"}, infra(name)...)...)
		pr, pw := io.Pipe()
		cmd.Stdout, cmd.Stderr = pw, pw
		all := &lockedText{}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { err := cmd.Wait(); pw.Close(); exited <- err }()
		r := bufio.NewReader(pr)
		for {
			line, err := r.ReadString('\n')
			all.WriteString(line)
			if m := urlRE.FindStringSubmatch(line); m != nil {
				if err := chromedp.Do(bctx, chromedp.Navigate(m[1]), chromedp.WaitVisible("#confirm-game")); err != nil {
					t.Fatal(err)
				}
				break
			}
			if err != nil {
				t.Fatalf("%s printed no table URL: %v\n%s", name, err, all.String())
			}
		}
		go func() {
			for {
				line, err := r.ReadString('\n')
				all.WriteString(line)
				if err != nil {
					return
				}
			}
		}()
		shown, err := chromedp.Run(bctx, chromedp.Text("#confirm-game"))
		if err != nil || shown != want {
			t.Errorf("%s's page shows %q (%v), want %q", name, shown, err, want)
		}
		return exited, all
	}

	yan, yanOut := guest("yan")
	if err := chromedp.Do(bctx, chromedp.Click("#decline")); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(<-yan); code != 1 {
		t.Errorf("yan declined on the page: exit %d, want 1\n%s", code, yanOut.String())
	}
	if out := <-hostOut; !strings.Contains(out, "yan declined the game") {
		t.Errorf("the host was not told of yan's decline:\n%s", out)
	}

	bob := exec.CommandContext(ctx, bin, append([]string{"join", h.invite, "--bot"}, infra("bob")...)...)
	if err := bob.Start(); err != nil {
		t.Fatal(err)
	}
	carolExited, carolOut := guest("carol")
	if err := chromedp.Do(bctx, chromedp.Click("#accept"), chromedp.WaitVisible("#seat-0 .name")); err != nil {
		t.Fatalf("the game did not start on carol's page: %v\n%s", err, carolOut.String())
	}
	if p := os.Getenv("MENTALMJ_SCREENSHOT"); p != "" {
		if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(p, png, 0o644)
		}
	}
	// The game started: stop the three processes.
	cancel()
	<-carolExited
	bob.Wait()
	h.host.Wait()
}

// lockedText collects a process's output for a failure message.
type lockedText struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedText) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedText) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
