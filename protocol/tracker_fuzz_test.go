package protocol

import (
	"crypto/rand"
	"encoding/binary"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// FuzzTrackerFeed feeds arbitrary turn, answer, call, declare and key
// release entries from arbitrary seats to a kyoku's public state, with
// every shown tile "decrypting" to whatever the input says: a lying or
// broken peer can make the tracker reject its message, never panic.
func FuzzTrackerFeed(f *testing.F) {
	var seats []peer.ID
	for range Players {
		k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		id, _ := peer.IDFromPrivateKey(k)
		seats = append(seats, id)
	}
	seed := func(es ...*pb.Entry) []byte {
		var out []byte
		for i, e := range es {
			b, _ := proto.Marshal(e)
			out = append(out, byte(i%Players))
			out = binary.AppendUvarint(out, uint64(len(b)))
			out = append(out, b...)
		}
		return out
	}
	keys := make([]byte, 4*32)
	f.Add(seed(&pb.Entry{Body: &pb.Entry_Turn{Turn: &pb.Turn{Shown: &pb.Shown{Positions: []uint32{135}, Tiles: []uint32{7}, Keys: keys}}}}))
	f.Add(seed(&pb.Entry{Body: &pb.Entry_Turn{Turn: &pb.Turn{Kind: pb.TurnKind_TURN_TSUMO}}}, &pb.Entry{Body: &pb.Entry_Answer{Answer: &pb.Answer{Kind: pb.AnswerKind_ANSWER_RON}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		hidden := hiddenHaipai(4)
		k, err := game.NewKyoku(game.TenhouRules(true, true, true), game.Deal{Scores: [4]int{25000, 25000, 25000, 25000}, Haipai: hidden, DoraIndicator: 9})
		if err != nil {
			t.Fatal(err)
		}
		open := func(st shownTile) (wall.Tile, error) { return st.tile, nil }
		checkKey := func(int, int, commcrypto.Scalar) error { return nil }
		tr := newTracker(k, 1, seats, open, checkKey)
		for len(data) > 2 {
			seat := int(data[0]) % Players
			n, w := binary.Uvarint(data[1:])
			if w <= 0 || n > uint64(len(data)-1-w) {
				return
			}
			body := data[1+w : 1+w+int(n)]
			data = data[1+w+int(n):]
			var e pb.Entry
			if proto.Unmarshal(body, &e) != nil {
				continue
			}
			if st, _ := tr.next(); st == stepDraw {
				if tr.draw() != nil {
					return
				}
			}
			tr.feed(&Opened{Entry: &e, Sender: seats[seat]})
		}
	})
}
