package protocol

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
)

// CompareTranscripts cross-checks the transcripts of one game kept by
// different players (each a list of records, named by names). Every
// sender's messages are chained by sequence number, so two correctly
// signed entries from the same sender with the same sequence number and
// different contents prove that the sender told different players
// different things (equivocation): each such pair is blamed on the sender.
// Records whose signature does not verify are left to AuditTranscript.
// The transcripts must be of one game (the caller checks their
// TranscriptAudit.GameID): a player's sequence numbers start again in
// every game. It returns the blames found, each with both entries as
// evidence, none for consistent transcripts.
func CompareTranscripts(names []string, transcripts [][]Record) []Blame {
	type seen struct {
		hash [32]byte
		file string
		rec  int
		ev   []Evidence
	}
	first := map[peer.ID]map[uint64]seen{}
	blamed := map[peer.ID]bool{}
	var out []Blame
	for f, recs := range transcripts {
		for _, rec := range recs {
			o, err := Open(rec.Envelope)
			if err != nil {
				continue
			}
			bySeq := first[o.Sender]
			if bySeq == nil {
				bySeq = map[uint64]seen{}
				first[o.Sender] = bySeq
			}
			prev, ok := bySeq[o.Entry.Seq]
			if !ok {
				bySeq[o.Entry.Seq] = seen{o.Hash, names[f], rec.Index, evidenceOf(o)}
				continue
			}
			if !bytes.Equal(prev.hash[:], o.Hash[:]) && !blamed[o.Sender] {
				// The first conflict is the proof; the rest of a forked
				// chain differs too and adds nothing.
				blamed[o.Sender] = true
				out = appendBlame(out, Blame{Peer: o.Sender, Hand: int(o.Entry.Hand), Kind: BlameEquivocation, Reason: fmt.Sprintf(
					"equivocation: signed two different messages with sequence number %d (%s record %d and %s record %d)",
					o.Entry.Seq, prev.file, prev.rec, names[f], rec.Index), Evidence: append(slices.Clone(prev.ev), evidenceOf(o)...)})
			}
		}
	}
	return out
}
