// Package localgame runs a whole mental mahjong table on one machine: the
// harness behind "mentalmj local".
//
// The model: a local game is N (4, or 3 for sanma) separate "mentalmj join"
// processes of the same binary, each a full node with its own fresh
// identity, data directory, transcript and records, listening on a loopback
// port picked in advance so that every node can be given the other nodes'
// multiaddrs (--peer) before any starts. Optionally every connection
// between two nodes runs through a delaying relay of package
// internal/latency (local --rtt). Package internal/joinproc seats the table
// and starts the processes, as it does for package internal/lab. The
// harness never takes part in the protocol: it reads each child's progress,
// one JSON object a line (join --progress json, read by progress.Decode),
// and
//
//   - prints one line per hand once every node has reported it, and the
//     seating once hand 1 has drawn it;
//   - gathers the blames and faults, each printed once with the nodes
//     that report it;
//   - checks that the nodes agree: each hand's audit passed on every node
//     with the same yama, dice, dealer, result and scores; the same final
//     standings; byte-identical mjlog records (or, with private hands, a
//     valid own view per node);
//   - prints the stats, timing and traffic lines that docs/BENCHMARKS.md
//     parses: hand setup and tsumo latency, pause between hands, play per
//     event, wire messages and bytes per hand counted from the
//     transcripts, CPU and peak RSS of the nodes.
//
// The nodes audit and blame on their own; the harness only compares what
// they say, so a failing local game is a disagreement or a non-zero exit
// of some node, never a verdict of the harness.
package localgame
