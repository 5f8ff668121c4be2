package natlab

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"

	"github.com/pion/stun/v3"
	"golang.org/x/sys/unix"
)

// STUNPort is the UDP port of the lab's STUN server, on the Internet
// router's address (PublicNet .1).
const STUNPort = 3478

// Why the lab has a STUN server: miniupnpd 2.3.1 (Debian bookworm's)
// maps no port while its WAN address lies in a range it deems reserved
// (its getifaddr.c lists RFC 1918, 100.64.0.0/10 and the documentation
// ranges TEST-NET-1/2/3, so every WAN address of the lab): it logs
// "Reserved / private IP address … Port forwarding is impossible", and
// every AddPortMapping then fails with UPnPError 501 ActionFailed and
// every NAT-PMP mapping with result 3 (network failure). Its ext_ip=
// option refuses a reserved address at start-up, and the option that
// would lift the check (ext_allow_private_ipv4) came with miniupnpd
// 2.3.9. What 2.3.1 does accept is a STUN check (ext_perform_stun=yes):
// it sends four Binding requests from four sockets of its own and, if all
// four are answered, from the server it asked, with the sockets' own
// ports as the mapped ports, it concludes that nothing upstream filters
// or translates (a full-cone 1:1 path) and enables port forwarding,
// whatever the address. That is true of a lab router's WAN, which sits on
// the lab's Internet. So the Internet namespace answers STUN, and the
// homes' source NAT leaves the router's own packets alone (routeHome).

// serveSTUN answers STUN Binding requests (RFC 8489) on UDP
// PublicNet.1:STUNPort inside the Internet namespace, from that one
// address, with the requester's address as XOR-MAPPED-ADDRESS. It
// ignores CHANGE-REQUEST (RFC 5780), which miniupnpd sends and does not
// need honoured. The server stops when the lab closes its socket.
func (l *Lab) serveSTUN() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stun != nil {
		return nil
	}
	c, err := listenUDPIn(l.inet, fmt.Sprintf("%s.1:%d", PublicNet, STUNPort))
	if err != nil {
		return fmt.Errorf("natlab: STUN server: %w", err)
	}
	l.stun = c
	go answerSTUN(c)
	return nil
}

// answerSTUN is serveSTUN's loop; it returns when c is closed.
func answerSTUN(c net.PacketConn) {
	buf := make([]byte, 1500)
	for {
		n, from, err := c.ReadFrom(buf)
		if err != nil {
			return
		}
		req := &stun.Message{Raw: append([]byte(nil), buf[:n]...)}
		if req.Decode() != nil || req.Type != stun.BindingRequest {
			continue
		}
		ua, ok := from.(*net.UDPAddr)
		if !ok {
			continue
		}
		resp, err := stun.Build(stun.NewTransactionIDSetter(req.TransactionID), stun.BindingSuccess,
			&stun.XORMappedAddress{IP: ua.IP, Port: ua.Port})
		if err != nil {
			continue
		}
		_, _ = c.WriteTo(resp.Raw, from)
	}
}

// listenUDPIn opens a UDP socket on addr inside the network namespace ns
// (a name under /var/run/netns, as `ip netns add` makes). The socket is
// made on an OS thread moved into ns; the thread is never unlocked, so
// the Go runtime ends it with its goroutine and no other goroutine runs
// in ns. The socket stays in ns.
func listenUDPIn(ns, addr string) (net.PacketConn, error) {
	type result struct {
		c   net.PacketConn
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		f, err := os.Open(filepath.Join("/var/run/netns", ns))
		if err != nil {
			done <- result{err: err}
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- result{err: fmt.Errorf("entering namespace %s: %w", ns, err)}
			return
		}
		c, err := net.ListenPacket("udp4", addr)
		done <- result{c, err}
	}()
	r := <-done
	if r.err == nil && r.c == nil {
		r.err = errors.New("no socket")
	}
	return r.c, r.err
}
