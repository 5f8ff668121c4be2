package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/mentalmj/mentalmj/node"
)

// "mentalmj id" prints the peer address that ParsePeer (what join --peer
// uses) accepts, and the same identity on every run.
func TestIDCommand(t *testing.T) {
	dir := t.TempDir()
	var out1, out2, errs bytes.Buffer
	if code := run(context.Background(), []string{"id", "--data-dir", dir, "--listen", "/ip4/192.0.2.1/tcp/4001"}, &out1, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	m := regexp.MustCompile(`(?m)^peer address: (\S+)$`).FindStringSubmatch(out1.String())
	if m == nil {
		t.Fatalf("no peer address in:\n%s", out1.String())
	}
	info, err := node.ParsePeer(m[1])
	if err != nil {
		t.Fatalf("printed address %q is not a --peer address: %v", m[1], err)
	}
	if !bytes.Contains(out1.Bytes(), []byte("peer ID: "+info.ID.String())) {
		t.Errorf("peer ID line does not match the address:\n%s", out1.String())
	}
	run(context.Background(), []string{"id", "--data-dir", dir, "--listen", "/ip4/192.0.2.1/tcp/4001"}, &out2, &errs)
	if out1.String() != out2.String() {
		t.Errorf("identity changed between runs:\n%s\n%s", out1.String(), out2.String())
	}
	if code := run(context.Background(), []string{"id", "--data-dir", dir, "--listen", "nonsense"}, &out2, &errs); code != 2 {
		t.Errorf("bad --listen: exit %d, want 2", code)
	}
}
