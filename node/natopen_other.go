//go:build !unix

package node

import (
	"errors"
	"net"
	"syscall"
)

// Elsewhere than on Unix the NAT opener sends nothing: the hole punch is
// libp2p's alone.

func writeLowTTL(*net.UDPConn, []byte, *net.UDPAddr) error { return errors.ErrUnsupported }

func lowTTLDialControl(bool) func(network, address string, c syscall.RawConn) error {
	return func(string, string, syscall.RawConn) error { return errors.ErrUnsupported }
}
