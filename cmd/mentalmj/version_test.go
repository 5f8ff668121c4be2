package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/protocol"
)

// version and --version print the module, the protocol version the
// protocol package speaks, and the Go version the test runs on.
func TestVersion(t *testing.T) {
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
