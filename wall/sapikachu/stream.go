package sapikachu

import (
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/crypto/chacha20"
)

// maxBlocks bounds the keystream one shuffle may use. A shuffle needs
// about 9 blocks; rejection sampling only adds a block with probability
// below 2^-24, so reaching the bound means a broken generator.
const maxBlocks = 1 << 12

// errExhausted is returned when a shuffle would need more than maxBlocks.
var errExhausted = errors.New("sapikachu: keystream bound exceeded")

// stream yields the words of out = ChaCha20 keystream ⊕ GS (repeated).
type stream struct {
	c      *chacha20.Cipher
	gs     []byte
	block  [64]byte
	pos    int // bytes consumed from block
	k      int // stream bytes produced so far (for GS position)
	blocks int
}

// newStream keys ChaCha20 from seed as the package doc fixes: key
// seed[0:32], nonce seed[32:44], counter LE uint32(seed[44:48]) & 0x7fffffff.
// gs must be non-empty.
func newStream(seed *[SeedSize]byte, gs []byte) (*stream, error) {
	c, err := chacha20.NewUnauthenticatedCipher(seed[0:32], seed[32:44])
	if err != nil {
		return nil, fmt.Errorf("sapikachu: chacha20: %w", err)
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("gs: empty: %w", ErrInput)
	}
	c.SetCounter(binary.LittleEndian.Uint32(seed[44:48]) & 0x7fffffff)
	return &stream{c: c, gs: gs, pos: 64}, nil
}

// read fills p with output stream bytes.
func (s *stream) read(p []byte) error {
	for i := range p {
		if s.pos == len(s.block) {
			if s.blocks == maxBlocks {
				return errExhausted
			}
			clear(s.block[:])
			s.c.XORKeyStream(s.block[:], s.block[:])
			s.pos = 0
			s.blocks++
		}
		p[i] = s.block[s.pos] ^ s.gs[s.k%len(s.gs)]
		s.pos++
		s.k++
	}
	return nil
}

// word returns the next little-endian uint32 of the output stream.
func (s *stream) word() (uint32, error) {
	var b [4]byte
	if err := s.read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}
