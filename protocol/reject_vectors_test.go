package protocol

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/logrekey"
	"github.com/mentalmj/mentalmj/commcrypto/logshuffle"
	"github.com/mentalmj/mentalmj/commcrypto/rekeyproof"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
	"github.com/mentalmj/mentalmj/internal/proofvector"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

const rejectFile = "reject.txt"

// The proof vector files the proof cases take their statements from.
var proofVectorFiles = map[string]string{
	"shuffle-proof": filepath.Join("..", "commcrypto", "shuffleproof", "testdata", "vectors.txt"),
	"rekey-proof":   filepath.Join("..", "commcrypto", "rekeyproof", "testdata", "vectors.txt"),
	// The logarithmic arguments, the default proof system (SPEC §12.1,
	// §13.1).
	"logshuffle-proof": filepath.Join("..", "commcrypto", "logshuffle", "testdata", "vectors.txt"),
	"logrekey-proof":   filepath.Join("..", "commcrypto", "logrekey", "testdata", "vectors.txt"),
}

// rejectCase is one case of reject.txt.
type rejectCase struct {
	name, check, statement, expect, why string
	input                               []byte
}

// TestRejectVectors checks testdata/reject.txt: every case must be
// rejected by the code with its error class, and each case is also shown
// to be wrong a second way, from SPEC.md's rules (an integer not below p
// or ℓ, the all-zero identity, one byte changed from a proof that
// verifies, an Ed25519 signature that fails crypto/ed25519, a prev_hash
// that is not the SHA-256 of the entry before, a length past the end).
func TestRejectVectors(t *testing.T) {
	t.Parallel()
	if *update {
		writeRejectVectors(t)
	}
	cases := readRejectCases(t)
	if len(cases) < 12 {
		t.Fatalf("%d cases, want at least 12", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := rejectClass(t, c); got != c.expect {
				t.Errorf("rejected as %q, want %q", got, c.expect)
			}
			independentlyWrong(t, c)
		})
	}
}

// rejectClass runs a case through the code and returns the class of its
// rejection ("accepted" if there is none).
func rejectClass(t *testing.T, c rejectCase) string {
	switch c.check {
	case "element":
		_, err := commcrypto.DecodeElement(c.input)
		return classOf(err, map[error]string{commcrypto.ErrElementEncoding: "non-canonical", commcrypto.ErrIdentity: "identity", commcrypto.ErrElementLength: "length"})
	case "scalar":
		_, err := commcrypto.DecodeScalar(c.input)
		return classOf(err, map[error]string{commcrypto.ErrScalarEncoding: "non-canonical", commcrypto.ErrZeroScalar: "zero", commcrypto.ErrScalarLength: "length"})
	case "shuffle-proof", "rekey-proof", "logshuffle-proof", "logrekey-proof":
		st := proofStatement(t, c.check, c.statement)
		return classOf(st.verify(t, c.input), map[error]string{
			shuffleproof.ErrEncoding: "encoding", shuffleproof.ErrInvalid: "invalid",
			rekeyproof.ErrEncoding: "encoding", rekeyproof.ErrInvalid: "invalid",
			logshuffle.ErrEncoding: "encoding", logshuffle.ErrInvalid: "invalid",
			logrekey.ErrEncoding: "encoding", logrekey.ErrInvalid: "invalid"})
	case "envelope":
		_, err := Open(c.input)
		if errors.Is(err, ErrSignature) {
			return "signature"
		}
		if err != nil {
			return "decode"
		}
		return "accepted"
	case "transcript":
		recs, err := LoadRecords(bytes.NewReader(c.input), c.name)
		switch {
		case errors.Is(err, ErrCutShort):
			return "cut-short"
		case err != nil:
			return "not-a-transcript"
		}
		// The chain check on its own, then the offline audit.
		ch := chains{}
		for _, r := range recs {
			o, err := Open(r.Envelope)
			if err != nil {
				break
			}
			var fork *chainFork
			if err := ch.accept(o); errors.As(err, &fork) {
				if len(fork.evidence) != 2 {
					t.Errorf("a fork with %d entries of evidence, want 2", len(fork.evidence))
				}
			}
		}
		a := AuditTranscript(recs)
		switch {
		case slices.ContainsFunc(a.Blame, func(b Blame) bool { return strings.Contains(b.Reason, "equivocation") && len(b.Evidence) == 2 }):
			return "fork"
		case len(a.Blame) > 0:
			return "blame"
		case slices.ContainsFunc(a.Faults, func(f Fault) bool { return f.Kind == FaultDamaged }):
			return "damaged"
		case slices.ContainsFunc(a.Faults, func(f Fault) bool { return f.Kind == FaultUnverifiable }):
			return "replay"
		}
		return "accepted"
	}
	t.Fatalf("unknown check %q", c.check)
	return ""
}

