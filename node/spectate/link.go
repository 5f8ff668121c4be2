package spectate

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
)

// LinkPrefix starts every watch link; the version is in it.
const LinkPrefix = "mmjw1"

// TopicPrefix starts every table's topic name; the version is in it
// (version 2: the host alone publishes; version 3: a message may carry a
// burst of entries, pb.Published.more; SPEC.md §25).
const TopicPrefix = "/mentalmj/watch/3/"

// maxLinkSize bounds a decoded link's bytes (the addresses are most of
// it).
const maxLinkSize = 4096

// Link names a table to watch: its name, its host and where to dial the
// host.
type Link struct {
	// Table is the table's name (the Hellos' table field).
	Table string
	// Host is the host's peer ID.
	Host peer.ID
	// Addrs are the host's addresses a spectator dials.
	Addrs []multiaddr.Multiaddr
}

// Topic returns the table's gossipsub topic name:
// TopicPrefix + host + "/" + the first 16 hex digits of SHA-256(table).
func Topic(table string, host peer.ID) string {
	sum := sha256.Sum256([]byte(table))
	return TopicPrefix + host.String() + "/" + hex.EncodeToString(sum[:8])
}

// Topic returns the link's topic (Topic).
func (l Link) Topic() string { return Topic(l.Table, l.Host) }

var linkEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// String returns the link as text: LinkPrefix and the pb.Link in
// unpadded lower-case base32 (RFC 4648 §6).
func (l Link) String() string {
	m := &pb.Link{Table: l.Table, Host: []byte(l.Host)}
	for _, a := range l.Addrs {
		m.Addrs = append(m.Addrs, a.Bytes())
	}
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	return LinkPrefix + strings.ToLower(linkEncoding.EncodeToString(b))
}

// ErrNotLink is wrapped by ParseLink's error for text that is not a
// watch link.
var ErrNotLink = errors.New("not a watch link")

// ParseLink reads a watch link (String's form; surrounding space and
// "mentalmj watch " before it are allowed). Its errors wrap ErrNotLink and
// say what is wrong: the prefix, the base32, the message, the host's peer
// ID, an address, an empty table name.
func ParseLink(s string) (Link, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, "mentalmj watch"))
	if !strings.HasPrefix(s, LinkPrefix) {
		return Link{}, fmt.Errorf("%w: it does not start with %q", ErrNotLink, LinkPrefix)
	}
	body := strings.ToUpper(s[len(LinkPrefix):])
	if linkEncoding.DecodedLen(len(body)) > maxLinkSize {
		return Link{}, fmt.Errorf("%w: longer than %d bytes", ErrNotLink, maxLinkSize)
	}
	b, err := linkEncoding.DecodeString(body)
	if err != nil {
		return Link{}, fmt.Errorf("%w: bad base32: %v (copied in part?)", ErrNotLink, err)
	}
	var m pb.Link
	if err := proto.Unmarshal(b, &m); err != nil {
		return Link{}, fmt.Errorf("%w: %v", ErrNotLink, err)
	}
	host, err := peer.IDFromBytes(m.Host)
	if err != nil {
		return Link{}, fmt.Errorf("%w: the host's peer ID: %v", ErrNotLink, err)
	}
	if m.Table == "" {
		return Link{}, fmt.Errorf("%w: no table name", ErrNotLink)
	}
	l := Link{Table: m.Table, Host: host}
	for i, a := range m.Addrs {
		ma, err := multiaddr.NewMultiaddrBytes(a)
		if err != nil {
			return Link{}, fmt.Errorf("%w: address %d: %v", ErrNotLink, i+1, err)
		}
		l.Addrs = append(l.Addrs, ma)
	}
	return l, nil
}

// AddrInfo returns the host's peer ID and addresses, to dial.
func (l Link) AddrInfo() peer.AddrInfo { return peer.AddrInfo{ID: l.Host, Addrs: l.Addrs} }
