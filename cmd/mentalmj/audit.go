package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
)

func auditCommand() *cobra.Command {
	var asJSON bool
	cmd := leaf(auditUsage, "re-verify saved transcripts offline: who cheated, what went wrong", func(cmd *cobra.Command, args []string) int {
		return runAudit(cmd, args, asJSON)
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the report as JSON: {"ok", "verdict", "players", "hands", "blame": [{"peer", "player", "hand", "reason", "evidence"}], "faults": [{"peer", "player", "hand", "kind", "reason", "reporters"}], …}`)
	return cmd
}

const auditUsage = `audit [--json] TRANSCRIPT [TRANSCRIPT...]

Re-verifies a transcript written by "mentalmj join" without any network:
every signature and hash chain, the Hellos, every hand's nonce commitments,
the zero-knowledge proof of every shuffle and rekey pass (a game played
with --no-proofs has its passes replayed with the revealed keys instead),
key releases, and the kyoku replayed under the
rules engine (every turn, call, win, riichi and tenpai declaration), with
the decrypted wall checked against the Tenhou layout. A game played with
--private-hands reveals only the keys the rules need: every proof and every
tile shown is checked against the proven wall, the rest of the wall stays
hidden and the audit says so ("wall partly revealed (private hands): …").
It prints each hand's result and audit, then the verdicts:

  BLAME  a player is proven to have cheated: entries it signed fail a
         check, or two of its signed entries conflict. The evidence is
         listed with the file and record that hold it.
  FAULT  something stopped or spoiled the game without proving a cheat:
         silence, a lost connection, a player who quit or aborted, a
         configuration mismatch, a damaged or cut-short file. A fault
         proves nothing about intent.

Given the transcripts of several players of the same game, it audits each
and compares them: two signed messages from one player with the same
sequence number and different contents prove that it told different
players different things (equivocation), and are blamed on it.
Transcripts of different games are refused.

Exit status: 0 every hand verified; 1 a cheat is proven (blame); 2 a file
cannot be audited (not a transcript, cut short, damaged, different games,
bad usage); 3 no cheat is proven but the game did not complete as played
(faults only).`

func runAudit(cmd *cobra.Command, args []string, asJSON bool) int {
	if len(args) < 1 {
		return usageError(cmd, "give a transcript file")
	}
	var files []verdict.File
	for _, path := range args {
		recs, err := readTranscript(path)
		if len(recs) == 0 {
			return fail(cmd, 2, "%v", err)
		}
		files = append(files, verdict.File{Name: path, Records: recs, ReadErr: err})
	}
	r, err := verdict.Audit(files)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	return writeReport(cmd.OutOrStdout(), r, asJSON)
}

// writeReport writes the audit's verdict r to w, as indented JSON with
// asJSON or else as text (verdict.Report.WriteText), and returns its exit
// code (verdict.Report.ExitCode): audit's and watch's last step.
func writeReport(w io.Writer, r *verdict.Report, asJSON bool) int {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		r.WriteText(w)
	}
	return r.ExitCode()
}

// readTranscript reads a transcript file's records; the error names the
// file: it cannot be opened, is not a transcript (no records returned), or
// is cut short after the records returned.
func readTranscript(path string) ([]protocol.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := protocol.LoadRecords(f, path)
	if errors.Is(err, protocol.ErrNotTranscript) {
		return nil, fmt.Errorf("%w; give a .mjt file written by mentalmj join or local", err)
	}
	return recs, err
}
