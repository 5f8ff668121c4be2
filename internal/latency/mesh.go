package latency

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
)

// Mesh is a Forwarder for every ordered pair of a group of local
// processes: process i reaches process j through its own Forwarder, so
// that every connection between them, whoever dials, is delayed both ways.
type Mesh struct {
	fwd [][]*Forwarder
}

// NewMesh starts len(ports)·(len(ports)−1) Forwarders on free 127.0.0.1
// ports, one for each ordered pair (i, j), i ≠ j, relaying to process j
// listening on 127.0.0.1:ports[j] with link's delay in each direction.
// log may be nil. On error the Forwarders already started are closed and
// the error of the one that failed is returned.
func NewMesh(ctx context.Context, ports []int, link Link, log *slog.Logger) (*Mesh, error) {
	m := &Mesh{fwd: make([][]*Forwarder, len(ports))}
	seed := uint64(1)
	for i := range ports {
		m.fwd[i] = make([]*Forwarder, len(ports))
		for j, port := range ports {
			if i == j {
				continue
			}
			f, err := Listen(ctx, "127.0.0.1:0", fmt.Sprintf("127.0.0.1:%d", port), link, seed<<32, log)
			if err != nil {
				m.Close()
				return nil, err
			}
			seed++
			m.fwd[i][j] = f
		}
	}
	return m, nil
}

// Addr returns the address (127.0.0.1 and a port) at which process i
// reaches process j; nil if i == j or either is out of range.
func (m *Mesh) Addr(i, j int) *net.TCPAddr {
	if i < 0 || i >= len(m.fwd) || j < 0 || j >= len(m.fwd) || m.fwd[i][j] == nil {
		return nil
	}
	return m.fwd[i][j].Addr()
}

// Close closes every Forwarder and the connections they carry. It returns
// nil.
func (m *Mesh) Close() error {
	var errs []error
	for _, row := range m.fwd {
		for _, f := range row {
			if f != nil {
				errs = append(errs, f.Close())
			}
		}
	}
	return errors.Join(errs...)
}
