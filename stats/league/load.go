package league

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/protocol"
)

// Ext is the extension of a certificate file.
const Ext = ".cert"

// Game is one certified game: the verified certificate and every file
// that holds it (each player keeps a copy).
type Game struct {
	*protocol.Certified
	Files []string
}

// FileError is a certificate file refused: why, with its path.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// ErrConflict is wrapped by the FileError of a certificate whose game id
// another file certifies with a different result.
var ErrConflict = errors.New("conflicts with another certificate of the same game")

// Load reads every .cert file in the directories (recursively) and files
// of paths, verifies each (protocol.DecodeCertificate's checks, then every
// signature, in batches: verify.go) and returns the games, one per game
// id, in no particular order. A file named directly is read whatever its
// extension. It returns the games of the files that passed and, joined, a
// *FileError for every file refused: unreadable, forged, partial or
// malformed, or conflicting (ErrConflict: both files named). An error
// walking a directory is returned as is.
func Load(paths []string) ([]Game, error) {
	files, err := certFiles(paths)
	if err != nil {
		return nil, err
	}
	certs, errs := decodeFiles(files)
	games, conflicts := byGame(certs)
	return games, errors.Join(append(errs, conflicts...)...)
}

// decoded is a certificate file that passed: its path, its bytes' SHA-256
// and the certificate.
type decoded struct {
	path string
	sum  [32]byte
	c    *protocol.Certified
}

// decodeFiles reads and decodes files in order and verifies their
// signatures, each distinct content once (every player keeps a
// byte-for-byte copy of a game's certificate). It returns the files that
// passed, in order, and a *FileError for each other.
func decodeFiles(files []string) ([]decoded, []error) {
	var out []decoded
	fileErr := make([]error, len(files))
	first := map[[32]byte]int{} // content → index in out of its first file
	v := newVerifier()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && len(b) > protocol.MaxCertificateSize {
			err = fmt.Errorf("%d bytes, more than a certificate's %d", len(b), protocol.MaxCertificateSize)
		}
		if err != nil {
			out = append(out, decoded{path: f})
			fileErr[len(out)-1] = err
			continue
		}
		sum := sha256.Sum256(b)
		if k, ok := first[sum]; ok {
			out = append(out, decoded{path: f, sum: sum, c: out[k].c})
			if out[k].c == nil {
				fileErr[len(out)-1] = fileErr[k]
			}
			continue
		}
		c, sigs, err := protocol.DecodeCertificate(b)
		first[sum] = len(out)
		out = append(out, decoded{path: f, sum: sum, c: c})
		if err != nil {
			fileErr[len(out)-1] = err
			continue
		}
		v.add(len(out)-1, sigs)
	}
	bad := v.done()
	var errs []error
	var passed []decoded
	for i, d := range out {
		err := fileErr[i]
		if err == nil && d.c != nil {
			k := first[d.sum]
			err = bad[k]
		}
		if err != nil {
			errs = append(errs, &FileError{d.path, err})
			continue
		}
		passed = append(passed, d)
	}
	return passed, errs
}

// byGame groups certificates by game id, in the order of their first
// file. Files of one game with the same Result are one game; files of one
// game id with different Results conflict: every one of that game's files
// is refused (ErrConflict), naming the files it conflicts with.
func byGame(certs []decoded) ([]Game, []error) {
	var errs []error
	byID := map[string]*Game{}
	var order []string
	bad := map[string]bool{}
	for _, d := range certs {
		c := d.c
		id := string(c.Result.GameId)
		g, ok := byID[id]
		switch {
		case !ok:
			byID[id] = &Game{Certified: c, Files: []string{d.path}}
			order = append(order, id)
		case bytes.Equal(g.Bytes, c.Bytes):
			g.Files = append(g.Files, d.path)
		default:
			errs = append(errs, &FileError{d.path, fmt.Errorf("%w (%s): game %x", ErrConflict, strings.Join(g.Files, ", "), c.Result.GameId[:8])})
			bad[id] = true
		}
	}
	var games []Game
	for _, id := range order {
		if bad[id] {
			g := byID[id]
			for _, f := range g.Files {
				errs = append(errs, &FileError{f, fmt.Errorf("%w: game %x", ErrConflict, g.Result.GameId[:8])})
			}
			continue
		}
		games = append(games, *byID[id])
	}
	return games, errs
}

// certFiles lists the files of paths: a directory's .cert files, walked
// recursively in lexical order, and every file named itself.
func certFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(path), Ext) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return slices.Compact(files), nil
}
