package main

import (
	"io"
	"log/slog"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mentalmj/mentalmj/node"
)

// listFlag collects a repeatable string flag such as --peer; unlike
// pflag's string slices it never splits a value at commas.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
func (l *listFlag) Type() string       { return "string" }
func (l *listFlag) GetSlice() []string { return *l }

// alias defines old as a hidden second name of fs's flag name (local
// --dir for --data-dir): it works, and the help leaves it out.
func alias(fs *pflag.FlagSet, name, old string) {
	f := fs.Lookup(name)
	fs.Var(f.Value, old, f.Usage)
	_ = fs.MarkHidden(old)
}

// defaultListen is where a node listens without --listen: TCP and QUIC on
// port 4001 of every interface, IPv4 and IPv6 (node.DefaultListen).
func defaultListen() listFlag {
	return listFlag(node.DefaultListen())
}

// parseListen parses the --listen values (defaultListen when there are
// none). On a bad one it prints a usage error naming it and returns
// ok = false with exit code 2.
func parseListen(cmd *cobra.Command, listen listFlag) (addrs []multiaddr.Multiaddr, code int, ok bool) {
	if len(listen) == 0 {
		listen = defaultListen()
	}
	for _, s := range listen {
		a, err := node.ParseListen(s)
		if err != nil {
			return nil, usageError(cmd, "--listen: %v", err), false
		}
		addrs = append(addrs, a)
	}
	return addrs, 0, true
}

// newLogger returns a text logger on stderr: warnings, or everything with
// verbose (-v).
func newLogger(stderr io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// bootstrapPeers parses --bootstrap values: each a peer's multiaddr ending
// in /p2p/<id> (node.ParseRelay), in order. Its error names the value
// that does not parse.
func bootstrapPeers(addrs []string) ([]peer.AddrInfo, error) {
	var out []peer.AddrInfo
	for _, b := range addrs {
		info, err := node.ParseRelay(b)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}
