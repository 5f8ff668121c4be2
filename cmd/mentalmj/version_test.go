package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/protocol"
)

// version and --version print the module, the protocol version the
// protocol package speaks, and the Go version the test runs on.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		for _, want := range []string{"github.com/mentalmj/mentalmj", "protocol: " + protocol.Version, runtime.Version()} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out.String())
			}
		}
	}
}

// help CMD prints that command's usage on stdout, not the command list;
// an unknown one is a usage error.
func TestHelpCommand(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"help", "host"}, &out, &errOut); code != 0 {
		t.Fatalf("help host: exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "Usage: mentalmj host") || !strings.Contains(out.String(), "-time") || strings.Contains(out.String(), "Commands:") {
		t.Errorf("help host printed:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"help", "local"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "-data-dir") || strings.Contains(out.String(), "\n  -dir ") {
		t.Errorf("help local (exit %d) does not show --data-dir alone:\n%s", code, out.String())
	}
	if code := run(context.Background(), []string{"help", "nope"}, &out, &errOut); code != 2 {
		t.Errorf("help nope: exit %d, want 2", code)
	}
}

// A malformed --time is a usage error listing the valid forms, before
// anything starts.
func TestBadTimeFlag(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"host"}, {"join", "--peer", "a", "--peer", "b", "--peer", "c"}, {"local"}} {
		cmd := args[0]
		var out, errOut bytes.Buffer
		if cmd != "local" {
			args = append(args, "--table", "x")
		}
		code := run(context.Background(), append(args, "--time", "5-10"), &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "--time") || !strings.Contains(errOut.String(), `"off"`) {
			t.Errorf("%s --time 5-10: exit %d, want 2 listing the forms:\n%s", cmd, code, errOut.String())
		}
	}
}

// writeBuildInfo prints the VCS revision, "(modified)" only for a tree
// with uncommitted changes, and the commit time, as recorded; a build
// without them (go test, go run of a file) leaves those lines out.
func TestBuildInfo(t *testing.T) {
	t.Parallel()
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/mentalmj/mentalmj", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-28T15:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	var out bytes.Buffer
	writeBuildInfo(&out, bi)
	for _, want := range []string{"mentalmj: github.com/mentalmj/mentalmj v1.2.3\n", "revision: 0123abcd (modified)\n", "commit time: 2026-11-28T15:00:00Z\n", "go:       go1.26.8\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	bi.Settings[2].Value = "false"
	out.Reset()
	writeBuildInfo(&out, bi)
	if !strings.Contains(out.String(), "revision: 0123abcd\n") {
		t.Errorf("an unmodified tree:\n%s", out.String())
	}
	out.Reset()
	writeBuildInfo(&out, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/mentalmj/mentalmj", Version: "(devel)"}})
	if strings.Contains(out.String(), "revision") || strings.Contains(out.String(), "commit time") {
		t.Errorf("no VCS settings, yet:\n%s", out.String())
	}
}

// A binary built from a clone says the commit git says, the module
// version go build derives from it (a pseudo-version ending in the
// commit's first 12 hex digits), and "(modified)" exactly when the tree
// has uncommitted changes. The build is from a fresh clone of this
// checkout's HEAD, because go build records no VCS settings in a git
// worktree or under GOFLAGS=-buildvcs=false.
func TestVersionOfABuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("clones the repository and builds the binary twice")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v)", err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", strings.TrimSpace(string(top)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	head := gitOutput(t, clone, "rev-parse", "HEAD")
	version := func() string {
		bin := filepath.Join(t.TempDir(), "mentalmj")
		build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/mentalmj")
		build.Dir = clone
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			t.Fatalf("version: %v", err)
		}
		return string(out)
	}
	out := version()
	if !strings.Contains(out, "revision: "+head+"\n") || !strings.Contains(out, "-"+head[:12]+"\n") || !strings.Contains(out, "commit time: ") {
		t.Errorf("a clean clone's version:\n%s\nwant revision %s, unmodified, in the pseudo-version", out, head)
	}
	if err := os.WriteFile(filepath.Join(clone, "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := version(); !strings.Contains(out, "revision: "+head+" (modified)\n") {
		t.Errorf("a modified clone's version:\n%s\nwant revision %s (modified)", out, head)
	}
}

// gitOutput runs git args in dir and returns its trimmed output.
func gitOutput(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}
