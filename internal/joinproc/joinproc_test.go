package joinproc

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/latency"
)

// TestMain lets the test binary stand in for mentalmj: with
// JOINPROC_HELPER=N it prints its arguments on stdout, "err" on stderr,
// and exits N; with N = "hang" it waits to be killed.
func TestMain(m *testing.M) {
	switch h := os.Getenv("JOINPROC_HELPER"); h {
	case "":
		os.Exit(m.Run())
	case "hang":
		time.Sleep(time.Minute)
		os.Exit(0)
	default:
		fmt.Println(strings.Join(os.Args[1:], " "))
		fmt.Fprintln(os.Stderr, "err")
		code, _ := strconv.Atoi(h)
		os.Exit(code)
	}
}

// TestArgsWireTheTable checks that every player of a sanma table gets its
// own identity and port, and --peer flags naming exactly the other
// players' listen addresses and IDs; that New again loads the same
// identities; and that a player's arguments seat it at the table named.
func TestArgsWireTheTable(t *testing.T) {
	dir := t.TempDir()
	tb, err := New(t.Context(), dir, 3, latency.Link{})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	for i, p := range tb.Players {
		if _, err := os.Stat(p.DataDir); err != nil {
			t.Errorf("%s: no data directory: %v", p.Name, err)
		}
		args := tb.Args(i, "friday")
		if args[0] != "join" || flag(args, "--table") != "friday" || flag(args, "--name") != p.Name || flag(args, "--listen") != p.Listen {
			t.Errorf("%s: args %q do not seat it at friday", p.Name, args)
		}
		var peers []string
		for k := range args {
			if args[k] == "--peer" {
				peers = append(peers, args[k+1])
			}
		}
		var want []string
		for j, q := range tb.Players {
			if j != i {
				want = append(want, q.Listen+"/p2p/"+q.ID.String())
			}
		}
		if !slices.Equal(peers, want) {
			t.Errorf("%s: --peer %q, want %q", p.Name, peers, want)
		}
	}
	if tb.Players[0].ID == tb.Players[1].ID || tb.Players[0].Listen == tb.Players[1].Listen {
		t.Errorf("players 0 and 1 share an identity or a port: %+v %+v", tb.Players[0], tb.Players[1])
	}
	again, err := New(t.Context(), dir, 3, latency.Link{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range again.Players {
		if again.Players[i].ID != tb.Players[i].ID {
			t.Errorf("player %d: identity %s, then %s", i, tb.Players[i].ID, again.Players[i].ID)
		}
	}
}

// flag is the value after name in args, "" if none.
func flag(args []string, name string) string {
	if i := slices.Index(args, name); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// TestPeerAddrThroughTheMesh checks that with a latency link, player 0
// reaches player 1 at another port than 1's own, and that a connection
// to it arrives at a listener on player 1's port.
func TestPeerAddrThroughTheMesh(t *testing.T) {
	tb, err := New(t.Context(), t.TempDir(), 3, latency.Link{OneWay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	listen := strings.TrimPrefix(tb.Players[1].Listen, "/ip4/127.0.0.1/tcp/")
	ln, err := net.Listen("tcp", "127.0.0.1:"+listen)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := tb.PeerAddr(0, 1)
	port := strings.TrimPrefix(strings.TrimSuffix(addr, "/p2p/"+tb.Players[1].ID.String()), "/ip4/127.0.0.1/tcp/")
	if port == listen || port == addr {
		t.Fatalf("player 0 reaches player 1 at %s, not through the mesh (1 listens on %s)", addr, listen)
	}
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ln.(*net.TCPListener).SetDeadline(time.Now().Add(5 * time.Second))
	in, err := ln.Accept()
	if err != nil {
		t.Fatalf("nothing arrived at player 1's port through %s: %v", addr, err)
	}
	in.Close()
}

// TestProcessExitStatus checks Start and Wait on the test binary: its
// stdout and stderr reach the caller, an exit status comes back as is, a
// killed process is -1, and a binary that does not exist is an error
// naming the player.
func TestProcessExitStatus(t *testing.T) {
	p := &Player{Name: "player-2"}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("JOINPROC_HELPER", "3")
	proc, err := p.Start(t.Context(), bin, []string{"join", "--hands", "1"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(proc.Stdout)
	errOut, _ := io.ReadAll(proc.Stderr)
	if code := proc.Wait(); code != 3 {
		t.Errorf("exit status %d, want 3", code)
	}
	if string(out) != "join --hands 1\n" || string(errOut) != "err\n" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}

	t.Setenv("JOINPROC_HELPER", "hang")
	ctx, cancel := context.WithCancel(t.Context())
	var stderr strings.Builder
	proc, err = p.Start(ctx, bin, nil, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if proc.Stderr != nil {
		t.Error("Stderr is a pipe although a writer was given")
	}
	proc.OS().Kill()
	io.ReadAll(proc.Stdout)
	if code := proc.Wait(); code != -1 {
		t.Errorf("killed: exit status %d, want -1", code)
	}
	cancel()

	if _, err := p.Start(t.Context(), bin+".missing", nil, nil, nil); err == nil || !strings.Contains(err.Error(), "starting player-2") {
		t.Errorf("missing binary: %v, want an error starting player-2", err)
	}
}
