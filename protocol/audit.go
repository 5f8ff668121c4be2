package protocol

import (
	"errors"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// AuditInput is what the end-of-hand audit needs: the game's identity and
// seating, and every entry of the hand one player saw, in the order it
// processed them.
type AuditInput struct {
	// GameID is the game id every entry must carry (32 bytes).
	GameID []byte
	// Peers are the table's peer IDs: four, or three when Rules are
	// three-player (sanma).
	Peers []peer.ID
	// Seats is the seat order fixed by hand 1; nil when auditing hand 1,
	// whose nonces fix it.
	Seats []peer.ID
	// Hand is the 1-based hand number.
	Hand uint32
	// Oya is the dealer's seat the players agreed on (0..3, 0..2 in sanma).
	Oya int
	// Entries are the hand's entries (signatures already verified).
	Entries []*Opened
	// Tiles is the table of tile points; nil builds one.
	Tiles *commcrypto.TileTable
	// Own, if not nil, holds the auditing player's own passes, which it
	// made itself and need not re-verify: its shuffle permutation carries
	// tile labels through its pass without scalar multiplications, and its
	// rekey pass and commitments are skipped. The offline audit leaves it
	// nil and verifies every pass.
	Own *OwnPasses
	// Deal is the match state the hand starts from (round, honba,
	// kyotaku, dealer, scores; haipai and dora are ignored), Rules the
	// match rules: the kyoku is replayed under them. Rules.Players also
	// fixes the table: 3 audits a sanma hand on the 108-tile wall
	// (wall.ThreePlayer), anything else a four-player hand on 136 tiles.
	Deal  game.Deal
	Rules game.Rules
	// ProofsVerified says the auditing node verified every pass's proof
	// when the pass arrived (the live audit of a table with proofs): the
	// audit then neither verifies the proofs again nor replays the passes.
	// The offline audit leaves it false and verifies every proof.
	ProofsVerified bool
	// Decoded, with ProofsVerified, holds what the live node decoded while
	// it verified the passes, so that the audit does not decode it again;
	// nil decodes everything from the entries.
	Decoded *DecodedPasses
	// RequireProofs says the table announced proofs in its Hellos: a
	// shuffle or rekey pass without its proof is blamed on its sender.
	RequireProofs bool
	// Proofs is the table's proof system (settings.ProofsLog, the default
	// for "", or settings.ProofsTW).
	Proofs string
	// ShuffleParams are the proof system's generators for the wall's
	// size (136 tiles, or 108 in sanma); nil (or params of another size
	// or system) builds them (about 10 ms) when a proof must be verified.
	ShuffleParams *ProofParams
	// Partial marks a hand that was aborted: Abort entries are expected,
	// the hand need not reach its exhaustive draw, and the audit checks
	// what the revealed keys allow.
	Partial bool
	// PrivateHands says the table announced private hands
	// (Hello.settings.private_hands): the key reveal holds only the keys of the
	// riichi checks the public engine left open, so the audit checks every
	// proof and every shown tile against the proven wall but decrypts only
	// the positions shown (see runPrivate).
	PrivateHands bool
	// Mine, in private-hands mode, holds the tiles the auditing player
	// decrypted for itself (its haipai and draws), by yama position: the
	// record (HandAudit.Record) is then its own view, every other tile
	// hidden. The offline audit leaves it nil: a transcript holds none of
	// its owner's own position keys, so its record shows only public tiles.
	Mine map[int]wall.Tile
	// Prepared audits only the shuffle and rekey passes of a hand
	// prepared during the hand before it (the pipelined setup, SPEC.md
	// §22) and never played: their headers, inputs and proofs, with Seats
	// from hand 1. Nothing else is expected.
	Prepared bool
}

// OwnPasses are the passes an auditing player made itself.
type OwnPasses struct {
	// Seat is the player's seat (0..3, 0..2 in sanma).
	Seat int
	// Perm is its shuffle permutation: output position i holds input
	// element Perm[i] (136 entries, 108 in sanma).
	Perm []int
}

// HandAudit is the audit's verdict on one hand.
type HandAudit struct {
	// Hand is the 1-based hand number.
	Hand int
	// Seats are the peer IDs in seat order (seat 0 = first East); nil if
	// the nonces did not check out.
	Seats []peer.ID
	// Oya is the dealer's seat.
	Oya int
	// Deal is the match state the hand started from (round, honba,
	// kyotaku, dealer, scores).
	Deal game.Deal
	// Dice are the two dice, 0-based.
	Dice [2]int
	// DoraIndicator is the tile id of the first dora indicator (yama[5],
	// yama[9] in sanma), -1 if unknown.
	DoraIndicator int
	// Yama is the decrypted wall, 136 Tenhou tile ids (108 in sanma)
	// indexed as in docs/wall-layout.md §5; nil if it could not be decrypted.
	// In private-hands mode it holds only the positions shown to everyone
	// and -1 (game.Unknown) at every other position.
	Yama []int
	// PrivateHands says the hand was played in private-hands mode: the
	// wall was only partly revealed (Shown of its positions) and the
	// Tenhou wall model was not checked on the whole wall.
	PrivateHands bool
	// Shown is, in private-hands mode, the number of positions whose tile
	// was shown to everyone (the non-negative entries of Yama).
	Shown int
	// Events counts the tsumo and rinshan draws, player actions and public
	// decryptions replayed.
	Events int
	// Result is how the replayed kyoku ended; nil if it did not.
	Result *game.Result
	// TimedOut names, once per occurrence, the players whose node acted
	// for them after their decision timeout.
	TimedOut []peer.ID
	// Proven reports that every shuffle and rekey pass carried a proof
	// that verified (now or, for the live audit, on arrival), so the wall
	// was decrypted with the revealed keys without replaying the passes.
	Proven bool
	// Record is the hand as a Tenhou mjlog round, replayed with the whole
	// wall (in private-hands mode, with the auditing player's view of it:
	// tiles it never saw are mjlog.Hidden); nil if the audit failed.
	Record *mjlog.Round
	// Blame lists the players proven to have cheated, the first failing
	// check first, each with the signed entries that prove it; empty when
	// the hand is clean.
	Blame []Blame
	// Faults lists what the audit could not check and why, proving
	// nothing about intent: messages missing from an aborted or cut-short
	// hand, the Aborts' claims.
	Faults []Fault
}

// OK reports whether the audit found nothing wrong: no blame, no fault,
// and the whole wall decrypted.
func (a *HandAudit) OK() bool { return len(a.Blame) == 0 && len(a.Faults) == 0 && a.Yama != nil }

type auditor struct {
	in  AuditInput
	out *HandAudit

	// divergeAt is the first pass built on another pass than the one
	// held (passInputs); divergeFaulted records that its fault was given.
	divergeAt      int
	divergeFaulted bool

	byKind  map[string]map[peer.ID]*Opened // once-per-hand messages by sender
	ordered []*Opened                      // key releases and dahai in order
	seatOf  map[peer.ID]int

	// n is the number of players (3 or 4) and layout the wall layout,
	// both from the rules.
	n      int
	layout wall.Layout

	k       [maxSeats]commcrypto.Scalar
	r       [maxSeats][]commcrypto.Scalar
	deck    [maxSeats + 1][]commcrypto.Element
	labels  [maxSeats + 1][]wall.Tile // the tile each deck element encrypts
	wall    [maxSeats + 1][]commcrypto.Element
	commits [maxSeats][]commcrypto.Element
	yama    []wall.Tile
	// keyCommits[j] is K_j from seat j's verified shuffle pass.
	keyCommits [maxSeats]commcrypto.Element
}

// own reports whether seat j's passes are the auditor's own.
func (a *auditor) own(j int) bool { return a.in.Own != nil && a.in.Own.Seat == j }

// AuditHand re-verifies one hand from its entries alone, after the key
// reveal (docs/DESIGN.md "One hand", step 6):
//
//  1. every player committed to and revealed its nonce; they fix the seats
//     (hand 1) and the dice;
//  2. every player revealed a global key and 136 per-position keys (108
//     in sanma), each matching its commitment R = r·G;
//  3. each shuffle pass j is a permutation of k_j times the previous deck
//     (the first pass starts from the tile points of the layout's set:
//     136, or the 108 of wall.ThreePlayer without 2m-8m);
//  4. each rekey pass j multiplies position i by r_{j,i}·k_j⁻¹;
//  5. the wall decrypts to a permutation of the layout's tile set;
//  6. every key release matches the revealed keys and goes to the right
//     player for the right positions (haipai, tsumo, dora indicator), and
//     every dahai comes in turn from a position its player holds and shows
//     the tile the wall has there.
//
// The first player whose message fails a check is blamed first. AuditHand
// never panics on malformed entries; they are blamed on their sender.
func AuditHand(in AuditInput) *HandAudit {
	if in.Tiles == nil {
		in.Tiles = commcrypto.NewTileTable()
	}
	a := &auditor{in: in, out: &HandAudit{Hand: int(in.Hand), Oya: in.Oya, Deal: in.Deal, DoraIndicator: -1}, byKind: map[string]map[peer.ID]*Opened{}}
	a.n = rulesPlayers(in.Rules)
	a.layout = layoutFor(a.n)
	if in.ShuffleParams != nil && (in.ShuffleParams.N() != a.layout.Size || in.ShuffleParams.System() != proofSystem(in.Proofs)) {
		a.in.ShuffleParams = nil
	}
	if len(in.Peers) != a.n || in.Seats != nil && len(in.Seats) != a.n {
		a.fault("", FaultLocal, "the table has %d peers and %d seats, the %d-player rules want %d", len(in.Peers), len(in.Seats), a.n, a.n)
		return a.out
	}
	a.run()
	return a.out
}

// blame records a blame of kind on the signer of the entries os (all signed by
// the same player, at least one).
func (a *auditor) blame(kind BlameKind, os []*Opened, format string, args ...any) {
	os = slices.DeleteFunc(os, func(o *Opened) bool { return o == nil })
	if len(os) == 0 {
		a.fault("", FaultLocal, "a check failed with no signed entry to show for it: "+format, args...)
		return
	}
	a.out.Blame = appendBlame(a.out.Blame, blameOn(os[0].Sender, a.in.Hand, kind, evidenceOf(os...), nil, format, args...).Blame)
}

// fault records a fault concerning p ("" for none).
func (a *auditor) fault(p peer.ID, kind FaultKind, format string, args ...any) {
	a.out.Faults = appendFault(a.out.Faults, faultf(p, a.in.Hand, kind, nil, format, args...).Fault)
}

// entries is shorthand for a list of signed entries as evidence.
func entries(os ...*Opened) []*Opened { return os }

func (a *auditor) run() {
	if a.in.Prepared {
		if a.collect() {
			a.passesOnly()
		}
		return
	}
	if !a.collect() {
		return
	}
	if !a.nonces() {
		if a.in.Partial && len(a.out.Blame) == 0 {
			// A pipelined hand stopped before its nonces were all in:
			// its passes, prepared during the hand before, are still
			// checked.
			a.passesOnly()
		}
		return
	}
	if a.in.PrivateHands {
		a.runPrivate()
		return
	}
	// The proofs need no revealed key: they are checked first, so that a
	// bad pass is blamed even in a hand aborted before the key reveal.
	proven := a.proven()
	a.passInputs()
	if !a.verifyProofs() || !a.reveals() {
		return
	}
	if proven {
		if !a.decryptProven() {
			return
		}
	} else if !a.shuffles() || !a.rekeys() || !a.decryptWall() {
		return
	}
	a.kyoku()
	if len(a.out.Blame) == 0 {
		a.out.Yama = make([]int, len(a.yama))
		for i, t := range a.yama {
			a.out.Yama[i] = int(t)
		}
	}
}

// passesOnly audits the passes of a hand without its nonces: a hand
// prepared during the hand before it and never played
// (AuditInput.Prepared), or one stopped before its nonces were in. It
// checks their inputs and proofs, with Seats from hand 1 (nothing without
// them); there is no reveal and no kyoku to check.
func (a *auditor) passesOnly() {
	if a.in.Seats == nil {
		return
	}
	a.out.Seats = slices.Clone(a.in.Seats)
	a.seatOf = map[peer.ID]int{}
	for s, p := range a.in.Seats {
		a.seatOf[p] = s
	}
	a.passInputs()
	a.verifyProofs()
}

// collect sorts the entries by kind and checks their headers.
func (a *auditor) collect() bool {
	table := map[peer.ID]bool{}
	for _, p := range a.in.Peers {
		table[p] = true
	}
	ok, stopped := true, false
	for _, o := range a.in.Entries {
		e := o.Entry
		switch {
		case !table[o.Sender]:
			a.fault(o.Sender, FaultUnverifiable, "entry %d is signed by a peer not at the table", e.Seq)
			continue
		case string(e.GameId) != string(a.in.GameID):
			a.fault(o.Sender, FaultUnverifiable, "entry %d carries another game id", e.Seq)
			continue
		case e.Hand != a.in.Hand:
			a.fault(o.Sender, FaultUnverifiable, "entry %d is for hand %d", e.Seq, e.Hand)
			continue
		}
		switch e.Body.(type) {
		case *pb.Entry_KeyRelease, *pb.Entry_Turn, *pb.Entry_Answer, *pb.Entry_Call, *pb.Entry_Declare:
			// The transcript's owner stopped following the kyoku at the
			// first Abort it recorded (its own or another's); what others
			// sent after it, from states the owner never reached, is not
			// judged on its order.
			if !stopped {
				a.ordered = append(a.ordered, o)
			}
		case *pb.Entry_Abort:
			stopped = true
			a.out.Faults = appendFault(a.out.Faults, abortError(o, a.in.Peers).Fault)
		case *pb.Entry_Hello, nil:
			a.blame(BlameOutOfTurn, entries(o), "sent a %s inside hand %d", o.Kind(), a.in.Hand)
			ok = false
		default:
			m := a.byKind[o.Kind()]
			if m == nil {
				m = map[peer.ID]*Opened{}
				a.byKind[o.Kind()] = m
			}
			if prev, dup := m[o.Sender]; dup && !sameBody(prev, o) {
				a.blame(BlameEquivocation, entries(prev, o), "sent two different entries of kind %s (seq %d and %d)", o.Kind(), prev.Entry.Seq, e.Seq)
				ok = false
			}
			m[o.Sender] = o
		}
	}
	return ok
}

// need returns the once-per-hand message of kind from p. A missing one
// is never a blame — messages go missing when a hand is aborted, a node
// stops or a file is cut short — but in a hand that was not aborted it is
// a fault of the transcript: it ends before the hand does.
func (a *auditor) need(kind string, p peer.ID) *Opened {
	o := a.byKind[kind][p]
	if o == nil && !a.in.Partial {
		a.fault("", FaultIncomplete, "the transcript has no %s from %s: it ends before the hand does (the file was cut short, or its node stopped)", kind, p)
	}
	return o
}

func (a *auditor) nonces() bool {
	nonces := map[peer.ID][]byte{}
	for _, p := range sortPeers(a.in.Peers) {
		c, r := a.need("nonce commitment", p), a.need("nonce reveal", p)
		if c == nil || r == nil {
			return false
		}
		if err := checkHeader(c.Entry.GetNonceCommit(), a.in.Deal); err != nil {
			a.blame(BlameState, entries(c), "%v", err)
			return false
		}
		n := r.Entry.GetNonceReveal().Nonce
		if string(nonceCommitment(a.in.GameID, a.in.Hand, p, n)) != string(c.Entry.GetNonceCommit().Commitment) {
			a.blame(BlameDice, entries(c, r), "revealed a nonce that does not open its commitment")
			return false
		}
		nonces[p] = n
	}
	seed := handSeed(a.in.GameID, a.in.Hand, nonces)
	if a.in.Seats == nil {
		a.in.Seats = seating(seed, a.in.Peers)
	}
	a.out.Seats = slices.Clone(a.in.Seats)
	a.out.Dice = dice(seed)
	a.seatOf = map[peer.ID]int{}
	for s, p := range a.in.Seats {
		a.seatOf[p] = s
	}
	return true
}

// reveals decodes every player's revealed keys and checks the position
// keys against the commitments of its rekey pass.
func (a *auditor) reveals() bool {
	for j, p := range a.in.Seats {
		o := a.need("key reveal", p)
		rk := a.need("rekey pass", p)
		if o == nil || rk == nil {
			return false
		}
		kr := o.Entry.GetKeyReveal()
		k, err := commcrypto.DecodeScalar(kr.GlobalKey)
		if err != nil {
			a.blame(BlameKey, entries(o), "revealed a bad global key: %v", err)
			return false
		}
		r, err := decodeKeys(kr.PositionKeys, a.layout.Size)
		if err != nil {
			a.blame(BlameKey, entries(o), "revealed bad position keys: %v", err)
			return false
		}
		commits := a.commits[j] // decoded already when its proof was verified
		if commits == nil {
			if commits, err = commcrypto.DecodeElements(rk.Entry.GetRekey().Commitments, a.layout.Size); err != nil {
				a.blame(BlameRekey, entries(rk), "rekey pass has bad commitments: %v", err)
				return false
			}
		}
		if !a.own(j) {
			if err := commcrypto.CheckCommitments(r, commits); err != nil {
				a.blame(BlameKey, entries(rk, o), "revealed position keys do not match their commitments: %v", err)
				return false
			}
		}
		a.k[j], a.r[j], a.commits[j] = k, r, commits
	}
	return true
}

// shuffles replays each shuffle pass: the deck a player published must be
// a permutation of its global key times the deck it received. The replay
// carries each element's tile label (starting from the tile points of the
// layout's set: T_0..T_135, or the 108 of sanma), so that after the rekey replay the wall is known without
// further decryption.
func (a *auditor) shuffles() bool {
	a.deck[0] = deckPoints(a.in.Tiles, a.layout)
	a.labels[0] = a.layout.Set()
	for j, p := range a.in.Seats {
		if a.diverged(j) {
			return false
		}
		o := a.need("shuffle pass", p)
		if o == nil {
			return false
		}
		next, err := commcrypto.DecodeElements(o.Entry.GetShuffle().Deck, a.layout.Size)
		if err != nil {
			a.blame(BlameShuffle, entries(o), "shuffle pass does not decode: %v", err)
			return false
		}
		labels := make([]wall.Tile, len(next))
		if a.own(j) && len(a.in.Own.Perm) == len(next) {
			for i, src := range a.in.Own.Perm {
				labels[i] = a.labels[j][src]
			}
		} else {
			want := make(map[[commcrypto.ElementSize]byte]wall.Tile, len(next))
			for i, e := range commcrypto.LockAll(a.k[j], a.deck[j]) {
				want[e.Key()] = a.labels[j][i]
			}
			for i, e := range next {
				t, ok := want[e.Key()]
				if !ok {
					a.blame(BlameShuffle, entries(o, a.byKind["key reveal"][p]), "shuffle pass is not a permutation of the deck it received under its revealed key (position %d is no locked tile: a tile was replaced, dropped or duplicated)", i)
					return false
				}
				delete(want, e.Key())
				labels[i] = t
			}
		}
		a.deck[j+1], a.labels[j+1] = next, labels
	}
	return true
}

// rekeys replays each rekey pass position by position.
func (a *auditor) rekeys() bool {
	a.wall[0] = a.deck[a.n]
	for j, p := range a.in.Seats {
		if a.diverged(a.n + j) {
			return false
		}
		rk := a.byKind["rekey pass"][p]
		next, err := commcrypto.DecodeElements(rk.Entry.GetRekey().Wall, a.layout.Size)
		if err != nil {
			a.blame(BlameRekey, entries(rk), "rekey pass does not decode: %v", err)
			return false
		}
		if a.own(j) {
			a.wall[j+1] = next
			continue
		}
		factors := commcrypto.RekeyFactors(a.r[j], a.k[j])
		for i := range next {
			if !commcrypto.Lock(factors[i], a.wall[j][i]).Equal(next[i]) {
				a.blame(BlameRekey, entries(rk, a.byKind["key reveal"][p]), "rekey pass at position %d is not r·k⁻¹ times the wall it received under its revealed keys", i)
				return false
			}
		}
		a.wall[j+1] = next
	}
	return true
}

// decryptWall reads the wall off the replay: the rekey replay showed
// C_i = (Π_j r_{j,i})·(Π_j k_j)⁻¹·D_i for every position, and the shuffle
// replay labelled D_i with its tile, so decrypting C_i with the revealed
// keys yields exactly that tile.
func (a *auditor) decryptWall() bool {
	a.yama = a.labels[a.n]
	if err := a.layout.CheckPermutation(a.yama); err != nil {
		a.fault("", FaultLocal, "decrypted wall is not a permutation of the tiles: %v", err)
		return false
	}
	a.out.DoraIndicator = int(a.yama[a.layout.DoraIndicatorIndex(0)])
	return true
}

// kyoku replays the kyoku from the entries under the rules engine, as the
// players' public engines saw it, and checks every key release against
// the revealed keys and the layout: a private release must be its
// recipient's haipai or one of its draws, a public one a dora or ura-dora
// indicator due at that moment. Once the kyoku is over, every tile of the
// decrypted wall is revealed to the engine so that the checks it had to
// defer (riichi on a tenpai hand, a noten claim, a riichi ankan keeping
// the waits) are decided.
func (a *auditor) kyoku() {
	l := a.layout
	d := a.in.Deal
	d.Haipai = hiddenHaipai(a.n)
	d.DoraIndicator = a.yama[l.DoraIndicatorIndex(0)]
	k, err := game.NewKyoku(a.in.Rules, d)
	if err != nil {
		a.fault("", FaultLocal, "cannot start the kyoku: %v", err)
		return
	}
	open, check := a.openShown, a.checkKey
	if a.in.PrivateHands {
		open, check = a.openShownPrivate, a.checkCommit
	}
	t := newTracker(k, a.in.Hand, a.in.Seats, open, check)
	type release struct {
		o         *Opened
		to        int
		positions []int
	}
	var private []release
	started := false
	for _, o := range a.ordered {
		s := a.seatOf[o.Sender]
		kr := o.Entry.GetKeyRelease()
		if kr == nil {
			started = true
			if err := t.feed(o); err != nil {
				a.blameErr(err)
				return
			}
			continue
		}
		keys, err := decodeKeys(kr.Keys, len(kr.Positions))
		if err != nil {
			a.blame(BlameKey, entries(o), "key release with bad keys: %v", err)
			return
		}
		positions := make([]int, len(kr.Positions))
		for n, p := range kr.Positions {
			if a.in.PrivateHands && p < uint32(l.Size) {
				if err := a.checkCommit(s, int(p), keys[n]); err != nil {
					a.blame(BlameKey, entries(o, a.byKind["rekey pass"][o.Sender]), "released a key for position %d that fails its commitment: %v", p, err)
					return
				}
			} else if p >= uint32(l.Size) || !keys[n].Equal(a.r[s][p]) {
				a.blame(BlameKey, entries(o, a.byKind["key reveal"][o.Sender]), "released a key for position %d that differs from its revealed key", p)
				return
			}
			positions[n] = int(p)
		}
		switch {
		case o.Recipient != "":
			q, ok := a.seatOf[o.Recipient]
			if !ok || q == s {
				a.blame(BlameKey, entries(o), "sent a key release to %s", o.Recipient)
				return
			}
			private = append(private, release{o, q, positions})
		case !started:
			// The dora indicator, decrypted in public before play.
			if !slices.Equal(positions, []int{l.DoraIndicatorIndex(0)}) {
				a.blame(BlameKey, entries(o), "published keys for positions %v before play, not the dora indicator", positions)
				return
			}
			if a.in.PrivateHands && !a.privateDora(o, s, positions[0], keys[0], k) {
				return
			}
		default:
			if err := t.feed(o); err != nil {
				a.blameErr(err)
				return
			}
		}
	}
	a.out.Events = t.events + 1
	for _, s := range t.timedOut {
		a.out.TimedOut = append(a.out.TimedOut, a.in.Seats[s])
	}
	if k.Phase() != game.PhaseEnd {
		if !a.in.Partial {
			a.fault("", FaultIncomplete, "the kyoku did not reach its end (it waits for a %s): the transcript ends before the hand does", k.Phase())
		}
		return
	}
	for _, p := range private {
		if slices.Equal(p.positions, dealPositions(l, a.in.Oya, p.to)) {
			continue
		}
		if len(p.positions) == 1 {
			if drawer, ok := t.draws[p.positions[0]]; ok && int(drawer) == p.to {
				continue
			}
		}
		a.blame(BlameKey, entries(p.o), "sent seat %d keys for positions %v, which are not its haipai or one of its draws", p.to, p.positions)
	}
	if a.in.PrivateHands && !a.privateReveals(k) {
		return
	}
	for pos, tile := range a.yama {
		if tile == game.Unknown {
			continue // private hands: never shown
		}
		if err := k.Reveal(pos, tile); err != nil {
			a.fault("", FaultLocal, "the decrypted wall contradicts the kyoku at position %d: %v", pos, err)
			return
		}
	}
	if err := k.Recheck(); err != nil {
		a.blameErr(err)
	}
	a.out.Result = k.Result()
	if len(a.out.Blame) == 0 {
		yama := a.yama
		if a.in.PrivateHands {
			yama = a.viewYama()
		}
		round, err := recordKyoku(a.in.Rules, a.in.Deal, yama, a.out.Dice, t.steps, k.Result())
		if err != nil {
			a.fault("", FaultLocal, "%v", err)
			return
		}
		a.out.Record = &round
	}
}

// openShown is the audit's check of a shown tile: every player's key must
// be the revealed one; the tile is then the decrypted wall's.
func (a *auditor) openShown(st shownTile) (wall.Tile, error) {
	for j, k := range st.keys {
		if err := a.checkKey(j, st.pos, k); err != nil {
			return -1, err
		}
	}
	return a.yama[st.pos], nil
}

func (a *auditor) checkKey(seat, pos int, key commcrypto.Scalar) error {
	if !key.Equal(a.r[seat][pos]) {
		return fmt.Errorf("key of seat %d for position %d differs from the one it revealed", seat, pos)
	}
	return nil
}

// blameErr records err's verdict: a *BlameError its blame; a
// *game.CheckError (a rule the engine could only check once the hidden
// tiles were revealed) a blame of its seat, with the seat's signed
// declarations and key reveal as evidence; anything else a fault of the
// audit itself.
func (a *auditor) blameErr(err error) {
	var be *BlameError
	if errors.As(err, &be) {
		a.out.Blame = appendBlame(a.out.Blame, be.Blame)
		return
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var ce *game.CheckError
		if errors.As(e, &ce) && ce.Seat.Valid() {
			a.blame(BlameIllegal, a.declarations(a.in.Seats[ce.Seat]), "%v", ce)
			continue
		}
		a.fault("", FaultLocal, "%v", e)
	}
}

// declarations returns p's signed entries that a deferred rule check
// rests on: its riichi dahai, its tenpai declaration and its key reveal.
func (a *auditor) declarations(p peer.ID) []*Opened {
	var out []*Opened
	for _, o := range a.ordered {
		if o.Sender == p && (o.Entry.GetTurn().GetRiichi() || o.Entry.GetDeclare() != nil || o.Entry.GetTurn().GetKind() == pb.TurnKind_TURN_ANKAN) {
			out = append(out, o)
		}
	}
	if r := a.byKind["key reveal"][p]; r != nil {
		out = append(out, r)
	}
	return out
}

// sameBody reports whether two entries carry the same message, whatever
// their headers (sequence number, hash chain).
func sameBody(a, b *Opened) bool {
	x, y := proto.Clone(a.Entry).(*pb.Entry), proto.Clone(b.Entry).(*pb.Entry)
	x.Seq, x.PrevHash, y.Seq, y.PrevHash = 0, nil, 0, nil
	return proto.Equal(x, y)
}

// passInputs finds the first shuffle or rekey pass (index q: shuffle
// passes 0..n-1, then rekey passes n..2n-1, n the number of players) that
// names as its input another pass than the previous one this transcript
// holds, and sets divergeAt to it (2n when none). Passes from there on are not judged — their checks
// would run against an input their sender never had — and the hand gets
// a FaultDiverged instead (see diverged).
func (a *auditor) passInputs() bool {
	var last []byte
	a.divergeAt = 2 * a.n
	for q := 0; q < 2*a.n; q++ {
		kind, p := "shuffle pass", a.in.Seats[q%a.n]
		if q >= a.n {
			kind = "rekey pass"
		}
		o := a.byKind[kind][p]
		if o == nil {
			return true // a missing pass: the checks that need it say so
		}
		input := o.Entry.GetShuffle().GetInput()
		if kind == "rekey pass" {
			input = o.Entry.GetRekey().GetInput()
		}
		if string(input) != string(last) {
			a.divergeAt = q
			return true
		}
		last = o.Hash[:]
	}
	return true
}

// diverged reports whether pass q (as in passInputs) is at or after the
// first divergence, recording the fault once.
func (a *auditor) diverged(q int) bool {
	if q < a.divergeAt {
		return false
	}
	if !a.divergeFaulted {
		a.divergeFaulted = true
		kind, p := "shuffle pass", a.in.Seats[a.divergeAt%a.n]
		if a.divergeAt >= a.n {
			kind = "rekey pass"
		}
		a.fault("", FaultDiverged, "the %s of %s builds on another pass than the one this transcript holds: the previous player may have signed two passes; compare the players' transcripts", kind, p)
	}
	return true
}
