//go:build unix && !linux

package node

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// ttlOption is the socket option of the TTL (IPv4) or hop limit (IPv6).
func ttlOption(v4 bool) (level, opt int) {
	if v4 {
		return unix.IPPROTO_IP, unix.IP_TTL
	}
	return unix.IPPROTO_IPV6, unix.IPV6_UNICAST_HOPS
}

// writeLowTTL writes payload to dst on c with the socket's TTL (hop
// limit) set to openTTL for that one write and restored at once, inside
// one RawConn.Control call: a packet quic-go writes on the socket at that
// very moment could leave with the low TTL too, and QUIC's loss recovery
// would resend it. Two calls on one socket must not overlap (the second
// would read the first's low TTL as the one to restore): natOpener
// serialises them. Linux sets the TTL of the one datagram instead
// (natopen_linux.go).
func writeLowTTL(c *net.UDPConn, payload []byte, dst *net.UDPAddr) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	v4 := dst.IP.To4() != nil
	level, opt := ttlOption(v4)
	var sa unix.Sockaddr
	if v4 {
		s := &unix.SockaddrInet4{Port: dst.Port}
		copy(s.Addr[:], dst.IP.To4())
		sa = s
	} else {
		s := &unix.SockaddrInet6{Port: dst.Port}
		copy(s.Addr[:], dst.IP.To16())
		sa = s
	}
	var sendErr error
	cerr := rc.Control(func(fd uintptr) {
		old, err := unix.GetsockoptInt(int(fd), level, opt)
		if err != nil {
			sendErr = err
			return
		}
		if err := unix.SetsockoptInt(int(fd), level, opt, openTTL); err != nil {
			sendErr = err
			return
		}
		sendErr = unix.Sendto(int(fd), payload, 0, sa)
		if err := unix.SetsockoptInt(int(fd), level, opt, old); err != nil && sendErr == nil {
			sendErr = err
		}
	})
	return errors.Join(cerr, sendErr)
}
