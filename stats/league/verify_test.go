package league

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// The batch verification of Load refuses exactly the files a second code
// path refuses: protocol.CheckCertificate, one file at a time with
// libp2p's (crypto/ed25519's) verification. 1,100 games (4,400
// signatures, more than one batch) among 8 players; a few have one
// signature's byte flipped, one is signed in a seat by a stranger, and a
// tampered file has a byte-for-byte copy, which is refused too.
func TestBatchAgreesWithCheckCertificate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ps := newPlayers(t, 8)
	stranger := newPlayers(t, 1)[0]
	rng := rand.New(rand.NewPCG(7, 11))
	end := time.Date(2026, 11, 1, 20, 0, 0, 0, time.UTC)
	const games = 1100
	tampered := map[int]bool{3: true, 500: true, 1024: true, 1099: true}
	var copied string
	for i := range games {
		perm := rng.Perm(len(ps))[:4]
		b := certify(t, []player{ps[perm[0]], ps[perm[1]], ps[perm[2]], ps[perm[3]]}, 0, []int{1, 2, 3, 4}, false, end, func(r *pb.Result) {
			r.GameId[1], r.GameId[2] = byte(i), byte(i>>8)
		})
		if tampered[i] {
			var c pb.Certificate
			if err := proto.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			seat := rng.IntN(4)
			if i == 500 {
				c.Signatures[seat], _ = protocol.SignResult(stranger.key, c.Result, end)
			} else {
				c.Signatures[seat].Signature[rng.IntN(64)] ^= 1 << rng.IntN(8)
			}
			b, _ = proto.Marshal(&c)
		}
		write(t, dir, fmt.Sprintf("g%04d.cert", i), b)
		if i == 1024 {
			copied = write(t, dir, "z-copy-of-1024.cert", b)
		}
	}
	got, err := Load([]string{dir})
	if len(got) != games-len(tampered) {
		t.Errorf("loaded %d games, want %d", len(got), games-len(tampered))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.cert"))
	for _, f := range files {
		b, rerr := os.ReadFile(f)
		if rerr != nil {
			t.Fatal(rerr)
		}
		_, single := protocol.CheckCertificate(b)
		named := err != nil && strings.Contains(err.Error(), f+":")
		if named != (single != nil) {
			t.Errorf("%s: Load refused it %v, CheckCertificate says %v", filepath.Base(f), named, single)
		}
	}
	if err == nil || !strings.Contains(err.Error(), copied+":") {
		t.Errorf("the copy of a tampered file is not refused: %v", err)
	}
	if !errors.Is(err, protocol.ErrSignature) {
		t.Errorf("error %v does not wrap ErrSignature", err)
	}
}
