package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mentalmj/mentalmj/wall/sapikachu"
)

// sapikachuCommand deals and verifies walls of the SAPikachu server-side
// shuffle scheme (package wall/sapikachu).
var sapikachuCommand = command{name: "sapikachu", summary: "deal and verify walls of the ChaCha20 server scheme", run: runSapikachu}

const sapikachuUsage = `mentalmj sapikachu: the "verifiably non-riggable shuffle" server scheme
(SAPikachu): seed = SHA-512(T1 ∥ T2 ∥ R ∥ HMAC(GS, …) ∥ HMAC(PS_i, …)…), ChaCha20
keystream ⊕ GS, Fisher–Yates over the 136 tile ids. Encodings: package
wall/sapikachu ("sapikachu-v1").

Usage:
  mentalmj sapikachu deal [--players-secrets N] [--player-secret HEX]...
                          [--gs HEX] [--r HEX] [--t1-ms MS] [--t2-ms MS]
      Print the JSON record of one kyoku. Inputs not given are fresh:
      random bytes from crypto/rand, times = now.
  mentalmj sapikachu verify RECORD
      Recompute seed and yama of a JSON record (a file, or - for stdin).
      Exit 0 verified, 1 the record does not verify, 2 unreadable.
`

func runSapikachu(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, sapikachuUsage)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, sapikachuUsage)
		return 0
	case "deal":
		return runSapikachuDeal(args[1:], stdout, stderr)
	case "verify":
		return runSapikachuVerify(args[1:], os.Stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "mentalmj sapikachu: unknown subcommand %q\n\n%s", args[0], sapikachuUsage)
	return 2
}

// hexFlag is a flag holding a hex byte string of a fixed length.
type hexFlag struct {
	size int
	b    []byte
}

func (h *hexFlag) String() string { return hex.EncodeToString(h.b) }

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

func (s *secretsFlag) Set(v string) error {
	h := hexFlag{size: sapikachu.SecretSize}
	if err := h.Set(v); err != nil {
		return err
	}
	*s = append(*s, h.b)
	return nil
}

// sapikachuFlags makes a flag set whose -h prints the usage to stdout.
func sapikachuFlags(name string) (*flag.FlagSet, func(io.Writer)) {
	fs := flag.NewFlagSet("mentalmj sapikachu "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs, func(w io.Writer) {
		fmt.Fprint(w, sapikachuUsage)
		var hasFlags bool
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(w, "\nFlags of ", name, ":\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
}

func runSapikachuDeal(args []string, stdout, stderr io.Writer) int {
	fs, usage := sapikachuFlags("deal")
	players := fs.Int("players-secrets", 0, "number of player secrets PS_i, 1..4 (default 4, or the number of --player-secret)")
	var secrets secretsFlag
	fs.Var(&secrets, "player-secret", "a player secret PS_i, 64 hex digits (repeat in seat order; default random)")
	gs := &hexFlag{size: sapikachu.GSSize}
	fs.Var(gs, "gs", "global secret GS, 256 hex digits (default random)")
	r := &hexFlag{size: sapikachu.RSize}
	fs.Var(r, "r", "round randomness R, 64 hex digits (default random)")
	t1 := fs.Uint64("t1-ms", 0, "match start T1, Unix ms (default now)")
	t2 := fs.Uint64("t2-ms", 0, "kyoku start T2, Unix ms (default now)")
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "mentalmj sapikachu deal: %s\n\n", fmt.Sprintf(format, a...))
		usage(stderr)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return 0
		}
		return bad("%v", err)
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	n := *players
	switch {
	case !set["players-secrets"] && len(secrets) > 0:
		n = len(secrets)
	case !set["players-secrets"]:
		n = 4
	case len(secrets) > 0 && n != len(secrets):
		return bad("--players-secrets %d but %d --player-secret given", n, len(secrets))
	}
	if n < 1 || n > sapikachu.MaxPlayers {
		return bad("--players-secrets must be 1..%d, got %d", sapikachu.MaxPlayers, n)
	}
	now := uint64(time.Now().UnixMilli())
	if !set["t1-ms"] {
		*t1 = now
	}
	if !set["t2-ms"] {
		*t2 = now
	}
	in, err := sapikachu.NewInputs(rand.Reader, *t1, *t2, n)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj sapikachu deal: %v\n", err)
		return 2
	}
	if gs.b != nil {
		in.GS = gs.b
	}
	if r.b != nil {
		in.R = r.b
	}
	if len(secrets) > 0 {
		in.PlayerSecrets = secrets
	}
	rec, err := sapikachu.Deal(in)
	if err != nil {
		return bad("%v", err)
	}
	out, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj sapikachu deal: %v\n", err)
		return 2
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", out); err != nil {
		return 2
	}
	return 0
}

func runSapikachuVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, usage := sapikachuFlags("verify")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return 0
		}
		fmt.Fprintf(stderr, "mentalmj sapikachu verify: %v\n\n", err)
		usage(stderr)
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "mentalmj sapikachu verify: want one RECORD argument, got %d\n\n", fs.NArg())
		usage(stderr)
		return 2
	}
	path := fs.Arg(0)
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj sapikachu verify: %v\n", err)
		return 2
	}
	rec, err := sapikachu.ParseRecord(data)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj sapikachu verify: %s: %v\n", path, err)
		return 2
	}
	if err := rec.Verify(); err != nil {
		fmt.Fprintf(stdout, "%s: FAIL: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: OK: seed %x, %d player secrets, yama of %d tiles recomputed\n", path, []byte(rec.Seed), len(rec.PlayerSecrets), len(rec.Yama))
	return 0
}
