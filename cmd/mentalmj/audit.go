package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/wall"
)

var auditCommand = command{
	name:    "audit",
	summary: "re-verify a saved transcript offline",
	run:     runAudit,
}

const auditUsage = `audit [--json] TRANSCRIPT [TRANSCRIPT...]

Re-verifies a transcript written by "mentalmj join" without any network:
every signature and hash chain, the Hellos, every hand's nonce commitments,
the zero-knowledge proof of every shuffle and rekey pass (a transcript
played with --no-proofs has its passes replayed instead), key releases, and the kyoku replayed under the
rules engine (every turn, call, win, riichi and tenpai declaration), with
the decrypted wall checked against the Tenhou layout.

Given the transcripts of several players of the same game, it audits each
and compares them: two signed messages from one player with the same
sequence number and different contents prove that it told different
players different things, and are blamed on it. The hands shown are the
first transcript's.

Exit status: 0 the transcripts verify, 1 they fail the audit (the blame
list names who), 2 one cannot be read.`

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
	// Proven: every shuffle and rekey pass carried a proof that verified,
	// so the wall was decrypted without replaying the passes.
	Proven bool `json:"proven"`
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
	if fs.NArg() < 1 {
		return usageError(fs, stderr, "give a transcript file")
	}
	var all [][]protocol.Record
	var audits []*protocol.TranscriptAudit
	var notes []string
	for _, path := range fs.Args() {
		recs, rerr := readTranscript(path)
		if len(recs) == 0 {
			fmt.Fprintf(stderr, "mentalmj audit: %v\n", rerr)
			return 2
		}
		if rerr != nil {
			notes = append(notes, rerr.Error())
		}
		all = append(all, recs)
		audits = append(audits, protocol.AuditTranscript(recs))
	}
	a := audits[0]
	ok := len(notes) == 0
	var blames []protocol.Blame
	for _, t := range audits {
		ok = ok && t.OK()
		for _, b := range t.Blame {
			if !slices.Contains(blames, b) {
				blames = append(blames, b)
			}
		}
	}
	if len(audits) > 1 {
		equivocations := protocol.CompareTranscripts(fs.Args(), all)
		ok = ok && len(equivocations) == 0
		blames = append(blames, equivocations...)
	}
	out := auditJSON{OK: ok, Hands: []auditHandJSON{}, Blame: []blameJSON{}, Note: strings.Join(notes, "; ")}
	for _, h := range a.Hands {
		out.Hands = append(out.Hands, auditHandJSON{Hand: h.Hand, Yama: h.Yama, Dice: h.Dice, DoraIndicator: h.DoraIndicator, Events: h.Events, Proven: h.Proven})
	}
	for _, b := range blames {
		out.Blame = append(out.Blame, blameJSON{Peer: b.Peer.String(), Hand: b.Hand, Reason: b.Reason})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	} else {
		for i, path := range fs.Args() {
			fmt.Fprintf(stdout, "transcript %s: table %q, %d records, %d hands\n", path, audits[i].Table, len(all[i]), len(audits[i].Hands))
		}
		for _, h := range out.Hands {
			status := "ok"
			if h.Yama == nil {
				status = "FAILED"
			}
			passes := "passes replayed with the revealed keys"
			if h.Proven {
				passes = "every shuffle and rekey proof verifies"
			}
			fmt.Fprintf(stdout, "hand %d: dice %d+%d, dora indicator %s, %d events, %s, audit %s\n", h.Hand, h.Dice[0]+1, h.Dice[1]+1, wall.Tile(h.DoraIndicator), h.Events, passes, status)
		}
		for _, b := range blames {
			fmt.Fprintf(stdout, "BLAME %s\n", b)
		}
		for _, n := range notes {
			fmt.Fprintf(stdout, "warning: %s (records before it were audited)\n", n)
		}
		if out.OK {
			fmt.Fprintln(stdout, "transcripts verify")
		} else {
			fmt.Fprintln(stdout, "transcripts FAIL the audit")
		}
	}
	if !out.OK {
		return 1
	}
	return 0
}

// readTranscript reads a transcript file's records; the error names the
// file (an unreadable file, or a damaged tail after the records returned).
func readTranscript(path string) ([]protocol.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := protocol.ReadRecords(f, path)
	if len(recs) == 0 && err == nil {
		err = fmt.Errorf("%s: empty transcript", path)
	}
	return recs, err
}
