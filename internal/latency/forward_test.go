package latency

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"net"
	"testing"
	"time"
)

// echoServer accepts connections on loopback and echoes each until its
// client half-closes, then closes its side.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestForwarderCarriesStreamInOrder sends 2 MiB of random bytes through a
// forwarder with jitter as large as the delay, written in small pieces so
// that the jitter would reorder them if order were not kept, and compares
// the echo with what was sent. The echo also checks the half-close: the
// client's CloseWrite reaches the server, whose close reaches the client.
func TestForwarderCarriesStreamInOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	link := Link{OneWay: 2 * time.Millisecond, Jitter: 2 * time.Millisecond}
	c := dialEcho(ctx, t, link, 15*time.Second)
	sent := make([]byte, 2<<20)
	rand.Read(sent)
	go func() {
		for b := sent; len(b) > 0; {
			n := min(len(b), 1000)
			if _, err := c.Write(b[:n]); err != nil {
				return
			}
			b = b[n:]
		}
		c.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("reading the echo: %v", err)
	}
	if !bytes.Equal(got, sent) {
		t.Fatalf("echo differs: %d bytes back of %d sent", len(got), len(sent))
	}
}

// TestForwarderDelays checks that a round trip through a forwarder takes
// at least twice the smallest one-way delay (a lower bound no load can
// break; the upper bound is not tested).
func TestForwarderDelays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	link := Link{OneWay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond}
	c := dialEcho(ctx, t, link, 5*time.Second)
	for range 3 {
		start := time.Now()
		if _, err := c.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4)
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
		if rt := time.Since(start); rt < 2*(link.OneWay-link.Jitter) {
			t.Errorf("round trip took %s, less than %s", rt, 2*(link.OneWay-link.Jitter))
		}
	}
}

// TestForwarderClosedTarget: a connection to a forwarder whose target is
// gone is closed, not left hanging.
func TestForwarderClosedTarget(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	target := ln.Addr().String()
	ln.Close()
	f, err := Listen(ctx, "127.0.0.1:0", target, Link{OneWay: time.Millisecond}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := net.Dial("tcp", f.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Error("read from a forwarder with no target succeeded")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("connection left open though its target is unreachable")
	}
}

// dialEcho starts a forwarder over link in front of an echo server and
// returns a connection through it, with a deadline of within from now;
// both are closed when the test ends.
func dialEcho(ctx context.Context, t *testing.T, link Link, within time.Duration) net.Conn {
	t.Helper()
	f, err := Listen(ctx, "127.0.0.1:0", echoServer(t), link, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	c, err := net.Dial("tcp", f.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(within))
	return c
}
