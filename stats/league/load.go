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
// of paths, verifies each (protocol.CheckCertificate) and returns the
// games, one per game id, in no particular order. A file named directly
// is read whatever its extension. It returns the games of the files that
// passed and, joined, a *FileError for every file refused: unreadable,
// forged, partial or malformed, or conflicting (ErrConflict: both files
// named). An error walking a directory is returned as is.
func Load(paths []string) ([]Game, error) {
	files, err := certFiles(paths)
	if err != nil {
		return nil, err
	}
	var errs []error
	byID := map[string]*Game{}
	var order []string
	bad := map[string]bool{}
	seen := map[[32]byte]string{} // file bytes verified → game id
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && len(b) > protocol.MaxCertificateSize {
			err = fmt.Errorf("%d bytes, more than a certificate's %d", len(b), protocol.MaxCertificateSize)
		}
		if err != nil {
			errs = append(errs, &FileError{f, err})
			continue
		}
		sum := sha256.Sum256(b)
		if id, ok := seen[sum]; ok {
			// A byte-for-byte copy of a certificate verified already
			// (every player keeps one): the same game.
			byID[id].Files = append(byID[id].Files, f)
			continue
		}
		c, err := protocol.CheckCertificate(b)
		if err != nil {
			errs = append(errs, &FileError{f, err})
			continue
		}
		id := string(c.Result.GameId)
		g, ok := byID[id]
		switch {
		case !ok:
			byID[id] = &Game{Certified: c, Files: []string{f}}
			order = append(order, id)
			seen[sum] = id
		case bytes.Equal(g.Bytes, c.Bytes):
			g.Files = append(g.Files, f)
			seen[sum] = id
		default:
			errs = append(errs, &FileError{f, fmt.Errorf("%w (%s): game %x", ErrConflict, strings.Join(g.Files, ", "), c.Result.GameId[:8])})
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
	return games, errors.Join(errs...)
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
