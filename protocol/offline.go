package protocol

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// TranscriptAudit is the verdict of AuditTranscript.
type TranscriptAudit struct {
	// Table is the table name from the Hellos; Length the match length
	// ("hanchan" or "tonpuu"); HandsWanted the number of hands the
	// players agreed on (0 for a whole match).
	Table, Length string
	HandsWanted   int
	// NoProofs says the Hellos announced a game without shuffle and
	// rekey proofs (--no-proofs); otherwise every pass must carry one.
	NoProofs bool
	// PrivateHands says the Hellos announced private hands: each hand's
	// key reveal holds only the keys the rules need, so the audit checks
	// every proof and shown tile but only part of the wall
	// (HandAudit.PrivateHands, Shown).
	PrivateHands bool
	// Players is the number of players the Hellos announced: 4, or 3 for
	// a sanma game (108-tile wall, game.TenhouSanmaRules); 0 if no Hello
	// was read.
	Players int
	// Settings are all the settings the Hellos agreed on (Length,
	// HandsWanted, NoProofs, PrivateHands and Players repeat parts of
	// them); the zero Settings if no Hello was read.
	Settings settings.Settings
	// GameID is the game id the Hellos derive (32 bytes); nil if they do
	// not agree. Two transcripts of one game have the same GameID.
	GameID []byte
	// Standings are the match standings after the audited hands; Over
	// reports whether the match ended.
	Standings game.Standings
	Over      bool
	// Peers are the peer IDs from the Hellos (four, or three in sanma),
	// ascending; Seats the
	// seat order hand 1 fixed (nil before); Nicks the nicknames the
	// Hellos announced.
	Peers []peer.ID
	Seats []peer.ID
	Nicks map[peer.ID]string
	// Owner is the player whose transcript this is: the one that sent or
	// received every private message in it ("" if none shows).
	Owner peer.ID
	// Hands holds one audit per hand found, in order.
	Hands []*HandAudit
	// Blame lists every proven cheat, in the order found (forked hash
	// chains, then each hand's), each with its signed evidence.
	Blame []Blame
	// Faults lists everything else found, in order: damaged records, a
	// configuration mismatch, each hand's faults (Aborts' claims, messages
	// missing), and a transcript that ends before the game does.
	Faults []Fault
	// Pipeline says the Hellos announced the pipelined setup (SPEC.md
	// §22): each hand's passes may be interleaved with the hand before.
	Pipeline bool
	// Joined is, for the transcript of a spectator that joined the game
	// late (SPEC.md §25, the catch-up), the first hand it holds whole: the
	// transcript has the Hellos, hand 1's nonces (which fix the seats) and
	// the hands from Joined on, which are audited from the match state
	// their nonce commitments state (every player signs it; each hand
	// after is carried by the rules engine as usual). The hands before
	// Joined are not audited. 0 for a transcript from the game's start.
	Joined int
	// Dropped is set when the transcript ends with the shuffle and rekey
	// passes of a hand that was never played (pipelined setup: the
	// match, or the game, ended while they were prepared); nil otherwise.
	// Their inputs and proofs were audited all the same.
	Dropped *DroppedPasses
}

// DroppedPasses describes the prepared passes of a hand never played.
type DroppedPasses struct {
	// Hand is the 1-based number of the hand they were prepared for;
	// Passes how many of its shuffle and rekey passes the transcript holds.
	Hand, Passes int
	// Reason says why the hand was not played: "the match is over", or
	// that the hand before it ended early.
	Reason string
}

// OK reports whether the transcript verified: at least one hand, every
// hand audited clean, nobody blamed, no fault.
func (t *TranscriptAudit) OK() bool {
	if len(t.Blame) > 0 || len(t.Faults) > 0 || len(t.Hands) == 0 {
		return false
	}
	for _, h := range t.Hands {
		if !h.OK() {
			return false
		}
	}
	return true
}

