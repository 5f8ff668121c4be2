package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/wall/sapikachu"
)

// sapikachuCommand deals and verifies walls of the SAPikachu server-side
// shuffle scheme (package wall/sapikachu).
func sapikachuCommand() *cobra.Command {
	return group("sapikachu", "deal and verify walls of the ChaCha20 server scheme", sapikachuHelp,
		sapikachuDealCommand(), sapikachuVerifyCommand())
}

const sapikachuHelp = `The "verifiably non-riggable shuffle" server scheme (SAPikachu):
seed = SHA-512(T1 ∥ T2 ∥ R ∥ HMAC(GS, …) ∥ HMAC(PS_i, …)…), ChaCha20
keystream ⊕ GS, Fisher–Yates over the 136 tile ids. Encodings: package
wall/sapikachu ("sapikachu-v1").`

const sapikachuDealUsage = `deal [--players-secrets N] [--player-secret HEX]... [--gs HEX] [--r HEX] [--t1-ms MS] [--t2-ms MS]

Prints the JSON record of one kyoku of the SAPikachu scheme. Inputs not
given are fresh: random bytes from crypto/rand, times = now.`

const sapikachuVerifyUsage = `verify RECORD

Recomputes the seed and yama of a JSON record of the SAPikachu scheme (a
file, or - for stdin).

Exit status: 0 verified, 1 the record does not verify, 2 unreadable.`

// hexFlag is a flag holding a hex byte string of a fixed length.
type hexFlag struct {
	size int
	b    []byte
}

func (h *hexFlag) String() string { return hex.EncodeToString(h.b) }
func (h *hexFlag) Type() string   { return "HEX" }

func (h *hexFlag) Set(s string) error {
	b, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	if len(b) != h.size {
		return fmt.Errorf("%d bytes, want %d (%d hex digits)", len(b), h.size, 2*h.size)
	}
	h.b = b
	return nil
}

// secretsFlag collects repeated --player-secret values.
type secretsFlag [][]byte

func (s *secretsFlag) String() string { return fmt.Sprintf("%d secrets", len(*s)) }
func (s *secretsFlag) Type() string   { return "HEX" }

func (s *secretsFlag) Set(v string) error {
	h := hexFlag{size: sapikachu.SecretSize}
	if err := h.Set(v); err != nil {
		return err
	}
	*s = append(*s, h.b)
	return nil
}

// sapikachuDealFlags are the options of "mentalmj sapikachu deal".
type sapikachuDealFlags struct {
	players int
	secrets secretsFlag
	gs, r   hexFlag
	t1, t2  uint64
}

func sapikachuDealCommand() *cobra.Command {
	f := &sapikachuDealFlags{gs: hexFlag{size: sapikachu.GSSize}, r: hexFlag{size: sapikachu.RSize}}
	cmd := leaf(sapikachuDealUsage, "print the JSON record of one kyoku", func(cmd *cobra.Command, args []string) int {
		return runSapikachuDeal(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.IntVar(&f.players, "players-secrets", 0, "number of player secrets PS_i, 1..4 (default 4, or the number of --player-secret)")
	fs.Var(&f.secrets, "player-secret", "a player secret PS_i, 64 hex digits (repeat in seat order; default random)")
	fs.Var(&f.gs, "gs", "global secret GS, 256 hex digits (default random)")
	fs.Var(&f.r, "r", "round randomness R, 64 hex digits (default random)")
	fs.Uint64Var(&f.t1, "t1-ms", 0, "match start T1, Unix ms (default now)")
	fs.Uint64Var(&f.t2, "t2-ms", 0, "kyoku start T2, Unix ms (default now)")
	return cmd
}

func runSapikachuDeal(cmd *cobra.Command, args []string, f *sapikachuDealFlags) int {
	stdout := cmd.OutOrStdout()
	bad := func(format string, a ...any) int { return usageError(cmd, format, a...) }
	if len(args) > 0 {
		return bad("unexpected argument %q", args[0])
	}
	set := map[string]bool{}
	for _, name := range []string{"players-secrets", "t1-ms", "t2-ms"} {
		set[name] = cmd.Flags().Changed(name)
	}
	n := f.players
	switch {
	case !set["players-secrets"] && len(f.secrets) > 0:
		n = len(f.secrets)
	case !set["players-secrets"]:
		n = 4
	case len(f.secrets) > 0 && n != len(f.secrets):
		return bad("--players-secrets %d but %d --player-secret given", n, len(f.secrets))
	}
	if n < 1 || n > sapikachu.MaxPlayers {
		return bad("--players-secrets must be 1..%d, got %d", sapikachu.MaxPlayers, n)
	}
	now := uint64(time.Now().UnixMilli())
	if !set["t1-ms"] {
		f.t1 = now
	}
	if !set["t2-ms"] {
		f.t2 = now
	}
	in, err := sapikachu.NewInputs(rand.Reader, f.t1, f.t2, n)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if f.gs.b != nil {
		in.GS = f.gs.b
	}
	if f.r.b != nil {
		in.R = f.r.b
	}
	if len(f.secrets) > 0 {
		in.PlayerSecrets = f.secrets
	}
	rec, err := sapikachu.Deal(in)
	if err != nil {
		return bad("%v", err)
	}
	out, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", out); err != nil {
		return 2
	}
	return 0
}

func sapikachuVerifyCommand() *cobra.Command {
	return leaf(sapikachuVerifyUsage, "recompute the seed and yama of a JSON record", runSapikachuVerify)
}

func runSapikachuVerify(cmd *cobra.Command, args []string) int {
	stdout := cmd.OutOrStdout()
	if len(args) != 1 {
		return usageError(cmd, "want one RECORD argument, got %d", len(args))
	}
	path := args[0]
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(cmd.InOrStdin())
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	rec, err := sapikachu.ParseRecord(data)
	if err != nil {
		return fail(cmd, 2, "%s: %v", path, err)
	}
	if err := rec.Verify(); err != nil {
		fmt.Fprintf(stdout, "%s: FAIL: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: OK: seed %x, %d player secrets, yama of %d tiles recomputed\n", path, []byte(rec.Seed), len(rec.PlayerSecrets), len(rec.Yama))
	return 0
}
