package mt19937ar

// Parameters of MT19937 (mt19937ar.c): state size N, shift M, twist matrix
// constant and the masks for the most and least significant bits.
const (
	// StateWords is N = 624, the number of 32-bit words in the state.
	StateWords = 624
	shiftM     = 397
	matrixA    = 0x9908b0df
	upperMask  = 0x80000000
	lowerMask  = 0x7fffffff

	// DefaultSeed is the seed init_genrand(5489) used by mt19937ar.c when
	// genrand_int32 is called before any initialisation.
	DefaultSeed = 5489
	// arraySeed is the init_genrand seed that init_by_array starts from.
	arraySeed = 19650218
)

// MT is one MT19937 generator state: the 624-word state vector mt[] and the
// index mti of the next word to temper, as in mt19937ar.c. The zero value is
// usable and behaves like the C file before any init call: the first Uint32
// seeds it with init_genrand(5489).
type MT struct {
	mt  [StateWords]uint32
	mti int  // index of the next state word to temper; StateWords = twist first
	ok  bool // false until the first Init call (the C file's mti == N+1)
}

// New returns a generator seeded with init_genrand(seed) (mt19937ar.c).
func New(seed uint32) *MT {
	m := new(MT)
	m.InitGenrand(seed)
	return m
}

// NewByArray returns a generator seeded with init_by_array(key, len(key))
// (mt19937ar.c). key must be non-empty: the C code reads key[0] whatever
// the length, so an empty key panics (callers validate seeds first, see
// wall/tenhou.ParseSeed).
func NewByArray(key []uint32) *MT {
	m := new(MT)
	m.InitByArray(key)
	return m
}

// InitGenrand resets the state from one 32-bit seed, as init_genrand(s) in
// mt19937ar.c: mt[0] = s, mt[i] = 1812433253·(mt[i-1] ^ mt[i-1]>>30) + i
// (mod 2^32).
func (m *MT) InitGenrand(seed uint32) {
	m.mt[0] = seed
	for i := 1; i < StateWords; i++ {
		prev := m.mt[i-1]
		m.mt[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	m.mti = StateWords
	m.ok = true
}

// InitByArray resets the state from a key of 32-bit words, as
// init_by_array(init_key, key_length) in mt19937ar.c: init_genrand(19650218)
// followed by max(624, len(key)) mixing steps that add the key words and 623
// further steps; mt[0] is finally set to 0x80000000 so the state is never all
// zero. It panics if key is empty (the C code would read past the array).
func (m *MT) InitByArray(key []uint32) {
	if len(key) == 0 {
		panic("mt19937ar: InitByArray with an empty key")
	}
	m.InitGenrand(arraySeed)
	mt := &m.mt
	i, j := 1, 0
	k := StateWords
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		prev := mt[i-1]
		mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= StateWords {
			mt[0] = mt[StateWords-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = StateWords - 1; k > 0; k-- {
		prev := mt[i-1]
		mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= StateWords {
			mt[0] = mt[StateWords-1]
			i = 1
		}
	}
	mt[0] = upperMask
}

// Uint32 returns the next output of genrand_int32() (mt19937ar.c): a uniform
// 32-bit value. It regenerates all 624 words every 624 calls.
func (m *MT) Uint32() uint32 {
	if m.mti >= StateWords || !m.ok {
		if !m.ok {
			m.InitGenrand(DefaultSeed)
		}
		m.twist()
	}
	y := m.mt[m.mti]
	m.mti++
	return temper(y)
}

// Fill writes len(dst) consecutive genrand_int32 outputs into dst; it is
// equivalent to calling Uint32 len(dst) times.
func (m *MT) Fill(dst []uint32) {
	if !m.ok {
		m.InitGenrand(DefaultSeed)
	}
	for len(dst) > 0 {
		if m.mti >= StateWords {
			m.twist()
		}
		src := m.mt[m.mti:]
		n := len(src)
		if n > len(dst) {
			n = len(dst)
		}
		for i, y := range src[:n] {
			dst[i] = temper(y)
		}
		m.mti += n
		dst = dst[n:]
	}
}

// twist regenerates the 624 state words (the "generate N words at one time"
// block of genrand_int32) and rewinds mti.
func (m *MT) twist() {
	mt := &m.mt
	var kk int
	for kk = 0; kk < StateWords-shiftM; kk++ {
		y := (mt[kk] & upperMask) | (mt[kk+1] & lowerMask)
		mt[kk] = mt[kk+shiftM] ^ (y >> 1) ^ ((y & 1) * matrixA)
	}
	for ; kk < StateWords-1; kk++ {
		y := (mt[kk] & upperMask) | (mt[kk+1] & lowerMask)
		mt[kk] = mt[kk+(shiftM-StateWords)] ^ (y >> 1) ^ ((y & 1) * matrixA)
	}
	y := (mt[StateWords-1] & upperMask) | (mt[0] & lowerMask)
	mt[StateWords-1] = mt[shiftM-1] ^ (y >> 1) ^ ((y & 1) * matrixA)
	m.mti = 0
}

// temper is MT19937's output tempering transform.
func temper(y uint32) uint32 {
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}
