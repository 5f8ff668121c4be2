package commcrypto_test

import (
	"crypto/rand"
	"fmt"

	"github.com/mentalmj/mentalmj/commcrypto"
)

// Two players lock a tile, rekey it to position keys with commitments, and
// the owner decrypts it with the other player's checked key.
func Example() {
	tiles := commcrypto.NewTileTable()
	c := tiles.Point(42) // the plaintext point of tile 42

	// Shuffle passes: each player locks with its global key.
	k0, _ := commcrypto.NewKey(rand.Reader)
	k1, _ := commcrypto.NewKey(rand.Reader)
	c = commcrypto.Lock(k1, commcrypto.Lock(k0, c))

	// Rekey passes: each player swaps k_j for a position key r_j and
	// publishes R_j = r_j·G.
	r0, _ := commcrypto.NewKey(rand.Reader)
	r1, _ := commcrypto.NewKey(rand.Reader)
	R1 := commcrypto.Commit(r1)
	c = commcrypto.Lock(commcrypto.RekeyFactor(r0, k0), c)
	c = commcrypto.Lock(commcrypto.RekeyFactor(r1, k1), c)

	// Player 0 owns the position: player 1 sends r1, player 0 checks it.
	wire := r1.Bytes()
	got, err := commcrypto.DecodeScalar(wire)
	if err != nil {
		panic(err)
	}
	fmt.Println("commitment ok:", commcrypto.CheckCommitment(got, R1) == nil)
	id, ok := tiles.Lookup(commcrypto.Decrypt(c, r0, got))
	fmt.Println("tile:", id, ok)
	// Output:
	// commitment ok: true
	// tile: 42 true
}