func classOf(err error, classes map[error]string) string {
	if err == nil {
		return "accepted"
	}
	for e, name := range classes {
		if errors.Is(err, e) {
			return name
		}
	}
	return "other: " + err.Error()
}

// independentlyWrong shows, without the code under test, that the case's
// input breaks the rule SPEC.md states for it.
func independentlyWrong(t *testing.T, c rejectCase) {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	le := func(b []byte) *big.Int {
		be := slices.Clone(b)
		slices.Reverse(be)
		return new(big.Int).SetBytes(be)
	}
	switch c.check + "/" + c.expect {
	case "element/non-canonical":
		// RFC 9496 4.3.1: s must be < p and non-negative (even).
		if s := le(c.input); len(c.input) != 32 || (s.Cmp(p) < 0 && s.Bit(0) == 0) {
			t.Errorf("%x is an in-range even s: not a case of s ≥ p or negative s", c.input)
		}
	case "element/identity", "scalar/zero":
		if !bytes.Equal(c.input, make([]byte, 32)) {
			t.Errorf("%x is not 32 zero bytes", c.input)
		}
	case "element/length", "scalar/length":
		if len(c.input) == 32 {
			t.Error("input is 32 bytes")
		}
	case "scalar/non-canonical":
		if le(c.input).Cmp(l) < 0 {
			t.Errorf("%x is below ℓ", c.input)
		}
	case "shuffle-proof/invalid", "rekey-proof/invalid", "logshuffle-proof/invalid", "logrekey-proof/invalid":
		st := proofStatement(t, c.check, c.statement)
		if err := st.verify(t, st.proof); err != nil {
			t.Fatalf("the statement's own proof does not verify: %v", err)
		}
		diff := 0
		for i := range min(len(st.proof), len(c.input)) {
			if st.proof[i] != c.input[i] {
				diff++
			}
		}
		if len(st.proof) != len(c.input) || diff != 1 {
			t.Errorf("input is not the accepted proof with one byte changed (%d bytes differ)", diff)
		}
	case "envelope/signature":
		f := protowireFields(t, c.input)
		e := protowireFields(t, f[1].bytes)
		if ed25519.Verify(specPublicKey(t, e[5].bytes), append([]byte("mentalmj/v1/entry\x00"), f[1].bytes...), f[2].bytes) {
			t.Error("the signature verifies with crypto/ed25519")
		}
	case "transcript/cut-short":
		off := 0
		for off < len(c.input) {
			n, k := binary.Uvarint(c.input[off:])
			if k <= 0 || uint64(len(c.input)-off-k) < n {
				return // a length past the end
			}
			off += k + int(n)
		}
		t.Error("every record is complete")
	case "transcript/fork":
		recs := specParseTranscript(t, c.input)
		for i := 1; i < len(recs); i++ {
			a, b := recs[i-1], recs[i]
			h := sha256.Sum256(a.entry)
			if bytes.Equal(a.sender, b.sender) && b.seq == a.seq+1 && !bytes.Equal(b.prev, h[:]) {
				for _, r := range []specRecord{a, b} {
					if !ed25519.Verify(specPublicKey(t, r.sender), append([]byte("mentalmj/v1/entry\x00"), r.entry...), r.signature) {
						t.Error("an entry of the fork is not signed: it could not be evidence")
					}
				}
				return
			}
		}
		t.Error("no entry fails to chain to the one before")
	case "transcript/replay":
		recs := specParseTranscript(t, c.input)
		for i := 1; i < len(recs); i++ {
			if bytes.Equal(recs[i].entry, recs[i-1].entry) && bytes.Equal(recs[i].signature, recs[i-1].signature) {
				return
			}
		}
		t.Error("no record repeats the one before")
	case "transcript/damaged":
		for _, r := range specParseTranscript(t, c.input) {
			if !ed25519.Verify(specPublicKey(t, r.sender), append([]byte("mentalmj/v1/entry\x00"), r.entry...), r.signature) {
				return
			}
		}
		t.Error("every record's signature verifies")
	default:
		t.Errorf("no independent check for %s/%s", c.check, c.expect)
	}
}