// Damaged reports whether the transcript itself cannot be audited in
// whole: damaged, cut short, or of another protocol version (a fault of
// kind FaultDamaged, FaultIncomplete or FaultVersion).
func (t *TranscriptAudit) Damaged() bool {
	return slices.ContainsFunc(t.Faults, func(f Fault) bool {
		return f.Kind == FaultDamaged || f.Kind == FaultIncomplete || f.Kind == FaultVersion
	})
}

// AuditTranscript re-verifies a saved transcript offline: every record's
// signature (a record that fails is a FaultDamaged: the file was altered
// or damaged, which proves nothing against the peer it names), every
// sender's hash chain (a fork is a blame), the four Hellos and the game
// id, and every hand with AuditHand (dealer and match state carried from
// hand to hand by the rules engine). It reports a transcript that ends
// before the game does as FaultIncomplete. It never panics on bad records.
func AuditTranscript(records []Record) *TranscriptAudit {
	t := &TranscriptAudit{Nicks: map[peer.ID]string{}}
	var entries []*Opened
	ch := chains{}
	cut := false // the records stop early: only a prefix of the game is judged
	for _, rec := range records {
		o, err := Open(rec.Envelope)
		if err != nil {
			// What follows a damaged record cannot be judged: a missing
			// entry would make the next one look out of turn.
			t.Faults = append(t.Faults, Fault{Kind: FaultDamaged, Reason: fmt.Sprintf("record %d at byte %d does not verify (the file was damaged or altered after signing): %v; the %d records after it are not audited", rec.Index, rec.Offset, err, len(records)-rec.Index)})
			cut = true
			break
		}
		if err := ch.accept(o); err != nil {
			var fork *chainFork
			if errors.As(err, &fork) {
				t.Blame = appendBlame(t.Blame, blameOn(o.Sender, o.Entry.Hand, BlameEquivocation, fork.evidence, nil, "signed two different messages as its message %d (equivocation; record %d)", fork.seq, rec.Index).Blame)
			} else {
				t.Faults = append(t.Faults, Fault{Peer: o.Sender, Hand: int(o.Entry.Hand), Kind: FaultUnverifiable, Reason: fmt.Sprintf("record %d: %v", rec.Index, err)})
			}
			continue
		}
		entries = append(entries, o)
	}
	t.Owner = owner(entries)
	// The Hellos.
	var hellos []*Opened
	for len(entries) > 0 && entries[0].Entry.Hand == 0 {
		if o := entries[0]; o.Entry.GetAbort() != nil && o.Entry.Seq > 0 {
			// A player that gave up before the game started, and why.
			t.Faults = appendFault(t.Faults, abortError(o, helloPeers(hellos)).Fault)
		} else {
			hellos = append(hellos, o)
		}
		entries = entries[1:]
	}
	gameID, ok := t.hellos(hellos)
	if !ok {
		if slices.ContainsFunc(t.Faults, func(f Fault) bool { return f.Kind == FaultVersion }) {
			t.Blame = nil // another version's rules are not this build's to judge
		}
		return t
	}
	t.GameID = gameID
	// A player that gave up during the Hellos while this node went on to
	// hand 1 (openingAbort): its Abort is recorded among hand 1's entries.
	entries = slices.DeleteFunc(entries, func(o *Opened) bool {
		if e := o.Entry; e.Hand == 0 && len(e.GameId) == 0 && e.GetAbort() != nil {
			t.Faults = appendFault(t.Faults, abortError(o, helloPeers(hellos)).Fault)
			return true
		}
		return false
	})
	// The hands, in order, with the match state carried from hand to hand
	// by the rules engine.
	tiles := commcrypto.NewTileTable()
	params := NewProofParams(t.Settings.ProofSystem(), layoutFor(t.Players).Size)
	rules := t.Settings.Rules.Game(t.Players, !t.Settings.Tonpuu)
	match := game.NewMatch(rules)
	ended := false // the last hand ended early (aborted) or failed
	hands := byHand(entries)
	if joined(hands) {
		if !t.join(gameID, hands[0], hands[1], match) {
			return t
		}
		hands = hands[1:]
	}
	for len(hands) > 0 {
		hand := hands[0]
		hands = hands[1:]
		n := hand[0].Entry.Hand
		partial := slices.ContainsFunc(hand, func(o *Opened) bool { return o.Entry.GetAbort() != nil }) || cut && len(hands) == 0
		deal, ok := match.Next()
		if !ok && t.Pipeline && onlyPasses(hand) && len(hands) == 0 {
			t.dropped(gameID, n, hand, rules, tiles, params, "the match is over")
			break
		}
		if !ok {
			t.Faults = append(t.Faults, Fault{Hand: int(n), Kind: FaultUnverifiable, Reason: "entries for a hand after the match was over"})
			break
		}
		a := AuditHand(AuditInput{GameID: gameID, Peers: t.Peers, Seats: t.Seats, Hand: n, Oya: int(deal.Oya), Deal: deal, Rules: rules, Entries: hand, Tiles: tiles, Proofs: params.System(), ShuffleParams: params, RequireProofs: !t.NoProofs, Partial: partial, PrivateHands: t.PrivateHands})
		if t.Seats == nil {
			t.Seats = a.Seats
		}
		t.Hands = append(t.Hands, a)
		t.Blame = appendBlame(t.Blame, a.Blame...)
		t.Faults = appendFault(t.Faults, a.Faults...)
		if partial || a.Result == nil || len(a.Blame) > 0 {
			ended = true
			if len(hands) > 0 && t.Pipeline && onlyPasses(hands[0]) && t.Seats != nil {
				t.dropped(gameID, hands[0][0].Entry.Hand, hands[0], rules, tiles, params, fmt.Sprintf("hand %d ended early", n))
			}
			break
		}
		if err := match.End(a.Result); err != nil {
			t.Faults = append(t.Faults, Fault{Hand: int(n), Kind: FaultLocal, Reason: err.Error()})
			ended = true
			break
		}
	}
	t.Standings = match.Standings()
	t.Over = match.Over()
	played := len(t.Hands)
	if t.Joined > 0 {
		played += t.Joined - 1
	}
	if !cut && !ended && !t.Over && (t.HandsWanted == 0 || played < t.HandsWanted) {
		what := "the match is over"
		if t.HandsWanted > 0 {
			what = fmt.Sprintf("hand %d of %d", t.HandsWanted, t.HandsWanted)
		}
		t.Faults = append(t.Faults, Fault{Hand: len(t.Hands), Kind: FaultIncomplete, Reason: fmt.Sprintf("the transcript ends after %d complete hands, before %s (the file was cut short, or its node stopped)", len(t.Hands), what)})
	}
	return t
}

