package protocol

import (
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// TranscriptAudit is the verdict of AuditTranscript.
type TranscriptAudit struct {
	// Table is the table name from the Hellos; Length the match length
	// ("hanchan" or "tonpuu").
	Table, Length string
	// Standings are the match standings after the audited hands; Over
	// reports whether the match ended.
	Standings game.Standings
	Over      bool
	// Peers are the four peer IDs from the Hellos, ascending.
	Peers []peer.ID
	// Hands holds one audit per hand found, in order.
	Hands []*HandAudit
	// Blame lists every player found at fault, in the order found: bad
	// signatures, broken hash chains, bad Hellos, then each hand's audit.
	Blame []Blame
}

// OK reports whether the transcript verified: at least one hand, every
// hand audited clean, nobody blamed.
func (t *TranscriptAudit) OK() bool {
	if len(t.Blame) > 0 || len(t.Hands) == 0 {
		return false
	}
	for _, h := range t.Hands {
		if !h.OK() {
			return false
		}
	}
	return true
}

// AuditTranscript re-verifies a saved transcript offline: every record's
// signature (a record that fails is blamed on the peer it claims as sender,
// "altered after signing"), every sender's hash chain, the four Hellos and
// the game id, and every hand with AuditHand (dealer seat h-1 mod 4 for
// hand h, as the protocol rotates it). It never panics on bad records.
func AuditTranscript(records []Record) *TranscriptAudit {
	t := &TranscriptAudit{}
	blame := func(p peer.ID, hand int, format string, args ...any) {
		t.Blame = append(t.Blame, Blame{Peer: p, Hand: hand, Reason: fmt.Sprintf(format, args...)})
	}
	var entries []*Opened
	ch := chains{}
	for _, rec := range records {
		o, err := Open(rec.Envelope)
		if err != nil {
			p, hand := claimedSender(rec.Envelope)
			blame(p, hand, "record %d: %v (altered after signing, or forged)", rec.Index, err)
			continue
		}
		if err := ch.accept(o); err != nil {
			blame(o.Sender, int(o.Entry.Hand), "record %d: %v", rec.Index, err)
			continue
		}
		entries = append(entries, o)
	}
	// The Hellos.
	var hellos []*Opened
	for len(entries) > 0 && entries[0].Entry.Hand == 0 {
		hellos = append(hellos, entries[0])
		entries = entries[1:]
	}
	gameID, ok := t.hellos(hellos, blame)
	if !ok {
		return t
	}
	// The hands, in order, with the match state carried from hand to hand
	// by the rules engine.
	tiles := commcrypto.NewTileTable()
	params := shuffleproof.NewParams(wall.NumTiles)
	rules := game.TenhouRules(t.Length != "tonpuu", true, true)
	match := game.NewMatch(rules)
	var seats []peer.ID
	for len(entries) > 0 {
		n := entries[0].Entry.Hand
		end := 0
		for end < len(entries) && entries[end].Entry.Hand == n {
			end++
		}
		hand := entries[:end]
		entries = entries[end:]
		partial := slices.ContainsFunc(hand, func(o *Opened) bool { return o.Entry.GetAbort() != nil })
		deal, ok := match.Next()
		if !ok {
			t.Blame = append(t.Blame, Blame{Hand: int(n), Reason: "hand played after the match was over"})
			return t
		}
		a := AuditHand(AuditInput{GameID: gameID, Peers: t.Peers, Seats: seats, Hand: n, Oya: int(deal.Oya), Deal: deal, Rules: rules, Entries: hand, Tiles: tiles, ShuffleParams: params, Partial: partial})
		if partial && len(a.Blame) == 0 {
			a.Blame = append(a.Blame, Blame{Hand: int(n), Reason: "hand was aborted"})
		}
		if seats == nil {
			seats = a.Seats
		}
		t.Hands = append(t.Hands, a)
		t.Blame = append(t.Blame, a.Blame...)
		if a.Result == nil || len(a.Blame) > 0 {
			return t
		}
		if err := match.End(a.Result); err != nil {
			t.Blame = append(t.Blame, Blame{Hand: int(n), Reason: err.Error()})
			return t
		}
	}
	t.Standings = match.Standings()
	t.Over = match.Over()
	return t
}

// hellos checks the four Hellos agree and returns the game id.
func (t *TranscriptAudit) hellos(hellos []*Opened, blame func(peer.ID, int, string, ...any)) ([]byte, bool) {
	if len(hellos) != Players {
		blame("", 0, "transcript opens with %d hellos, want %d", len(hellos), Players)
		return nil, false
	}
	first := hellos[0].Entry.GetHello()
	if first == nil {
		blame(hellos[0].Sender, 0, "first entry is a %s, not a hello", hellos[0].Kind())
		return nil, false
	}
	nonces := map[peer.ID][]byte{}
	for _, o := range hellos {
		h := o.Entry.GetHello()
		if h == nil || o.Entry.Seq != 0 {
			blame(o.Sender, 0, "game opening entry is a %s with seq %d", o.Kind(), o.Entry.Seq)
			return nil, false
		}
		if err := checkHello(h, first); err != nil {
			blame(o.Sender, 0, "hello disagrees: %v", err)
			return nil, false
		}
		nonces[o.Sender] = h.Nonce
	}
	for _, raw := range first.Peers {
		p, err := peer.IDFromBytes(raw)
		if err != nil {
			blame(hellos[0].Sender, 0, "hello lists a bad peer ID: %v", err)
			return nil, false
		}
		if _, ok := nonces[p]; !ok {
			blame(p, 0, "listed in the hellos but sent none")
			return nil, false
		}
		t.Peers = append(t.Peers, p)
	}
	t.Table, t.Length = first.Table, first.Length
	return gameID(first.Table, t.Peers, nonces), true
}

// claimedSender extracts the sender and hand an unverifiable envelope
// claims, for naming it; "" and 0 if even that does not decode.
func claimedSender(env []byte) (peer.ID, int) {
	var e pb.Envelope
	var entry pb.Entry
	if proto.Unmarshal(env, &e) != nil || proto.Unmarshal(e.Entry, &entry) != nil {
		return "", 0
	}
	p, err := peer.IDFromBytes(entry.Sender)
	if err != nil {
		return "", int(entry.Hand)
	}
	return p, int(entry.Hand)
}