// proofCase is a statement from a proof package's vector file.
type proofCase struct {
	kind        string
	ctx         transcript.Context
	n           int
	in, out, rs []byte // rs: the rekey commitments
	key, proof  []byte
}

func (s proofCase) verify(t *testing.T, proof []byte) error {
	in, err1 := commcrypto.DecodeElements(s.in, s.n)
	out, err2 := commcrypto.DecodeElements(s.out, s.n)
	K, err3 := commcrypto.DecodeElement(s.key)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatalf("statement: %v", err)
	}
	switch s.kind {
	case "shuffle-proof":
		pr, err := shuffleproof.Decode(proof, s.n)
		if err != nil {
			return err
		}
		return shuffleproof.Verify(shuffleproof.NewParams(s.n), s.ctx, in, out, K, pr)
	case "logshuffle-proof":
		pr, err := logshuffle.Decode(proof, s.n)
		if err != nil {
			return err
		}
		return logshuffle.Verify(logshuffle.NewParams(s.n), s.ctx, in, out, K, pr)
	}
	rs, err := commcrypto.DecodeElements(s.rs, s.n)
	if err != nil {
		t.Fatalf("statement: %v", err)
	}
	if s.kind == "logrekey-proof" {
		pr, err := logrekey.Decode(proof, s.n)
		if err != nil {
			return err
		}
		return logrekey.Verify(s.ctx, K, in, out, rs, pr)
	}
	pr, err := rekeyproof.Decode(proof, s.n)
	if err != nil {
		return err
	}
	return rekeyproof.Verify(s.ctx, K, in, out, rs, pr)
}

// proofStatement reads vector name of the proof package's vector file.
func proofStatement(t *testing.T, kind, name string) proofCase {
	t.Helper()
	vs, err := proofvector.Read(proofVectorFiles[kind])
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Name == name {
			return proofCase{kind: kind, ctx: v.Ctx, n: v.N, in: v.Input, out: v.Output, key: v.Key, rs: v.Commitments, proof: v.Proof}
		}
	}
	t.Fatalf("%s: no vector %q", proofVectorFiles[kind], name)
	return proofCase{}
}

func readRejectCases(t *testing.T) []rejectCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", rejectFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []rejectCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, _ := strings.Cut(line, " ")
		if k == "case" {
			cs = append(cs, rejectCase{name: v})
			continue
		}
		if len(cs) == 0 {
			t.Fatalf("%s: %q before the first case", rejectFile, k)
		}
		c := &cs[len(cs)-1]
		switch k {
		case "check":
			c.check = v
		case "statement":
			c.statement = v
		case "input":
			if c.input, err = hex.DecodeString(v); err != nil {
				t.Fatalf("%s: case %s: %v", rejectFile, c.name, err)
			}
		case "expect":
			c.expect = v
		case "why":
			c.why = v
		default:
			t.Fatalf("%s: unknown field %q", rejectFile, k)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cs
}

