package sapikachu

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mentalmj/mentalmj/wall"
)

// Hex is a byte string that JSON-encodes as lower-case hex.
type Hex []byte

// MarshalText returns h as lower-case hex digits.
func (h Hex) MarshalText() ([]byte, error) {
	return []byte(hex.EncodeToString(h)), nil
}

// UnmarshalText decodes hex digits (either case) into h; it returns an
// error for an odd length or a non-hex character.
func (h *Hex) UnmarshalText(b []byte) error {
	out := make([]byte, hex.DecodedLen(len(b)))
	if _, err := hex.Decode(out, b); err != nil {
		return err
	}
	*h = out
	return nil
}

// Record is the verifiable record of one kyoku: every seed material, the
// seed and the resulting yama. Its JSON form is
//
//	{"t1_ms":…, "t2_ms":…, "r":"<64 hex>", "gs":"<256 hex>",
//	 "player_secrets":["<64 hex>", …], "seed":"<128 hex>", "yama":[136 ids]}
type Record struct {
	T1Ms          uint64      `json:"t1_ms"`
	T2Ms          uint64      `json:"t2_ms"`
	R             Hex         `json:"r"`
	GS            Hex         `json:"gs"`
	PlayerSecrets []Hex       `json:"player_secrets"`
	Seed          Hex         `json:"seed"`
	Yama          []wall.Tile `json:"yama"`
}

// Inputs returns the seed materials of r (sharing its byte slices).
func (r *Record) Inputs() *Inputs {
	in := &Inputs{T1: r.T1Ms, T2: r.T2Ms, R: r.R, GS: r.GS}
	for _, ps := range r.PlayerSecrets {
		in.PlayerSecrets = append(in.PlayerSecrets, ps)
	}
	return in
}

// NewInputs draws fresh inputs from rand (crypto/rand.Reader in
// production): R, GS and players player secrets of the fixed sizes, with
// the given times in Unix ms. It returns an error if players is outside
// 1..MaxPlayers or rand fails.
func NewInputs(rand io.Reader, t1Ms, t2Ms uint64, players int) (*Inputs, error) {
	if players < 1 || players > MaxPlayers {
		return nil, fmt.Errorf("players: %d, want 1..%d: %w", players, MaxPlayers, ErrInput)
	}
	in := &Inputs{T1: t1Ms, T2: t2Ms, R: make([]byte, RSize), GS: make([]byte, GSSize)}
	bufs := [][]byte{in.R, in.GS}
	for range players {
		ps := make([]byte, SecretSize)
		in.PlayerSecrets = append(in.PlayerSecrets, ps)
		bufs = append(bufs, ps)
	}
	for _, b := range bufs {
		if _, err := io.ReadFull(rand, b); err != nil {
			return nil, fmt.Errorf("sapikachu: random input: %w", err)
		}
	}
	return in, nil
}

// Deal computes the seed and yama of in and returns the full Record. It
// returns an error wrapping ErrInput when in fails Check.
func Deal(in *Inputs) (*Record, error) {
	seed, err := Seed(in)
	if err != nil {
		return nil, err
	}
	yama, err := Shuffle(seed, in.GS)
	if err != nil {
		return nil, err
	}
	r := &Record{T1Ms: in.T1, T2Ms: in.T2, R: bytes.Clone(in.R), GS: bytes.Clone(in.GS), Seed: seed[:], Yama: yama}
	for _, ps := range in.PlayerSecrets {
		r.PlayerSecrets = append(r.PlayerSecrets, bytes.Clone(ps))
	}
	return r, nil
}

// ErrMismatch is wrapped by Verify when the recorded seed or yama differs
// from the recomputed one.
var ErrMismatch = errors.New("sapikachu record does not verify")

// Verify recomputes the seed and the yama from the record's inputs and
// compares them with the recorded ones. It returns an error wrapping
// ErrInput for inputs of the wrong shape or a yama that is not 136 ids,
// an error wrapping ErrMismatch naming the first difference, or nil.
func (r *Record) Verify() error {
	in := r.Inputs()
	seed, err := Seed(in)
	if err != nil {
		return err
	}
	if len(r.Yama) != wall.NumTiles {
		return fmt.Errorf("yama: %d tiles, want %d: %w", len(r.Yama), wall.NumTiles, ErrInput)
	}
	if !bytes.Equal(r.Seed, seed[:]) {
		return fmt.Errorf("seed: recorded %x, recomputed %x: %w", []byte(r.Seed), seed, ErrMismatch)
	}
	yama, err := Shuffle(seed, in.GS)
	if err != nil {
		return err
	}
	for i := range yama {
		if r.Yama[i] != yama[i] {
			return fmt.Errorf("yama[%d]: recorded %d, recomputed %d: %w", i, int(r.Yama[i]), int(yama[i]), ErrMismatch)
		}
	}
	return nil
}

// ParseRecord decodes one JSON Record, rejecting unknown fields and
// trailing data. Field shapes are checked by Verify, not here.
func ParseRecord(data []byte) (*Record, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var r Record
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("sapikachu record: %w", err)
	}
	if d.More() {
		return nil, errors.New("sapikachu record: trailing data after the JSON object")
	}
	return &r, nil
}