// joined reports whether a game's entries by hand (byHand) are a late
// spectator's: hand 1's nonce commitments and reveals alone, then a later
// hand (SPEC.md §25, the catch-up).
func joined(hands [][]*Opened) bool {
	if len(hands) < 2 || hands[0][0].Entry.Hand != 1 || hands[1][0].Entry.Hand < 2 {
		return false
	}
	return !slices.ContainsFunc(hands[0], func(o *Opened) bool {
		return o.Entry.GetNonceCommit() == nil && o.Entry.GetNonceReveal() == nil
	})
}

// join starts the audit of a late spectator's transcript at hand next's
// first hand: the seats from hand 1's nonces (each must open its
// commitment, every player's must be there), the match state from next's
// nonce commitments (the one most of them state; AuditHand then checks
// every player's against it). It reports whether the audit can go on.
func (t *TranscriptAudit) join(gameID []byte, first, next []*Opened, match *game.Match) bool {
	n := next[0].Entry.Hand
	commits, nonces := map[peer.ID][]byte{}, map[peer.ID][]byte{}
	for _, o := range first {
		if c := o.Entry.GetNonceCommit(); c != nil {
			commits[o.Sender] = c.Commitment
		}
	}
	for _, o := range first {
		if r := o.Entry.GetNonceReveal(); r != nil {
			if string(nonceCommitment(gameID, 1, o.Sender, r.Nonce)) != string(commits[o.Sender]) {
				t.Faults = append(t.Faults, Fault{Peer: o.Sender, Hand: 1, Kind: FaultUnverifiable, Reason: "joined late: hand 1's nonce does not open its commitment, so the seats are unknown"})
				return false
			}
			nonces[o.Sender] = r.Nonce
		}
	}
	for _, p := range t.Peers {
		if nonces[p] == nil {
			t.Faults = append(t.Faults, Fault{Peer: p, Hand: 1, Kind: FaultIncomplete, Reason: "joined late without hand 1's nonce of every player: the seats are unknown"})
			return false
		}
	}
	t.Seats = seating(handSeed(gameID, 1, nonces), t.Peers)
	votes := map[string]int{}
	var deal game.Deal
	best := 0
	for _, o := range next {
		c := o.Entry.GetNonceCommit()
		if c == nil || int(c.Oya) >= t.Players || len(c.Scores) > maxSeats {
			continue
		}
		key := fmt.Sprint(c.Oya, c.Round, c.Honba, c.Kyotaku, c.Scores)
		if votes[key]++; votes[key] > best {
			best = votes[key]
			deal = game.Deal{Oya: game.Seat(c.Oya), Round: int(c.Round), Honba: int(c.Honba), Kyotaku: int(c.Kyotaku)}
			for i, s := range c.Scores {
				deal.Scores[i] = int(s)
			}
		}
	}
	if best == 0 {
		t.Faults = append(t.Faults, Fault{Hand: int(n), Kind: FaultIncomplete, Reason: fmt.Sprintf("joined late at hand %d without its nonce commitments: the match state is unknown", n)})
		return false
	}
	match.Resync(deal)
	t.Joined = int(n)
	return true
}

