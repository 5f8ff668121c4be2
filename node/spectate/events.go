package spectate

import (
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/wall"
)

// EventLine says in one line what a public entry did at the table, for
// the terminal's view of a spectator (`mentalmj watch --events`): a
// player sitting down, a discard (dahai) or another turn with the tiles
// it shows, a call, a tenpai declaration, a key reveal, an abort. It
// returns "" for the entries of the setup (nonces, passes, key releases),
// which only the audit reads. Tiles are named as the entry claims them
// (Tenhou ids, red fives as 0m/0p/0s); the hand's audit after its key
// reveal checks every claim. name gives a player's display name.
func EventLine(o *protocol.Opened, name func(peer.ID) string) string {
	e := o.Entry
	who := name(o.Sender)
	switch {
	case e.GetHello() != nil:
		return fmt.Sprintf("%s sits at table %q", who, e.GetHello().Table)
	case e.GetTurn() != nil:
		t := e.GetTurn()
		kind := strings.ToLower(strings.TrimPrefix(t.Kind.String(), "TURN_"))
		line := fmt.Sprintf("hand %d: %s %s %s", e.Hand, who, kind, tiles(t.Shown))
		if t.Riichi {
			line += " (riichi)"
		}
		return strings.TrimSpace(line)
	case e.GetAnswer() != nil && e.GetAnswer().Kind != pb.AnswerKind_ANSWER_PASS:
		return fmt.Sprintf("hand %d: %s calls %s", e.Hand, who, strings.ToLower(strings.TrimPrefix(e.GetAnswer().Kind.String(), "ANSWER_")))
	case e.GetCall() != nil:
		c := e.GetCall()
		return strings.TrimSpace(fmt.Sprintf("hand %d: %s %s %s", e.Hand, who, strings.ToLower(strings.TrimPrefix(c.Kind.String(), "ANSWER_")), tiles(c.Shown)))
	case e.GetDeclare() != nil:
		if e.GetDeclare().Tenpai {
			return fmt.Sprintf("hand %d: %s tenpai %s", e.Hand, who, tiles(e.GetDeclare().Shown))
		}
		return fmt.Sprintf("hand %d: %s noten", e.Hand, who)
	case e.GetKeyReveal() != nil:
		return fmt.Sprintf("hand %d: %s reveals its keys", e.Hand, who)
	case e.GetAbort() != nil:
		return fmt.Sprintf("hand %d: %s aborts: %s", e.Hand, who, e.GetAbort().Reason)
	}
	return ""
}

// tiles names the tiles a Shown claims.
func tiles(sh *pb.Shown) string {
	var out []string
	for _, id := range sh.GetTiles() {
		if id < wall.NumTiles {
			out = append(out, wall.Tile(id).String())
		}
	}
	return strings.Join(out, " ")
}
