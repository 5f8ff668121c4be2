package stats

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
)

// transcriptRecord audits a mentalmj transcript offline
// (protocol.AuditTranscript: every signature, proof and move) and returns
// its audited hands as an mjlog document, written as join and local write
// their --mjlog records (record.Game), so that Scan reads it and the same
// game's .mjlog.xml has the same Key. ok is false, with no error, for
// data that is not a transcript at all. It returns an error naming path
// for a transcript that proves a cheat (its game is left out: "mentalmj
// audit" says why) or holds no audited hand. A transcript cut short gives
// the hands audited before the cut, without a final result.
func transcriptRecord(raw []byte, path string) (doc []byte, ok bool, err error) {
	recs, err := protocol.LoadRecords(bytes.NewReader(raw), path)
	if errors.Is(err, protocol.ErrNotTranscript) || len(recs) == 0 {
		return nil, false, nil
	}
	a := protocol.AuditTranscript(recs)
	if len(a.Blame) > 0 {
		return nil, true, fmt.Errorf("%s: a mentalmj transcript that proves a cheat (see mentalmj audit %s): its game is left out", path, path)
	}
	var rounds []mjlog.Round
	for _, h := range a.Hands {
		if h.Record != nil {
			rounds = append(rounds, *h.Record)
		}
	}
	if len(rounds) == 0 {
		why := ""
		if len(a.Faults) > 0 {
			why = ": " + a.Faults[0].Reason
		}
		return nil, true, fmt.Errorf("%s: a mentalmj transcript without an audited hand%s (see mentalmj audit %s)", path, why, path)
	}
	var names [4]string
	for s, p := range a.Seats {
		if s < len(names) {
			names[s] = a.Nicks[p]
		}
	}
	hanchan := a.Length != "tonpuu"
	rules := game.TenhouRules(hanchan, true, true)
	if a.Players == 3 {
		rules = game.TenhouSanmaRules(hanchan, true, true)
	}
	var g *mjlog.Game
	if a.Over && len(rounds) == len(a.Hands) {
		g = record.Game(names, rules, rounds, a.Standings)
	} else {
		// An unfinished match has no final standings: no owari.
		g = record.Game(names, rules, nil, game.Standings{})
		g.Rounds = rounds
	}
	var b bytes.Buffer
	if err := mjlog.Write(&b, g); err != nil {
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	return b.Bytes(), true, nil
}