// byHand splits a game's entries (after the Hellos) by hand number, in
// ascending hand order, each hand's entries in transcript order: with the
// pipelined setup a hand's passes are interleaved with the hand before.
func byHand(entries []*Opened) [][]*Opened {
	m := map[uint32][]*Opened{}
	for _, o := range entries {
		m[o.Entry.Hand] = append(m[o.Entry.Hand], o)
	}
	var out [][]*Opened
	for _, n := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[n])
	}
	return out
}

// onlyPasses reports whether a hand's entries are all shuffle and rekey
// passes: a hand prepared (pipelined setup) and never started.
func onlyPasses(hand []*Opened) bool {
	return !slices.ContainsFunc(hand, func(o *Opened) bool {
		return o.Entry.GetShuffle() == nil && o.Entry.GetRekey() == nil
	})
}

// dropped audits the prepared passes of hand n, which was never played
// (why says why), and records them as dropped: their inputs and proofs
// must hold all the same (a bad proof is blamed on its sender).
func (t *TranscriptAudit) dropped(gameID []byte, n uint32, hand []*Opened, rules game.Rules, tiles *commcrypto.TileTable, params *ProofParams, why string) {
	a := AuditHand(AuditInput{GameID: gameID, Peers: t.Peers, Seats: t.Seats, Hand: n, Rules: rules, Entries: hand, Tiles: tiles, Proofs: params.System(), ShuffleParams: params, RequireProofs: !t.NoProofs, Partial: true, Prepared: true})
	t.Blame = appendBlame(t.Blame, a.Blame...)
	t.Faults = appendFault(t.Faults, a.Faults...)
	t.Dropped = &DroppedPasses{Hand: int(n), Passes: len(hand), Reason: why}
}

// owner returns the peer that is the sender or the recipient of every
// private message among es, "" if there is none or no such peer.
func owner(es []*Opened) peer.ID {
	var cand []peer.ID
	for _, o := range es {
		if o.Recipient == "" {
			continue
		}
		pair := []peer.ID{o.Sender, o.Recipient}
		if cand == nil {
			cand = pair
			continue
		}
		cand = slices.DeleteFunc(cand, func(p peer.ID) bool { return !slices.Contains(pair, p) })
		if len(cand) == 0 {
			return ""
		}
	}
	if len(cand) != 1 {
		return ""
	}
	return cand[0]
}

