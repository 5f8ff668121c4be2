//go:build linux

package node

import (
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/multiformats/go-multiaddr"
	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
)

// TestWriteLowTTL: the NAT opener's datagram leaves with TTL openTTL and
// the socket's next datagram with the TTL it had before, as a receiver on
// loopback (which decrements nothing) reads them from the IP header
// (IP_RECVTTL), a second code path.
func TestWriteLowTTL(t *testing.T) {
	t.Parallel()
	send, recv, read := loopbackTTL4(t)
	checkLowTTL(t, send, recv, read)
}

// TestWriteLowTTLConcurrent: the opener writes to several peers at once
// on the same QUIC socket (FilterRemote runs for each peer whose CONNECT
// arrives); after such concurrent writes the socket's own datagrams still
// leave with the TTL they had before, read by a receiver on loopback
// (IP_RECVTTL). In the NAT lab, two CONNECTs in the same millisecond once
// left a node's QUIC socket at TTL 2 for good, so that none of its QUIC
// hole punches reached a peer (docs/BENCHMARKS.md).
func TestWriteLowTTLConcurrent(t *testing.T) {
	t.Parallel()
	send, recv, read := loopbackTTL4(t)
	dst := recv.LocalAddr().(*net.UDPAddr)
	const rounds, writers = 50, 4
	_ = recv.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 64)
	for r := range rounds {
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				if err := writeLowTTL(send, []byte("open"), dst); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if _, err := send.WriteToUDP([]byte("after"), dst); err != nil {
			t.Fatal(err)
		}
		for range writers + 1 {
			n, ttl, err := read(buf)
			if err != nil {
				t.Fatal(err)
			}
			switch msg := string(buf[:n]); {
			case msg == "open" && ttl != openTTL:
				t.Fatalf("round %d: an opener datagram arrived with TTL %d, want %d", r, ttl, openTTL)
			case msg == "after" && ttl == openTTL:
				t.Fatalf("round %d: the socket's own datagram after %d concurrent openers arrived with TTL %d: the low TTL stuck", r, writers, ttl)
			}
		}
	}
}

// TestWriteLowTTL6: over IPv6 the opener's datagram leaves with hop limit
// openTTL and the socket's next datagram with its own, as a receiver on
// ::1 reads them (IPV6_RECVHOPLIMIT).
func TestWriteLowTTL6(t *testing.T) {
	t.Parallel()
	recv, err := net.ListenUDP("udp6", &net.UDPAddr{IP: net.IPv6loopback})
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	defer recv.Close()
	pc := ipv6.NewPacketConn(recv)
	if err := pc.SetControlMessage(ipv6.FlagHopLimit, true); err != nil {
		t.Fatal(err)
	}
	send, err := net.ListenUDP("udp6", &net.UDPAddr{IP: net.IPv6loopback})
	if err != nil {
		t.Fatal(err)
	}
	defer send.Close()
	checkLowTTL(t, send, recv, func(buf []byte) (int, int, error) {
		n, cm, _, err := pc.ReadFrom(buf)
		if err == nil && cm == nil {
			t.Fatal("no control message: IPV6_RECVHOPLIMIT not supported")
		}
		if err != nil {
			return 0, 0, err
		}
		return n, cm.HopLimit, nil
	})
}

// loopbackTTL4 opens two UDP sockets on 127.0.0.1, closed when t ends:
// send, and recv with read, which reads one datagram into buf and
// returns its length and the TTL its IP header carried (IP_RECVTTL).
func loopbackTTL4(t *testing.T) (send, recv *net.UDPConn, read func(buf []byte) (n, ttl int, err error)) {
	t.Helper()
	recv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { recv.Close() })
	pc := ipv4.NewPacketConn(recv)
	if err := pc.SetControlMessage(ipv4.FlagTTL, true); err != nil {
		t.Fatal(err)
	}
	send, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { send.Close() })
	return send, recv, func(buf []byte) (int, int, error) {
		n, cm, _, err := pc.ReadFrom(buf)
		if err != nil {
			return 0, 0, err
		}
		if cm == nil {
			return 0, 0, fmt.Errorf("no control message: IP_RECVTTL not supported")
		}
		return n, cm.TTL, nil
	}
}

// checkLowTTL sends "open" with writeLowTTL and then "after" with a plain
// write from send to recv, and reads both back with read (which returns
// the payload's length and the TTL or hop limit its IP header carried):
// "open" must carry openTTL and "after" not.
func checkLowTTL(t *testing.T, send, recv *net.UDPConn, read func(buf []byte) (n, ttl int, err error)) {
	t.Helper()
	dst := recv.LocalAddr().(*net.UDPAddr)
	if err := writeLowTTL(send, []byte("open"), dst); err != nil {
		t.Fatal(err)
	}
	if _, err := send.WriteToUDP([]byte("after"), dst); err != nil {
		t.Fatal(err)
	}
	_ = recv.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 64)
	for _, want := range []struct {
		msg    string
		lowTTL bool
	}{{"open", true}, {"after", false}} {
		n, ttl, err := read(buf)
		if err != nil {
			t.Fatal(err)
		}
		if string(buf[:n]) != want.msg {
			t.Fatalf("read %q, want %q", buf[:n], want.msg)
		}
		if got := ttl == openTTL; got != want.lowTTL {
			t.Errorf("%q arrived with TTL (hop limit) %d, the low one is %d", want.msg, ttl, openTTL)
		}
	}
}

// TestOpenTargets: the opener sends to a peer's public QUIC addresses
// only, never to TCP ones (a low-TTL SYN made TCP hole punching fail in
// the NAT lab: docs/BENCHMARKS.md), nor to private or relayed addresses.
func TestOpenTargets(t *testing.T) {
	t.Parallel()
	in := []string{
		"/ip4/1.2.3.4/tcp/4001",
		"/ip4/1.2.3.4/udp/4001/quic-v1",
		"/ip4/10.0.0.2/udp/4001/quic-v1",
		"/ip6/2001:4860::8/udp/4001/quic-v1",
		"/ip6/2001:4860::8/tcp/4001",
		"/ip4/5.6.7.8/tcp/4001/p2p/12D3KooWQoSw6DBxzF1Jj4Fn4UXzoqScmSr8TWZM27xiuXrQaqWU/p2p-circuit",
		"/ip4/5.6.7.8/udp/4002/quic-v1",
	}
	want := []string{
		"/ip4/1.2.3.4/udp/4001/quic-v1",
		"/ip6/2001:4860::8/udp/4001/quic-v1",
		"/ip4/5.6.7.8/udp/4002/quic-v1",
	}
	var addrs []multiaddr.Multiaddr
	for _, s := range in {
		addrs = append(addrs, multiaddr.StringCast(s))
	}
	var got []string
	for _, a := range openTargets(addrs) {
		got = append(got, a.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("openTargets = %q, want %q", got, want)
	}
	many := make([]multiaddr.Multiaddr, 0, 2*maxOpenAddrs)
	for i := range 2 * maxOpenAddrs {
		many = append(many, multiaddr.StringCast(fmt.Sprintf("/ip4/1.2.3.4/udp/%d/quic-v1", 4001+i)))
	}
	if n := len(openTargets(many)); n != maxOpenAddrs {
		t.Errorf("openTargets of %d QUIC addresses gave %d, want at most %d", len(many), n, maxOpenAddrs)
	}
}
