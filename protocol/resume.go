package protocol

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"golang.org/x/crypto/chacha20"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

// Resume is what a node restarted after a crash gives NewGame to pick its
// game up again (Config.Resume).
type Resume struct {
	// Records are the entries of the transcript the node wrote before it
	// stopped, in order (ReadTranscript of that file; a record cut short
	// by the crash is left out). The transcript to append to from there
	// is Config.Transcript, opened on the same file (OpenTranscript).
	Records []*Opened
}

// Check reports whether r can resume self's game with the table peers
// (this player included), before anything is sent: its first record must
// be self's Hello listing exactly these peers, every record must come from
// one of them, and self must not have ended that game with an Abort.
// Errors wrap ErrResumeMismatch and say which of these failed.
func (r *Resume) Check(self peer.ID, peers []peer.ID) error {
	_, err := newReplay(r, self, peers)
	return err
}

// ErrResumeMismatch is wrapped by NewGame's error when Config.Resume does
// not belong to the game Config describes (another table, other peers,
// another player's transcript), and by Run's when replaying it does not
// give back the entries it holds (another seed, or a changed program).
var ErrResumeMismatch = errors.New("the transcript to resume is not this game's")

// replay feeds a resumed game its own transcript: the entries it received,
// peer by peer, in place of the network, and the entries it sent in place
// of new ones, until every record is matched again.
type transcriptReplay struct {
	records []*Opened
	pos     int // records matched by Game.record
	self    peer.ID
	mine    []*Opened // own entries, in seq order
	minePos int
	recv    map[peer.ID][]*Opened // entries received from each peer, in order
}

// newReplay checks that r is a transcript of self's at the table peers
// (its first record is self's Hello listing exactly these peers) and
// splits it for the replay.
func newReplay(r *Resume, self peer.ID, peers []peer.ID) (*transcriptReplay, error) {
	if len(r.Records) == 0 {
		return nil, fmt.Errorf("protocol: resume: %w: the transcript is empty (start the game without --resume)", ErrResumeMismatch)
	}
	first := r.Records[0]
	h := first.Entry.GetHello()
	if h == nil || first.Sender != self {
		return nil, fmt.Errorf("protocol: resume: %w: its first record is a %s of %s, not this node's hello", ErrResumeMismatch, first.Kind(), first.Sender)
	}
	want := sortPeers(peers)
	if len(h.Peers) != len(want) {
		return nil, fmt.Errorf("protocol: resume: %w: it was a game of %d players, this table has %d", ErrResumeMismatch, len(h.Peers), len(want))
	}
	for i, p := range want {
		if string(h.Peers[i]) != string(p) {
			return nil, fmt.Errorf("protocol: resume: %w: it was played with other peers (%s is not at this table)", ErrResumeMismatch, p)
		}
	}
	rp := &transcriptReplay{records: r.Records, self: self, recv: map[peer.ID][]*Opened{}}
	for _, o := range r.Records {
		switch {
		case o.Entry.GetAbort() != nil && o.Sender == self:
			return nil, fmt.Errorf("protocol: resume: %w: this node ended that game (its transcript holds its Abort: %q)", ErrResumeMismatch, o.Entry.GetAbort().Reason)
		case o.Sender == self:
			rp.mine = append(rp.mine, o)
		case slices.Contains(peers, o.Sender):
			rp.recv[o.Sender] = append(rp.recv[o.Sender], o)
		default:
			return nil, fmt.Errorf("protocol: resume: %w: it holds an entry of %s, who is not at this table", ErrResumeMismatch, o.Sender)
		}
	}
	return rp, nil
}

// prime gives the links what the replayed transcript says was sent and
// received, so that the first Sync asks each peer for exactly what this
// node lacks and answers each peer's Sync from the outbox.
func (r *transcriptReplay) prime(l *links) {
	for _, box := range l.boxes {
		box.held = true
	}
	for _, o := range r.mine {
		for p, box := range l.boxes {
			if o.Recipient == "" || o.Recipient == p {
				box.outbox = append(box.outbox, sentEntry{o.Entry.Seq, o.Envelope})
			}
		}
	}
	for p, os := range r.recv {
		for _, o := range os {
			l.accepted(p, o.Entry.Seq)
		}
	}
	for _, o := range r.records {
		if len(o.Entry.GameId) > 0 {
			l.setGameID(o.Entry.GameId)
			break
		}
	}
}

// next returns the next recorded envelope received from peer p, if the
// replay has one left.
func (r *transcriptReplay) next(p peer.ID) ([]byte, bool) {
	q := r.recv[p]
	if len(q) == 0 {
		return nil, false
	}
	r.recv[p] = q[1:]
	return q[0].Envelope, true
}