// writeRejectVectors builds reject.txt from deliberate tampers.
func writeRejectVectors(t *testing.T) {
	G := commcrypto.Generator().Bytes()
	p := []byte{0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	sPlusP := make([]byte, 32)
	carry := 0
	for i := range sPlusP {
		v := int(G[i]) + int(p[i]) + carry
		sPlusP[i], carry = byte(v), v>>8
	}
	order, _ := hex.DecodeString("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	flipped := func(kind, name string) []byte {
		b := bytes.Clone(proofStatement(t, kind, name).proof)
		b[len(b)-32] ^= 0x01 // the low byte of the last response scalar
		return b
	}
	recs, _ := vectorGame(t)
	hello, commit := recs[0], recs[4] // player 0's seq 0 and seq 1
	record := func(env []byte) []byte { return append(binary.AppendUvarint(nil, uint64(len(env))), env...) }
	badSig := func(o *Opened) []byte {
		var env pb.Envelope
		if err := proto.Unmarshal(o.Envelope, &env); err != nil {
			t.Fatal(err)
		}
		env.Signature[len(env.Signature)-1] ^= 0x01
		b, err := proto.Marshal(&env)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	priv, _ := vectorKey(t, 0)
	forked := proto.Clone(commit.Entry).(*pb.Entry)
	forked.PrevHash = bytes.Repeat([]byte{0xee}, 32)
	fork, err := Seal(priv, forked)
	if err != nil {
		t.Fatal(err)
	}
	cases := []rejectCase{
		{"element-s-plus-p", "element", "", "non-canonical", "the generator's encoding plus p (odd, ≥ p): RFC 9496 4.3.1 accepts only s < p, s even", sPlusP},
		{"element-negative", "element", "", "non-canonical", "s = 1 is odd (negative): RFC 9496 4.3.1 rejects it", append([]byte{1}, make([]byte, 31)...)},
		{"element-identity", "element", "", "identity", "the identity's encoding, valid ristretto255 but never a tile, ciphertext, commitment or proof element", make([]byte, 32)},
		{"element-short", "element", "", "length", "31 bytes", G[:31]},
		{"scalar-order", "scalar", "", "non-canonical", "ℓ itself: scalars must be below ℓ (RFC 9496 4.4)", order},
		{"scalar-zero", "scalar", "", "zero", "a zero key locks every element to the identity and has no inverse", make([]byte, 32)},
		{"shuffle-proof-flipped-byte", "shuffle-proof", "honest-pass-8", "invalid", "honest-pass-8's proof with bit 0 of the last response's first byte flipped", flipped("shuffle-proof", "honest-pass-8")},
		{"rekey-proof-flipped-byte", "rekey-proof", "honest-rekey-8", "invalid", "honest-rekey-8's proof with bit 0 of the last response's first byte flipped", flipped("rekey-proof", "honest-rekey-8")},
		{"logshuffle-proof-flipped-byte", "logshuffle-proof", "honest-pass-8", "invalid", "logshuffle's honest-pass-8 proof with bit 0 of the last scalar's first byte flipped", flipped("logshuffle-proof", "honest-pass-8")},
		{"logrekey-proof-flipped-byte", "logrekey-proof", "honest-rekey-16", "invalid", "logrekey's honest-rekey-16 proof with bit 0 of the last scalar's first byte flipped", flipped("logrekey-proof", "honest-rekey-16")},
		{"envelope-bad-signature", "envelope", "", "signature", "player 0's Hello of transcript-v4.mjt with the signature's last byte flipped", badSig(hello)},
		{"transcript-prev-hash-mismatch", "transcript", "", "fork", "player 0's Hello, then a signed seq 1 whose prev_hash is not SHA-256 of the Hello's entry: equivocation, blamed", slices.Concat(record(hello.Envelope), record(fork.Envelope))},
		{"transcript-replayed-record", "transcript", "", "replay", "player 0's Hello twice: a copy proves nothing, a fault (unverifiable message), not a blame", slices.Concat(record(hello.Envelope), record(hello.Envelope))},
		{"transcript-bad-signature", "transcript", "", "damaged", "player 0's Hello with a flipped signature byte, then its seq 1: a damaged file, a fault naming no one", slices.Concat(record(badSig(hello)), record(commit.Envelope))},
		{"transcript-truncated-record", "transcript", "", "cut-short", "player 0's Hello, then its seq 1 record cut 10 bytes short", slices.Concat(record(hello.Envelope), record(commit.Envelope)[:len(record(commit.Envelope))-10])},
	}
	var buf bytes.Buffer
	buf.WriteString(`# Must-reject vectors of SPEC.md, one case per block:
#   case NAME / check WHAT / [statement VECTOR] / input HEX / expect CLASS / why TEXT
# check: element (DecodeElement), scalar (DecodeScalar), shuffle-proof,
# rekey-proof, logshuffle-proof and logrekey-proof (Decode + Verify against
# the statement VECTOR of commcrypto/{shuffleproof,rekeyproof,logshuffle,
# logrekey}/testdata/vectors.txt, input = the proof), envelope (Open), transcript (a transcript file: LoadRecords,
# the hash chains, AuditTranscript).
# CLASS: non-canonical | identity | length | zero | encoding | invalid |
# signature | fork (a blame: equivocation) | replay (a fault: unverifiable
# message) | damaged (a fault of the file) | cut-short.
# Generated by
#   go test ./protocol -run TestRejectVectors -update
# from the keys of transcript-v4.mjt; checked by TestRejectVectors.

`)
	for _, c := range cases {
		fmt.Fprintf(&buf, "case %s\ncheck %s\n", c.name, c.check)
		if c.statement != "" {
			fmt.Fprintf(&buf, "statement %s\n", c.statement)
		}
		fmt.Fprintf(&buf, "input %x\nexpect %s\nwhy %s\n\n", c.input, c.expect, c.why)
	}
	if err := os.WriteFile(filepath.Join("testdata", rejectFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
