package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/wall/majsoul"
)

// majsoulCommand verifies Mahjong Soul per-kyoku wall commitments
// (package wall/majsoul, docs/wall-layout.md §10).
func majsoulCommand() *cobra.Command {
	return group("majsoul", "verify a Mahjong Soul wall commitment", majsoulHelp, majsoulVerifyCommand())
}

const majsoulHelp = `Verifies Mahjong Soul (雀魂) wall commitments.

At each kyoku Mahjong Soul shows SHA-256(wall code + salt) and SHA-256(salt);
the paipu later reveals the wall code and the salt.`

const majsoulVerifyUsage = `verify --wall CODE --salt SALT --hash HEX [--salt-hash HEX]

Checks a revealed wall code and salt against the digests Mahjong Soul
(雀魂) showed at the start of the kyoku: SHA-256(wall code + salt) and,
with --salt-hash, SHA-256(salt).

The wall code has two characters per tile (1m..9m 1p..9p 1s..9s 1z..7z, red
fives 0m 0p 0s), 136 tiles (4 players) or 108 (3 players).

Exit status: 0 every given digest matches and the wall is a legal set,
1 a digest differs or the wall is not a legal set, 2 bad usage or input.`

// majsoulVerifyFlags are the options of "mentalmj majsoul verify".
type majsoulVerifyFlags struct {
	wallCode, salt, hash, saltHash string
}

func majsoulVerifyCommand() *cobra.Command {
	var f majsoulVerifyFlags
	cmd := leaf(majsoulVerifyUsage, "check a revealed wall and salt against the published digests", func(cmd *cobra.Command, args []string) int {
		return runMajsoulVerify(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.StringVar(&f.wallCode, "wall", "", "revealed wall code (2 characters per tile)")
	fs.StringVar(&f.salt, "salt", "", "revealed salt")
	fs.StringVar(&f.hash, "hash", "", "published SHA-256(wall code + salt), 64 hex digits")
	fs.StringVar(&f.saltHash, "salt-hash", "", "published SHA-256(salt), 64 hex digits (optional)")
	return cmd
}

func runMajsoulVerify(cmd *cobra.Command, args []string, f majsoulVerifyFlags) int {
	stdout := cmd.OutOrStdout()
	bad := func(format string, a ...any) int { return usageError(cmd, format, a...) }
	if len(args) > 0 {
		return bad("unexpected argument %q", args[0])
	}
	set := map[string]bool{}
	for _, name := range []string{"wall", "salt", "hash", "salt-hash"} {
		set[name] = cmd.Flags().Changed(name)
	}
	if !set["wall"] || !set["salt"] || !set["hash"] {
		return bad("--wall, --salt and --hash are required")
	}
	want, err := majsoul.ParseDigest(f.hash)
	if err != nil {
		return bad("--hash: %v", err)
	}
	var wantSalt [32]byte
	if set["salt-hash"] {
		if wantSalt, err = majsoul.ParseDigest(f.saltHash); err != nil {
			return bad("--salt-hash: %v", err)
		}
	}
	tiles, err := majsoul.ParseWall(f.wallCode)
	if err != nil {
		return bad("--wall: %v", err)
	}

	ok := true
	got := majsoul.Commitment(f.wallCode, f.salt)
	if err := majsoul.Verify(f.wallCode, f.salt, want); err != nil {
		fmt.Fprintf(stdout, "SHA-256(wall+salt) %x MISMATCH (published %x)\n", got, want)
		ok = false
	} else {
		fmt.Fprintf(stdout, "SHA-256(wall+salt) %x ok\n", got)
	}
	if set["salt-hash"] {
		gotSalt := majsoul.SaltHash(f.salt)
		if err := majsoul.VerifySalt(f.salt, wantSalt); err != nil {
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
