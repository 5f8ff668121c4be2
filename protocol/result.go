package protocol

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// A finished match ends with a result certificate (SPEC.md §23): every
// player builds the same Result from the Hellos and the audited hands —
// table, game id, settings, each player's peer ID, nickname, final score,
// placement and points, and the head of each player's hash chain (its
// last key reveal) — signs it with its libp2p key, and sends the
// signature to the others in a ResultSign control message. A Certificate
// holds the Result's bytes and every player's signature; it is kept in a
// .cert file beside the game's records and read by the league
// (stats/league). Signatures prove that the players' keys signed this
// result; they do not prove that the keys belong to different people.

// resultContext is the domain of a result signature.
const resultContext = "mentalmj/v1/result\x00"

// MaxCertificateSize bounds a certificate (a .cert file) in bytes; a
// four-player certificate takes about 700.
const MaxCertificateSize = 16 << 10

// resultSignedBytes is what a ResultSign signs: resultContext ‖ result ‖
// BE64(ended_ms).
func resultSignedBytes(result []byte, endedMs int64) []byte {
	b := append([]byte(resultContext), result...)
	return binary.BigEndian.AppendUint64(b, uint64(endedMs))
}

// SignResult signs the serialized Result result with priv at ended (its
// millisecond in Unix time is signed with it) and returns the ResultSign.
// It returns the key's error, if any.
func SignResult(priv crypto.PrivKey, result []byte, ended time.Time) (*pb.ResultSign, error) {
	ms := ended.UnixMilli()
	sig, err := priv.Sign(resultSignedBytes(result, ms))
	if err != nil {
		return nil, fmt.Errorf("sign result: %w", err)
	}
	return &pb.ResultSign{Signature: sig, EndedMs: ms}, nil
}

// VerifyResultSign checks that s is p's signature over the serialized
// Result result. It returns an error naming p when p's ID embeds no public
// key or the signature does not verify (wrapping ErrSignature).
func VerifyResultSign(p peer.ID, result []byte, s *pb.ResultSign) error {
	pub, err := p.ExtractPublicKey()
	if err != nil {
		return fmt.Errorf("%s: no public key in peer ID: %w", p, err)
	}
	if s.GetEndedMs() <= 0 {
		return fmt.Errorf("%s: result signature without an end time", p)
	}
	ok, err := pub.Verify(resultSignedBytes(result, s.GetEndedMs()), s.GetSignature())
	if err != nil || !ok {
		return fmt.Errorf("%s: result: %w", p, ErrSignature)
	}
	return nil
}

// Certified is a certificate that CheckCertificate verified: its Result
// decoded, with the players' peer IDs and the time the game ended.
type Certified struct {
	// Result is the signed result; Bytes its serialization as signed.
	Result *pb.Result
	Bytes  []byte
	// Settings are Result.Settings, decoded.
	Settings settings.Settings
	// Peers are the players' peer IDs in seat order (three or four).
	Peers []peer.ID
	// Ended is the median (the lower one for an even count) of the
	// signers' end times.
	Ended time.Time
}

