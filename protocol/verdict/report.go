package verdict

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// File is one transcript file to audit: its name, its complete records
// (protocol.LoadRecords) and the error that stopped reading, if any (a cut
// short file still has the records before the cut).
type File struct {
	Name    string
	Records []protocol.Record
	ReadErr error
}

// ErrDifferentGames is wrapped by Audit's error for transcripts that are
// not of one game.
var ErrDifferentGames = errors.New("transcripts of different games")

// Report is the verdict on one game from one or more of its players'
// transcripts; it is also the JSON that `mentalmj audit --json` prints.
type Report struct {
	// OK is true when every hand verified, no one is blamed and there is
	// no fault.
	OK bool `json:"ok"`
	// Verdict is "verified", "blame" (a cheat is proven), "unreadable"
	// (a file is damaged or cut short) or "fault" (the game did not
	// complete as played), by the precedence of ExitCode.
	Verdict string `json:"verdict"`
	// Table and Length are the Hellos' table name and match length.
	Table  string `json:"table"`
	Length string `json:"length"`
	// Sanma says the Hellos announced a three-player game (108-tile
	// wall, Tenhou's sanma rules).
	Sanma bool `json:"sanma,omitempty"`
	// PrivateHands says the Hellos announced private hands: each hand's
	// wall was only partly revealed (Hand.Shown positions), so the audit
	// checked every proof and every shown tile against the proven wall
	// but not the Tenhou wall model.
	PrivateHands bool `json:"private_hands,omitempty"`
	// Settings are all the settings the Hellos agreed on, as a player
	// reads them (settings.Settings.Summary: players, match length and
	// hands, rules, time control, proofs, private hands); "" if no Hello
	// was read or they do not agree.
	Settings string `json:"settings,omitempty"`
	// Dropped, for a game with the pipelined setup (the default; join --no-pipeline turns it off),
	// says the first transcript ends with the audited passes of a hand
	// never played ("hand 9: 5 prepared passes dropped unused: the match
	// is over"); empty otherwise.
	Dropped string `json:"dropped,omitempty"`
	// GameID is the game id in hex ("" if the Hellos do not agree).
	GameID      string           `json:"game_id"`
	Transcripts []TranscriptInfo `json:"transcripts"`
	Players     []Player         `json:"players"`
	// Hands are the first transcript's hands.
	Hands  []Hand  `json:"hands"`
	Blame  []Blame `json:"blame"`
	Faults []Fault `json:"faults"`
	names  Names
}

// TranscriptInfo describes one file audited.
type TranscriptInfo struct {
	File    string `json:"file"`
	Owner   string `json:"owner"` // the peer whose transcript it is, "" if unknown
	Records int    `json:"records"`
	Hands   int    `json:"hands"`
	// Stopped says where reading stopped early ("" if it did not).
	Stopped string `json:"stopped,omitempty"`
}

// Player is one seat of the table.
type Player struct {
	Peer string `json:"peer"`
	Nick string `json:"nick"`
	Seat int    `json:"seat"` // -1 if the seating is unknown
}

// Hand is one hand's audit.
type Hand struct {
	Hand  int    `json:"hand"`
	Round string `json:"round"` // "East 1"
	Honba int    `json:"honba"`
	// Oya is the dealer's seat (0..3).
	Oya int `json:"oya"`
	// Dice are the two dice, 0-based faces (d+1 shown); null when the
	// nonces that fix them were not revealed.
	Dice *[2]int `json:"dice"`
	// DoraIndicator is the Tenhou tile id at yama[5], -1 if not revealed.
	DoraIndicator int `json:"dora_indicator"`
	// Yama is the decrypted wall, 136 Tenhou tile ids in yama order
	// (docs/wall-layout.md §5); null if it was not revealed or failed. With
	// private hands it holds -1 at every position not shown.
	Yama   []int  `json:"yama"`
	Events int    `json:"events"`
	Result string `json:"result"`
	// Audit is "wall verified", "wall partly revealed (private hands): N
	// of 136 positions shown; the Tenhou wall model was not checked",
	// "aborted" or "failed".
	Audit string `json:"audit"`
	// PrivateHands says the hand was played with private hands; Shown is
	// then the number of yama positions whose tile was shown (the others
	// stay private, even from this audit).
	PrivateHands bool `json:"private_hands,omitempty"`
	Shown        int  `json:"shown,omitempty"`
	// Proven says every shuffle and rekey pass carried a zero-knowledge
	// proof that verified, so the wall was decrypted without replaying
	// the passes (false for a game played with --no-proofs).
	Proven bool `json:"proven"`
}

// Blame is a proven cheat with its evidence located in the files.
type Blame struct {
	Peer   string `json:"peer"`
	Player string `json:"player"` // "alice (East, seat 0)"
	Hand   int    `json:"hand"`
	// Kind is what the entries prove (protocol.BlameKind: "bad shuffle",
	// "bad key", "illegal play", …).
	Kind     string     `json:"kind,omitempty"`
	Reason   string     `json:"reason"`
	Evidence []Evidence `json:"evidence"`
}

