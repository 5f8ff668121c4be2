package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mentalmj/mentalmj/wall/majsoul"
)

// majsoulCommand verifies Mahjong Soul per-kyoku wall commitments
// (package wall/majsoul, docs/wall-layout.md §10).
var majsoulCommand = command{name: "majsoul", summary: "verify a Mahjong Soul wall commitment", run: runMajsoul}

const majsoulUsage = `mentalmj majsoul: verify Mahjong Soul (雀魂) wall commitments.

At each kyoku Mahjong Soul shows SHA-256(wall code + salt) and SHA-256(salt);
the paipu later reveals the wall code and the salt.

Usage:
  mentalmj majsoul verify --wall CODE --salt SALT --hash HEX [--salt-hash HEX]

The wall code has two characters per tile (1m..9m 1p..9p 1s..9s 1z..7z, red
fives 0m 0p 0s), 136 tiles (4 players) or 108 (3 players).

Exit status: 0 every given digest matches and the wall is a legal set,
1 a digest differs or the wall is not a legal set, 2 bad usage or input.
`

func runMajsoul(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, majsoulUsage)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, majsoulUsage)
		return 0
	case "verify":
		return runMajsoulVerify(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "mentalmj majsoul: unknown subcommand %q\n\n%s", args[0], majsoulUsage)
	return 2
}

func runMajsoulVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mentalmj majsoul verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	wallCode := fs.String("wall", "", "revealed wall code (2 characters per tile)")
	salt := fs.String("salt", "", "revealed salt")
	hash := fs.String("hash", "", "published SHA-256(wall code + salt), 64 hex digits")
	saltHash := fs.String("salt-hash", "", "published SHA-256(salt), 64 hex digits (optional)")
	usage := func(w io.Writer) {
		fmt.Fprint(w, majsoulUsage, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "mentalmj majsoul verify: %s\n\n", fmt.Sprintf(format, a...))
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
	if !set["wall"] || !set["salt"] || !set["hash"] {
		return bad("--wall, --salt and --hash are required")
	}
	want, err := majsoul.ParseDigest(*hash)
	if err != nil {
		return bad("--hash: %v", err)
	}
	var wantSalt [32]byte
	if set["salt-hash"] {
		if wantSalt, err = majsoul.ParseDigest(*saltHash); err != nil {
			return bad("--salt-hash: %v", err)
		}
	}
	tiles, err := majsoul.ParseWall(*wallCode)
	if err != nil {
		return bad("--wall: %v", err)
	}

	ok := true
	got := majsoul.Commitment(*wallCode, *salt)
	if err := majsoul.Verify(*wallCode, *salt, want); err != nil {
		fmt.Fprintf(stdout, "SHA-256(wall+salt) %x MISMATCH (published %x)\n", got, want)
		ok = false
	} else {
		fmt.Fprintf(stdout, "SHA-256(wall+salt) %x ok\n", got)
	}
	if set["salt-hash"] {
		gotSalt := majsoul.SaltHash(*salt)
		if err := majsoul.VerifySalt(*salt, wantSalt); err != nil {
			fmt.Fprintf(stdout, "SHA-256(salt)      %x MISMATCH (published %x)\n", gotSalt, wantSalt)
			ok = false
		} else {
			fmt.Fprintf(stdout, "SHA-256(salt)      %x ok\n", gotSalt)
		}
	}
	if err := majsoul.CheckSet(tiles); err != nil {
		fmt.Fprintf(stdout, "wall               %d tiles: %v\n", len(tiles), err)
		ok = false
	} else {
		fmt.Fprintf(stdout, "wall               %d tiles, a legal %d-player set\n", len(tiles), map[int]int{136: 4, 108: 3}[len(tiles)])
	}
	if !ok {
		fmt.Fprintln(stdout, "FAIL")
		return 1
	}
	fmt.Fprintln(stdout, "OK")
	return 0
}
