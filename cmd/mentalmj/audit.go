package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/wall"
)

var auditCommand = command{
	name:    "audit",
	summary: "re-verify a saved transcript offline",
	run:     runAudit,
}

const auditUsage = `audit [--json] TRANSCRIPT

Re-verifies a transcript written by "mentalmj join" without any network:
every signature and hash chain, the Hellos, every hand's nonce commitments,
shuffle and rekey passes, key releases and dahai, and the decrypted wall
against the Tenhou layout. Exit status: 0 the transcript verifies, 1 it fails
the audit (the blame list names who), 2 it cannot be read.`

// auditJSON is the --json output shape.
type auditJSON struct {
	OK    bool            `json:"ok"`
	Hands []auditHandJSON `json:"hands"`
	Blame []blameJSON     `json:"blame"`
	Note  string          `json:"note,omitempty"`
}

type auditHandJSON struct {
	Hand          int    `json:"hand"`
	Yama          []int  `json:"yama"`
	Dice          [2]int `json:"dice"`
	DoraIndicator int    `json:"dora_indicator"`
	Events        int    `json:"events"`
}

type blameJSON struct {
	Peer   string `json:"peer"`
	Hand   int    `json:"hand"`
	Reason string `json:"reason"`
}

func runAudit(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("audit", auditUsage, stderr)
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(fs, stderr, "give exactly one transcript file")
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj audit: %v\n", err)
		return 2
	}
	defer f.Close()
	recs, rerr := protocol.ReadRecords(f, path)
	if len(recs) == 0 {
		if rerr == nil {
			rerr = fmt.Errorf("%s: empty transcript", path)
		}
		fmt.Fprintf(stderr, "mentalmj audit: %v\n", rerr)
		return 2
	}
	a := protocol.AuditTranscript(recs)
	out := auditJSON{OK: a.OK() && rerr == nil, Hands: []auditHandJSON{}, Blame: []blameJSON{}}
	if rerr != nil {
		out.Note = rerr.Error()
	}
	for _, h := range a.Hands {
		out.Hands = append(out.Hands, auditHandJSON{Hand: h.Hand, Yama: h.Yama, Dice: h.Dice, DoraIndicator: h.DoraIndicator, Events: h.Events})
	}
	for _, b := range a.Blame {
		out.Blame = append(out.Blame, blameJSON{Peer: b.Peer.String(), Hand: b.Hand, Reason: b.Reason})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	} else {
		fmt.Fprintf(stdout, "transcript %s: table %q, %d records, %d hands\n", path, a.Table, len(recs), len(a.Hands))
		for _, h := range out.Hands {
			status := "ok"
			if h.Yama == nil {
				status = "FAILED"
			}
			fmt.Fprintf(stdout, "hand %d: dice %d+%d, dora indicator %s, %d events, audit %s\n", h.Hand, h.Dice[0]+1, h.Dice[1]+1, wall.Tile(h.DoraIndicator), h.Events, status)
		}
		for _, b := range a.Blame {
			fmt.Fprintf(stdout, "BLAME %s\n", b)
		}
		if rerr != nil {
			fmt.Fprintf(stdout, "warning: %v (records before it were audited)\n", rerr)
		}
		if out.OK {
			fmt.Fprintln(stdout, "transcript verifies")
		} else {
			fmt.Fprintln(stdout, "transcript FAILS the audit")
		}
	}
	if !out.OK {
		return 1
	}
	return 0
}