// Evidence is one signed entry a blame rests on.
type Evidence struct {
	Sender string `json:"sender"`
	Hand   int    `json:"hand"`
	Seq    uint64 `json:"seq"`
	Kind   string `json:"kind"`
	Hash   string `json:"hash"` // SHA-256 of the signed entry, hex
	// File and Record locate the entry (1-based record number); empty
	// and 0 if no file audited holds it.
	File   string `json:"file,omitempty"`
	Record int    `json:"record,omitempty"`
}

// Fault is a fault, naming its peer when it has one.
type Fault struct {
	Peer      string   `json:"peer"` // "" for a fault of a file
	Player    string   `json:"player"`
	Hand      int      `json:"hand"`
	Kind      string   `json:"kind"`
	Reason    string   `json:"reason"`
	Reporters []string `json:"reporters"`
	// File is the transcript the fault was found in.
	File string `json:"file"`
}

// Audit audits each file with protocol.AuditTranscript and, given
// several, checks they are of one game (an error wrapping
// ErrDifferentGames names them otherwise) and compares them
// (protocol.CompareTranscripts: equivocation is blamed). The hands shown
// are the first file's.
func Audit(files []File) (*Report, error) {
	if len(files) == 0 {
		return nil, errors.New("no transcript to audit")
	}
	audits := make([]*protocol.TranscriptAudit, len(files))
	for i, f := range files {
		audits[i] = protocol.AuditTranscript(f.Records)
	}
	for i := 1; i < len(files); i++ {
		a, b := audits[0], audits[i]
		if a.GameID != nil && b.GameID != nil && !bytes.Equal(a.GameID, b.GameID) {
			return nil, fmt.Errorf("%w: %s is table %q, game %s; %s is table %q, game %s: audit each on its own", ErrDifferentGames,
				files[0].Name, a.Table, hex.EncodeToString(a.GameID)[:12], files[i].Name, b.Table, hex.EncodeToString(b.GameID)[:12])
		}
	}
	first := audits[0]
	r := &Report{Table: first.Table, Length: first.Length, Sanma: first.Players == 3, PrivateHands: first.PrivateHands, Transcripts: []TranscriptInfo{}, Players: []Player{}, Hands: []Hand{}, Blame: []Blame{}, Faults: []Fault{}}
	if first.GameID != nil {
		r.GameID = hex.EncodeToString(first.GameID)
		r.Settings = first.Settings.Summary()
	}
	if d := first.Dropped; d != nil {
		r.Dropped = fmt.Sprintf("hand %d: %d prepared passes dropped unused: %s", d.Hand, d.Passes, d.Reason)
	}
	r.names = Names{Seats: first.Seats, Nicks: first.Nicks}
	for _, p := range first.Peers {
		r.Players = append(r.Players, Player{Peer: p.String(), Nick: first.Nicks[p], Seat: slices.Index(first.Seats, p)})
	}
	slices.SortStableFunc(r.Players, func(a, b Player) int { return a.Seat - b.Seat })
	where := locate(files)
	oyaOf := func(hand int) int {
		for _, h := range first.Hands {
			if h.Hand == hand {
				return h.Oya
			}
		}
		return -1
	}
	damaged := false
	for i, f := range files {
		a := audits[i]
		info := TranscriptInfo{File: f.Name, Records: len(f.Records), Hands: len(a.Hands)}
		if a.Owner != "" {
			info.Owner = a.Owner.String()
		}
		if f.ReadErr != nil {
			info.Stopped = f.ReadErr.Error()
			damaged = true
		}
		damaged = damaged || a.Damaged()
		r.Transcripts = append(r.Transcripts, info)
		for _, b := range a.Blame {
			r.addBlame(b, oyaOf(b.Hand), where)
		}
		for _, flt := range a.Faults {
			r.addFault(flt, oyaOf(flt.Hand), f.Name)
		}
	}
	if len(files) > 1 {
		recs := make([][]protocol.Record, len(files))
		names := make([]string, len(files))
		for i, f := range files {
			recs[i], names[i] = f.Records, f.Name
		}
		for _, b := range protocol.CompareTranscripts(names, recs) {
			r.addBlame(b, oyaOf(b.Hand), where)
		}
	}
	for _, h := range first.Hands {
		r.Hands = append(r.Hands, r.hand(h))
	}
	switch {
	case len(r.Blame) > 0:
		r.Verdict = "blame"
	case damaged:
		r.Verdict = "unreadable"
	case len(r.Faults) > 0 || !slices.ContainsFunc(audits, (*protocol.TranscriptAudit).OK):
		r.Verdict = "fault"
	default:
		r.Verdict = "verified"
	}
	r.OK = r.Verdict == "verified"
	return r, nil
}