// peekOwn returns the next recorded entry of this node's, if any.
func (r *transcriptReplay) peekOwn() *Opened {
	if r.minePos < len(r.mine) {
		return r.mine[r.minePos]
	}
	return nil
}

// own returns, in place of e (this node's next entry, its header filled
// in), the recorded entry with e's seq, if the replay has it. The
// recorded entry must say what e says, proofs aside (their nonces are
// fresh each time): a difference is ErrResumeMismatch.
func (r *transcriptReplay) own(e *pb.Entry) (*Opened, bool, error) {
	o := r.peekOwn()
	if o == nil || o.Entry.Seq != e.Seq {
		return nil, false, nil
	}
	r.minePos++
	if !sameButProofs(o.Entry, e) {
		return nil, false, fmt.Errorf("protocol: resume: %w: replaying gave another %s as message %d than the transcript holds (was the data directory's seed replaced?)", ErrResumeMismatch, kindOf(e), e.Seq)
	}
	return o, true, nil
}

// takeOwn returns the next recorded entry of this node's if it is of
// kind, for a decision replayed rather than asked of the Player again.
func (r *transcriptReplay) takeOwn(kind string) *Opened {
	o := r.peekOwn()
	if o == nil || o.Kind() != kind {
		return nil
	}
	r.minePos++
	return o
}

// sameButProofs compares two entries with their proofs left out.
func sameButProofs(a, b *pb.Entry) bool {
	strip := func(e *pb.Entry) *pb.Entry {
		c := proto.Clone(e).(*pb.Entry)
		if s := c.GetShuffle(); s != nil {
			s.Proof = nil
		}
		if r := c.GetRekey(); r != nil {
			r.Proof = nil
		}
		return c
	}
	return proto.Equal(strip(a), strip(b))
}

// recorded matches o, about to be recorded, against the transcript: it
// reports done when o is a record the transcript already holds (not
// written again), and an ErrResumeMismatch if it holds another there.
func (r *transcriptReplay) recorded(o *Opened) (done bool, err error) {
	if r.pos >= len(r.records) {
		return false, nil
	}
	want := r.records[r.pos]
	if want.Hash != o.Hash {
		return false, fmt.Errorf("protocol: resume: %w: record %d is a %s of %s, the replay reached a %s of %s", ErrResumeMismatch, r.pos+1, want.Kind(), want.Sender, o.Kind(), o.Sender)
	}
	r.pos++
	return true, nil
}

// finished reports whether every record has been matched.
func (r *transcriptReplay) finished() bool { return r.pos >= len(r.records) }

// resumed ends the replay: from here on the game sends, records and asks
// its Player as usual.
func (g *Game) resumed() {
	g.log.Info("resumed: replayed the transcript, playing on", "records", len(g.replay.records), "seq", g.seq)
	g.replay = nil
}

// SeedSize is the length in bytes of a game seed (SeedRand).
const SeedSize = 32

// SeedRand returns the random source a resumable node gives Config.Rand:
// the ChaCha20 keystream (RFC 8439 §2.4, golang.org/x/crypto/chacha20)
// under the 32-byte secret seed, nonce zero. Every secret of the game —
// Hello and seat nonces, SRA keys, permutations, per-position keys — is
// read from it in the game's order, so a node restarted with the same seed
// (kept 0600 in its data directory before its first message) computes the
// very same secrets again, and nothing secret needs to be stored or sent
// twice. The stream is good for 256 GiB, far beyond a game. It panics only
// if seed is not SeedSize bytes (a programming error).
func SeedRand(seed []byte) io.Reader {
	c, err := chacha20.NewUnauthenticatedCipher(seed, make([]byte, chacha20.NonceSize))
	if err != nil {
		panic(fmt.Sprintf("protocol: SeedRand: %v", err))
	}
	return &keystream{c: c}
}

type keystream struct{ c *chacha20.Cipher }

func (k *keystream) Read(p []byte) (int, error) {
	clear(p)
	k.c.XORKeyStream(p, p)
	return len(p), nil
}

// replayHolds reports whether a resumed game's replay holds this node's
// next entry and it is of kind: the entry about to be made is then taken
// from the transcript (and, for a pass, its proof need not be made).
func (g *Game) replayHolds(kind string) bool {
	if g.replay == nil {
		return false
	}
	o := g.replay.peekOwn()
	return o != nil && o.Entry.Seq == g.seq && o.Kind() == kind
}
