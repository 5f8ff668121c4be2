package node

import (
	"encoding/binary"
	"errors"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// writeLowTTL writes payload to dst on c as one datagram with TTL (hop
// limit) openTTL, given in the sendmsg call's ancillary data (IP_TTL,
// ip(7), Linux ≥ 4.6; IPV6_HOPLIMIT, RFC 3542 §6.3), so that the socket's
// own TTL never changes: neither quic-go's packets written meanwhile nor
// another opener's write on the same socket at the same moment can be
// affected. (Setting the socket's TTL around the write, as other systems
// must, once left a node's QUIC socket at TTL 2 for good when two
// openers overlapped: docs/BENCHMARKS.md.)
func writeLowTTL(c *net.UDPConn, payload []byte, dst *net.UDPAddr) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var sa unix.Sockaddr
	var oob []byte
	if ip4 := dst.IP.To4(); ip4 != nil {
		s := &unix.SockaddrInet4{Port: dst.Port}
		copy(s.Addr[:], ip4)
		sa, oob = s, ttlCmsg(unix.IPPROTO_IP, unix.IP_TTL, openTTL)
	} else {
		s := &unix.SockaddrInet6{Port: dst.Port}
		copy(s.Addr[:], dst.IP.To16())
		sa, oob = s, ttlCmsg(unix.IPPROTO_IPV6, unix.IPV6_HOPLIMIT, openTTL)
	}
	var sendErr error
	cerr := rc.Write(func(fd uintptr) bool {
		_, sendErr = unix.SendmsgN(int(fd), payload, oob, sa, 0)
		return !errors.Is(sendErr, unix.EAGAIN)
	})
	return errors.Join(cerr, sendErr)
}

// ttlCmsg is one control message (level, typ) carrying the int v, as
// sendmsg(2) reads it (cmsg(3)).
func ttlCmsg(level, typ int32, v int) []byte {
	b := make([]byte, unix.CmsgSpace(4))
	h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
	h.Level, h.Type = level, typ
	h.SetLen(unix.CmsgLen(4))
	binary.NativeEndian.PutUint32(b[unix.CmsgLen(0):], uint32(v))
	return b
}