// ExitCode is the exit status for the report: 0 verified, 1 blame, 2
// unreadable, 3 fault (see the package doc).
func (r *Report) ExitCode() int {
	switch r.Verdict {
	case "verified":
		return 0
	case "blame":
		return 1
	case "unreadable":
		return 2
	}
	return 3
}

func (r *Report) hand(h *protocol.HandAudit) Hand {
	out := Hand{Hand: h.Hand, Round: game.RoundName(h.Deal.Round), Honba: h.Deal.Honba, Oya: h.Oya, DoraIndicator: h.DoraIndicator, Yama: h.Yama, Events: h.Events, Proven: h.Proven, PrivateHands: h.PrivateHands, Shown: h.Shown}
	if h.Seats != nil {
		out.Dice = &h.Dice
		names := r.names
		names.Seats = h.Seats
		out.Result = DescribeResult(h.Result, names.Seat(h.Oya))
	}
	cut := slices.ContainsFunc(h.Faults, func(f protocol.Fault) bool {
		return f.Kind == protocol.FaultIncomplete || f.Kind == protocol.FaultDamaged || f.Kind == protocol.FaultVersion
	})
	switch {
	case h.OK() && h.PrivateHands:
		out.Audit = PartialWall(h.Shown, len(h.Yama))
	case h.OK():
		out.Audit = "wall verified"
	case len(h.Blame) == 0 && h.Result == nil && cut:
		out.Audit = "not audited: the transcript ends mid-hand"
		out.Result = "the hand did not finish in this transcript"
	case len(h.Blame) == 0 && h.Result == nil:
		out.Audit = "aborted"
		out.Result = "the hand did not finish"
	default:
		out.Audit = "failed"
	}
	return out
}

// PartialWall says how much of a private-hands hand's wall of size
// positions (136, or 108 in sanma) was revealed: shown of them, the rest
// private, so the Tenhou wall model was not checked.
func PartialWall(shown, size int) string {
	return fmt.Sprintf("wall partly revealed (private hands): %d of %d positions shown; the Tenhou wall model was not checked", shown, size)
}

// locate maps entry hashes to the file and record that hold them.
func locate(files []File) map[[32]byte][2]any {
	out := map[[32]byte][2]any{}
	for _, f := range files {
		for _, rec := range f.Records {
			o, err := protocol.Open(rec.Envelope)
			if err != nil {
				continue
			}
			if _, ok := out[o.Hash]; !ok {
				out[o.Hash] = [2]any{f.Name, rec.Index}
			}
		}
	}
	return out
}

func (r *Report) addBlame(b protocol.Blame, oya int, where map[[32]byte][2]any) {
	for _, x := range r.Blame {
		if x.Peer == b.Peer.String() && x.Hand == b.Hand && x.Reason == b.Reason {
			return
		}
	}
	out := Blame{Peer: b.Peer.String(), Player: r.names.Short(b.Peer, oya), Hand: b.Hand, Kind: string(b.Kind), Reason: b.Reason, Evidence: []Evidence{}}
	for _, e := range b.Evidence {
		ev := Evidence{Sender: e.Sender.String(), Hand: e.Hand, Seq: e.Seq, Kind: e.Kind, Hash: hex.EncodeToString(e.Hash[:])}
		if w, ok := where[e.Hash]; ok {
			ev.File, ev.Record = w[0].(string), w[1].(int)
		}
		out.Evidence = append(out.Evidence, ev)
	}
	r.Blame = append(r.Blame, out)
}

func (r *Report) addFault(f protocol.Fault, oya int, file string) {
	for i, x := range r.Faults {
		if x.Peer == f.Peer.String() && x.Hand == f.Hand && x.Kind == string(f.Kind) && (f.Peer != "" || x.File == file) {
			for _, p := range f.Reporters {
				if !slices.Contains(r.Faults[i].Reporters, p.String()) {
					r.Faults[i].Reporters = append(r.Faults[i].Reporters, p.String())
				}
			}
			return
		}
	}
	out := Fault{Peer: string(f.Peer), Hand: f.Hand, Kind: string(f.Kind), Reason: f.Reason, Reporters: []string{}, File: file}
	if f.Peer != "" {
		out.Peer = f.Peer.String()
		out.Player = r.names.Short(f.Peer, oya)
	}
	for _, p := range f.Reporters {
		out.Reporters = append(out.Reporters, p.String())
	}
	r.Faults = append(r.Faults, out)
}

// TileName names a Tenhou tile id (0..135) at a table playing the red
// fives reds (wall.Reds.Name: "5m", "0p" for a red five of reds), "not
// revealed" for -1 or any other id.
func TileName(id int, reds wall.Reds) string {
	if id < 0 || id >= wall.NumTiles {
		return "not revealed"
	}
	return reds.Name(wall.Tile(id))
}

// peerID parses a peer ID string, "" for an empty or bad one.
func peerID(s string) peer.ID {
	p, err := peer.Decode(s)
	if err != nil {
		return ""
	}
	return p
}