// hellos checks the Hellos (one per player) agree and returns the game id. A Hello
// that disagrees with the others is a FaultConfig naming its sender; a
// transcript without all four is FaultIncomplete.
func (t *TranscriptAudit) hellos(hellos []*Opened) ([]byte, bool) {
	byPeer := map[peer.ID]*pb.Hello{}
	var order []peer.ID
	for _, o := range hellos {
		h := o.Entry.GetHello()
		if h == nil || o.Entry.Seq != 0 {
			t.Blame = appendBlame(t.Blame, blameOn(o.Sender, 0, BlameHello, evidenceOf(o), nil, "opened the game with a %s with seq %d, not a hello", o.Kind(), o.Entry.Seq).Blame)
			return nil, false
		}
		if err := validHello(h); errors.Is(err, settings.ErrUnknown) {
			t.Faults = append(t.Faults, Fault{Peer: o.Sender, Kind: FaultConfig, Reason: fmt.Sprintf("its hello asks for a game this program cannot play: %v", err)})
			return nil, false
		} else if err != nil {
			t.Blame = appendBlame(t.Blame, blameOn(o.Sender, 0, BlameHello, evidenceOf(o), err, "sent an invalid hello: %v", err).Blame)
			return nil, false
		}
		byPeer[o.Sender] = h
		order = append(order, o.Sender)
		t.Nicks[o.Sender] = h.Nick
	}
	if odd, ref, _ := oddHello(byPeer, order, t.Owner); odd != "" {
		t.Faults = append(t.Faults, Fault{Peer: odd, Kind: FaultConfig, Reason: fmt.Sprintf("its configuration differs from the table's: %v", checkHello(byPeer[odd], ref))})
		return nil, false
	}
	if len(hellos) == 0 {
		t.Faults = append(t.Faults, Fault{Kind: FaultIncomplete, Reason: "the transcript holds no hello: the game never started"})
		return nil, false
	}
	first := hellos[0].Entry.GetHello()
	if first.Version != Version {
		t.Faults = append(t.Faults, Fault{Kind: FaultVersion, Reason: fmt.Sprintf("the game was played under protocol version %q; this build audits %q", first.Version, Version)})
		return nil, false
	}
	nonces := map[peer.ID][]byte{}
	for _, raw := range first.Peers {
		p, err := peer.IDFromBytes(raw)
		if err != nil {
			t.Blame = appendBlame(t.Blame, blameOn(hellos[0].Sender, 0, BlameHello, evidenceOf(hellos[0]), err, "hello lists a bad peer ID: %v", err).Blame)
			return nil, false
		}
		t.Peers = append(t.Peers, p)
		if h, ok := byPeer[p]; ok {
			nonces[p] = h.Nonce
		}
	}
	t.Settings = helloSettings(first)
	t.Table, t.Length, t.HandsWanted, t.NoProofs, t.Players = first.Table, t.Settings.Length(), t.Settings.Hands, t.Settings.NoProofs, t.Settings.Players
	t.PrivateHands = t.Settings.PrivateHands
	t.Pipeline = first.Pipeline
	if len(nonces) != len(t.Peers) || len(hellos) != len(t.Peers) {
		var missing []string
		for _, p := range t.Peers {
			if _, ok := nonces[p]; !ok {
				missing = append(missing, p.String())
			}
		}
		t.Faults = append(t.Faults, Fault{Kind: FaultIncomplete, Reason: fmt.Sprintf("the transcript holds hellos from %d of %d players (none from %s): the game never started, or the file was cut short", len(nonces), len(t.Peers), strings.Join(missing, ", "))})
		return nil, false
	}
	return gameID(first.Table, t.Peers, nonces), true
}

// helloPeers returns the peers the first Hello lists (nil if none does).
func helloPeers(hellos []*Opened) []peer.ID {
	var out []peer.ID
	for _, o := range hellos {
		if h := o.Entry.GetHello(); h != nil {
			for _, raw := range h.Peers {
				if p, err := peer.IDFromBytes(raw); err == nil {
					out = append(out, p)
				}
			}
			return out
		}
	}
	return nil
}
