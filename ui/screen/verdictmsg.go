package screen

import (
	"encoding/hex"
	"math"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// A blame or a fault is said from its typed kind and fields, not from the
// protocol's English reason: the kind in the player's words ("blame.kind."
// and "fault.kind." + the kind, Tenhou's 回線切断 for a lost connection),
// then what the player can act on (whose entry the table waited for, how
// long) from the fields. The protocol's reason stays only where it is a
// detail a player cannot act on (which pass, which position, which
// check), after the kind: "鍵の不正（key for position 40 fails its
// commitment）", "bad key: key for position 40 fails its commitment".

// BlameReasonMsg says what blame b proves: its kind in the view's
// language, then the protocol's reason (a technical detail). A blame
// without a kind (one made before kinds existed) is "cheating" and its
// reason.
func BlameReasonMsg(b protocol.Blame) i18n.Msg {
	kind := i18n.M("blame.kind")
	if b.Kind != "" && i18n.English().Has("blame.kind."+string(b.Kind)) {
		kind = i18n.M("blame.kind." + string(b.Kind))
	}
	return i18n.M("verdict.detail", kind, b.Reason)
}

// FaultReasonMsg says what fault f is: its kind in the view's language
// and, for a silence or a lost connection this node saw, the entry it
// waited for (f.Want, an entry kind said by EntryMsg) and how long
// (f.Wait, in whole seconds); for other kinds, the kind and the
// protocol's reason as a detail. A quit is its kind alone.
func FaultReasonMsg(f protocol.Fault) i18n.Msg {
	kind := i18n.M("fault.kind")
	if i18n.English().Has("fault.kind." + string(f.Kind)) {
		kind = i18n.M("fault.kind." + string(f.Kind))
	}
	secs := seconds(f.Wait)
	switch f.Kind {
	case protocol.FaultSilence:
		if f.Want != "" {
			return i18n.M("fault.silence.want", EntryMsg(f.Want), secs)
		}
		if f.Wait > 0 {
			return i18n.M("fault.silence.wait", secs)
		}
	case protocol.FaultConnection:
		switch {
		case f.Want != "":
			return i18n.M("fault.connection.want", EntryMsg(f.Want))
		case f.Wait > 0:
			return i18n.M("fault.connection.wait", secs)
		}
		return kind
	case protocol.FaultQuit:
		return kind
	}
	if f.Reason == "" {
		return kind
	}
	return i18n.M("verdict.detail", kind, f.Reason)
}

// EntryMsg says an entry kind (protocol.Opened.Kind's words: "shuffle
// pass", "turn", …) in the view's language ("entry." + the kind); a kind
// the catalogue lacks is returned as is.
func EntryMsg(kind string) any {
	if i18n.English().Has("entry." + kind) {
		return i18n.M("entry." + kind)
	}
	return kind
}

// EvidenceMsg says one signed entry a blame rests on: its kind (EntryMsg),
// its sender's sequence number and the first 6 bytes of its hash in hex
// (as protocol.Evidence.String gives them).
func EvidenceMsg(e protocol.Evidence) i18n.Msg {
	return i18n.M("verdict.evidence", EntryMsg(e.Kind), int(e.Seq), hex.EncodeToString(e.Hash[:6]))
}

// whoMsg names peer p as names does its seat (nickname and wind), or by
// the end of its ID when p is not seated.
func whoMsg(p peer.ID, names Names) any {
	for s, q := range names.Seats {
		if q == p {
			return names.NameMsg(game.Seat(s))
		}
	}
	return ShortID(p)
}

// BlameMsg says blame b in one line for a hand's audit: the hand, the
// player (as names names it) and BlameReasonMsg.
func BlameMsg(b protocol.Blame, names Names) i18n.Msg {
	return i18n.M("verdict.blame", b.Hand, whoMsg(b.Peer, names), BlameReasonMsg(b))
}

// FaultLineMsg says fault f in one line for a hand's audit: the hand, the
// player concerned if any, and FaultReasonMsg.
func FaultLineMsg(f protocol.Fault, names Names) i18n.Msg {
	if f.Peer == "" {
		return i18n.M("verdict.fault.hand", f.Hand, FaultReasonMsg(f))
	}
	return i18n.M("verdict.fault", f.Hand, whoMsg(f.Peer, names), FaultReasonMsg(f))
}

// seconds is d in whole seconds, rounded.
func seconds(d time.Duration) int { return int(math.Round(d.Seconds())) }
