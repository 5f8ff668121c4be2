package protocol

import (
	"fmt"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/wall"
)

// maxShown is the most positions one message may show: a whole concealed
// hand of 14 tiles.
const maxShown = 14

// shownTile is one tile opened by a Shown: its position, the tile its
// sender claims, and every player's key in seat order (four, or three in
// sanma).
type shownTile struct {
	pos  int
	tile wall.Tile
	keys []commcrypto.Scalar
}

// parseShown checks a Shown's shape for a table of n players and a wall
// of size tiles — at most 14 distinct positions in 0..size-1, a tile id in
// 0..135 for each, n canonical non-zero keys per position — and returns
// its tiles.
func parseShown(s *pb.Shown, n, size int) ([]shownTile, error) {
	if s == nil {
		return nil, nil
	}
	count := len(s.Positions)
	if count > maxShown || len(s.Tiles) != count {
		return nil, fmt.Errorf("shows %d positions and %d tiles (at most %d, equally many)", count, len(s.Tiles), maxShown)
	}
	keys, err := decodeKeys(s.Keys, count*n)
	if err != nil {
		return nil, fmt.Errorf("shown keys: %w", err)
	}
	out := make([]shownTile, count)
	seen := map[uint32]bool{}
	for i, p := range s.Positions {
		if p >= uint32(size) || s.Tiles[i] >= wall.NumTiles {
			return nil, fmt.Errorf("shows position %d as tile %d", p, s.Tiles[i])
		}
		if seen[p] {
			return nil, fmt.Errorf("shows position %d twice", p)
		}
		seen[p] = true
		out[i] = shownTile{pos: int(p), tile: wall.Tile(s.Tiles[i]), keys: keys[i*n : (i+1)*n]}
	}
	return out, nil
}

// buildShown opens positions of this player's hand: the tiles it holds
// there and every player's key of each.
func (h *hand) buildShown(positions []int) *pb.Shown {
	s := &pb.Shown{Keys: make([]byte, 0, len(positions)*h.n*commcrypto.ScalarSize)}
	for _, pos := range positions {
		s.Positions = append(s.Positions, uint32(pos))
		s.Tiles = append(s.Tiles, uint32(h.mine[pos]))
		for j := 0; j < h.n; j++ {
			s.Keys = append(s.Keys, h.keys[pos][j].Bytes()...)
		}
	}
	return s
}

// openShown is the live check of a shown tile: every key must match its
// commitment, and the keys must decrypt the position to the claimed tile.
func (h *hand) openShown(st shownTile) (wall.Tile, error) {
	for j, k := range st.keys {
		c, err := h.commitment(j, st.pos)
		if err != nil {
			return -1, err
		}
		if err := commcrypto.CheckCommitment(k, c); err != nil {
			return -1, fmt.Errorf("key of seat %d for position %d fails its commitment: %w", j, st.pos, err)
		}
		h.keys[st.pos][j] = k
	}
	return h.decrypt(st.pos)
}