// CheckCertificate decodes the certificate b (the bytes of a .cert file,
// at most MaxCertificateSize) and verifies it: DecodeCertificate's checks,
// then every player's signature (VerifyResultSign, crypto/ed25519's
// RFC 8032 verification through libp2p). The error names what is wrong; a
// signature that does not verify wraps ErrSignature. It never panics on
// bad input.
func CheckCertificate(b []byte) (*Certified, error) {
	c, sigs, err := DecodeCertificate(b)
	if err != nil {
		return nil, err
	}
	for i, s := range sigs {
		if err := VerifyResultSign(s.Peer, c.Bytes, s.Sign); err != nil {
			return nil, fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return c, nil
}

// ResultSignature is one player's signature in a certificate, not yet
// verified: the signer, its ResultSign, and the exact bytes it signs
// (resultContext ‖ Result ‖ BE64(ended_ms), SPEC.md §23), for a verifier
// that checks many signatures at once (stats/league's batch).
type ResultSignature struct {
	Peer   peer.ID
	Sign   *pb.ResultSign
	Signed []byte
}

// DecodeCertificate decodes the certificate b (the bytes of a .cert file,
// at most MaxCertificateSize) and checks everything but the signatures
// themselves: the Result decodes, names this protocol version, a 32-byte
// game id, settings this build knows, as many distinct players as the
// settings say, each with a valid peer ID, a nickname of at most 64 bytes
// and a 32-byte chain head, placements 1..n ordered by score and points
// that sum to 0; and it carries exactly one signature per player, in seat
// order, each with an end time. It returns the certificate and the
// signatures to verify, in seat order; the Certified is trustworthy only
// once every one has verified (CheckCertificate does both). The error
// names what is wrong. It never panics on bad input.
func DecodeCertificate(b []byte) (*Certified, []ResultSignature, error) {
	if len(b) > MaxCertificateSize {
		return nil, nil, fmt.Errorf("certificate of %d bytes, at most %d", len(b), MaxCertificateSize)
	}
	var c pb.Certificate
	if err := proto.Unmarshal(b, &c); err != nil {
		return nil, nil, fmt.Errorf("decode certificate: %w", err)
	}
	var r pb.Result
	if err := proto.Unmarshal(c.Result, &r); err != nil {
		return nil, nil, fmt.Errorf("decode result: %w", err)
	}
	s, peers, err := checkResult(&r)
	if err != nil {
		return nil, nil, err
	}
	if len(c.Signatures) != len(peers) {
		return nil, nil, fmt.Errorf("partial: %d signatures for %d players", len(c.Signatures), len(peers))
	}
	ended := make([]int64, len(peers))
	sigs := make([]ResultSignature, len(peers))
	for i, p := range peers {
		sg := c.Signatures[i]
		if sg.GetEndedMs() <= 0 {
			return nil, nil, fmt.Errorf("seat %d: %s: result signature without an end time", i, p)
		}
		ended[i] = sg.EndedMs
		sigs[i] = ResultSignature{Peer: p, Sign: sg, Signed: resultSignedBytes(c.Result, sg.EndedMs)}
	}
	slices.Sort(ended)
	return &Certified{Result: &r, Bytes: c.Result, Settings: s, Peers: peers, Ended: time.UnixMilli(ended[(len(ended)-1)/2])}, sigs, nil
}

// checkResult checks the fields of a Result (see CheckCertificate) and
// returns its settings and the players' peer IDs in seat order.
func checkResult(r *pb.Result) (settings.Settings, []peer.ID, error) {
	if r.Version != Version {
		return settings.Settings{}, nil, fmt.Errorf("result of protocol version %q, want %q", r.Version, Version)
	}
	if len(r.GameId) != 32 {
		return settings.Settings{}, nil, fmt.Errorf("game id of %d bytes, want 32", len(r.GameId))
	}
	s, err := settings.FromProto(r.Settings)
	if err != nil {
		return settings.Settings{}, nil, fmt.Errorf("settings: %w", err)
	}
	if len(r.Players) != s.Players {
		return settings.Settings{}, nil, fmt.Errorf("%d players for a %d-player game", len(r.Players), s.Players)
	}
	peers := make([]peer.ID, len(r.Players))
	placed := make([]*pb.ResultPlayer, len(r.Players))
	sum := 0
	for i, pl := range r.Players {
		p, err := peer.IDFromBytes(pl.Peer)
		if err != nil {
			return settings.Settings{}, nil, fmt.Errorf("seat %d: peer: %w", i, err)
		}
		if slices.Contains(peers[:i], p) {
			return settings.Settings{}, nil, fmt.Errorf("seat %d: %s sits twice", i, p)
		}
		peers[i] = p
		switch {
		case len(pl.Nick) > 64:
			return settings.Settings{}, nil, fmt.Errorf("seat %d: nick of %d bytes, at most 64", i, len(pl.Nick))
		case len(pl.LastEntry) != 32:
			return settings.Settings{}, nil, fmt.Errorf("seat %d: last entry hash of %d bytes, want 32", i, len(pl.LastEntry))
		case pl.Placement < 1 || int(pl.Placement) > len(r.Players) || placed[pl.Placement-1] != nil:
			return settings.Settings{}, nil, fmt.Errorf("seat %d: placement %d is not one of 1..%d once each", i, pl.Placement, len(r.Players))
		}
		placed[pl.Placement-1] = pl
		sum += int(pl.Points)
	}
	if sum != 0 {
		return settings.Settings{}, nil, fmt.Errorf("points sum to %d tenths, want 0", sum)
	}
	for i := 1; i < len(placed); i++ {
		if placed[i].Score > placed[i-1].Score {
			return settings.Settings{}, nil, fmt.Errorf("placement %d has %d points, more than placement %d's %d", i+1, placed[i].Score, i, placed[i-1].Score)
		}
	}
	return s, peers, nil
}

// result builds this player's Result of the finished match: every
// player's line in seat order, its chain head the entry hash of its key
// reveal of the last hand (reveals), hands the number of hands played.
func (g *Game) result(hands int, reveals map[peer.ID][32]byte) (*pb.Result, error) {
	st := g.match.Standings()
	r := &pb.Result{Version: Version, Table: g.cfg.Table, GameId: g.gameID, Settings: g.settings().Proto(), Hands: uint32(hands)}
	place := make([]uint32, g.n)
	for i, s := range st.Order[:g.n] {
		place[s] = uint32(i + 1)
	}
	for s, p := range g.seats {
		head, ok := reveals[p]
		if !ok {
			return nil, fmt.Errorf("no key reveal of %s in the last hand", p)
		}
		r.Players = append(r.Players, &pb.ResultPlayer{Peer: []byte(p), Nick: g.nicks[p], Score: int32(st.Scores[s]),
			Placement: place[s], Points: int32(st.Points[s]), LastEntry: head[:]})
	}
	return r, nil
}

// certify signs the Result of the finished match, sends the signature to
// every other player and collects theirs, each checked against this
// player's own Result, within Config.Timeout. It returns the certificate,
// or an error naming a player whose signature did not come or does not
// verify (the players disagree on the result, or one is gone): a
// certificate with a missing signature is no certificate.
func (g *Game) certify(ctx context.Context, hand uint32, hands int, reveals map[peer.ID][32]byte) (*pb.Certificate, error) {
	r, err := g.result(hands, reveals)
	if err != nil {
		return nil, err
	}
	rb, err := proto.MarshalOptions{Deterministic: true}.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	mine, err := SignResult(g.cfg.Identity, rb, time.Now())
	if err != nil {
		return nil, err
	}
	g.sendResultSign(ctx, hand, mine)
	sigs := map[peer.ID]*pb.ResultSign{g.self: mine}
	deadline := time.Now().Add(g.cfg.Timeout)
	for _, p := range g.others {
		for {
			s, ok := g.links.resultSign(p)
			if ok {
				if err := VerifyResultSign(p, rb, s); err != nil {
					return nil, fmt.Errorf("%s signed another result than ours (or its signature is bad): %w", p, err)
				}
				sigs[p] = s
				break
			}
			if _, final := g.links.boxes[p].state(); final != nil {
				return nil, fmt.Errorf("%s left before it signed the result: %w", p, final)
			}
			wait := time.Until(deadline)
			if wait <= 0 {
				return nil, fmt.Errorf("%s did not sign the result within %s", p, g.cfg.Timeout)
			}
			timer := time.NewTimer(min(wait, 100*time.Millisecond))
			select {
			case <-g.links.watch():
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
				return nil, ctx.Err()
			}
			timer.Stop()
		}
	}
	c := &pb.Certificate{Result: rb}
	for _, p := range g.seats {
		c.Signatures = append(c.Signatures, sigs[p])
	}
	return c, nil
}

// sendResultSign sends this player's ResultSign to every other player as
// a control message (no chain fields, not recorded). Errors are logged:
// a peer that misses it makes no certificate, and the game is over either
// way.
func (g *Game) sendResultSign(ctx context.Context, hand uint32, s *pb.ResultSign) {
	l := g.links
	o, err := l.key(&pb.Entry{GameId: g.gameID, Hand: hand, Sender: []byte(g.self), Body: &pb.Entry_ResultSign{ResultSign: s}})
	if err != nil {
		l.log.Warn("cannot sign the result message", "err", err)
		return
	}
	for _, q := range g.others {
		if err := l.t.Send(ctx, q, o.Envelope); err != nil {
			l.log.Info("result signature not sent", "peer", q, "err", err)
		}
	}
}

// isResultSign reports whether b is a ResultSign, without verifying it.
func isResultSign(b []byte) bool {
	var env pb.Envelope
	var e pb.Entry
	return proto.Unmarshal(b, &env) == nil && proto.Unmarshal(env.Entry, &e) == nil && e.GetResultSign() != nil
}

// takeResultSign checks the envelope of a ResultSign that peer p
// delivered (signed by p, for this game, no chain fields, for the whole
// table) and keeps the first one as p's. The signature over the result
// is checked by certify, against this player's own result. A message that
// fails a check is logged and dropped.
func (l *links) takeResultSign(p peer.ID, b []byte) {
	o, err := Open(b)
	l.mu.Lock()
	switch {
	case err != nil:
	case o.Sender != p:
		err = fmt.Errorf("signed by %s, not by the peer that delivered it", o.Sender)
	case o.Recipient != "":
		err = errors.New("addressed to one player")
	case len(l.gameID) == 0 || !bytes.Equal(o.Entry.GameId, l.gameID):
		err = errors.New("for another game")
	case o.Entry.Seq != 0 || len(o.Entry.PrevHash) != 0:
		err = errors.New("has chain fields")
	}
	if err == nil {
		if l.results == nil {
			l.results = map[peer.ID]*pb.ResultSign{}
		}
		if _, ok := l.results[p]; !ok {
			l.results[p] = o.Entry.GetResultSign()
		}
	}
	l.mu.Unlock()
	if err != nil {
		l.log.Info("result signature dropped", "peer", p, "err", err)
		return
	}
	l.notify()
}

// resultSign returns peer p's ResultSign, once it came.
func (l *links) resultSign(p peer.ID) (*pb.ResultSign, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.results[p]
	return s, ok
}
