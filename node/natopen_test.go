//go:build linux

package node

import (
	"net"
	"testing"
	"time"

	"golang.org/x/net/ipv4"
)

// TestWriteLowTTL: the NAT opener's datagram leaves with TTL openTTL and
// the socket's next datagram with the TTL it had before, as a receiver on
// loopback (which decrements nothing) reads them from the IP header
// (IP_RECVTTL), a second code path.
func TestWriteLowTTL(t *testing.T) {
	t.Parallel()
	recv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	pc := ipv4.NewPacketConn(recv)
	if err := pc.SetControlMessage(ipv4.FlagTTL, true); err != nil {
		t.Fatal(err)
	}
	send, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer send.Close()
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
		n, cm, _, err := pc.ReadFrom(buf)
		if err != nil {
			t.Fatal(err)
		}
		if cm == nil {
			t.Fatal("no control message: IP_RECVTTL not supported")
		}
		if string(buf[:n]) != want.msg {
			t.Fatalf("read %q, want %q", buf[:n], want.msg)
		}
		if got := cm.TTL == openTTL; got != want.lowTTL {
			t.Errorf("%q arrived with TTL %d (low TTL is %d)", want.msg, cm.TTL, openTTL)
		}
	}
}
