//go:build !unix

package node

import (
	"errors"
	"net"
)

// Elsewhere than on Unix the NAT opener sends nothing: the hole punch is
// libp2p's alone.

func writeLowTTL(*net.UDPConn, []byte, *net.UDPAddr) error { return errors.ErrUnsupported }
