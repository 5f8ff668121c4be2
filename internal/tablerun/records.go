package tablerun

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

// writeGameFiles writes the game record as tenhou.net/6 JSON to jsonPath
// (and as mjlog XML to mjlogPath when given) and reports both, with how to
// open the JSON: mentalmj view and the mjai-reviewer command for this
// player's seat (the tenhou.net/6 viewer link goes only into --progress
// json, as "viewer").
func writeGameFiles(out *progress.Reporter, rec *mjlog.Game, mjlogPath, jsonPath string, seats []peer.ID, self peer.ID) error {
	if mjlogPath != "" {
		if err := writeRecord(mjlogPath, rec); err != nil {
			return fmt.Errorf("--mjlog: %w", err)
		}
		out.Event(progress.Mjlog{Path: mjlogPath}, "game record: %s", mjlogPath)
	}
	if rec.HasHidden() {
		out.Event(progress.JSONRecord{Skipped: tenhou6.ErrHidden.Error()}, "tenhou.net/6 JSON: not written: %v", tenhou6.ErrHidden)
		if mjlogPath != "" {
			out.Event(progress.View{Path: mjlogPath}, "watch it again (your view): mentalmj view %s", mjlogPath)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(jsonPath), 0o755); err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	link, err := writeGameJSON(jsonPath, rec)
	if err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	seat := max(slices.Index(seats, self), 0)
	review := fmt.Sprintf("mjai-reviewer -e mortal -i %s -a %d", jsonPath, seat)
	out.Event(progress.JSONRecord{Path: jsonPath, Review: review, Viewer: link},
		"tenhou.net/6 JSON: %s\n  review it with Mortal: %s\n  watch it again: mentalmj view %s", jsonPath, review, jsonPath)
	return nil
}

// writeRecord writes a game record to path as mjlog XML, atomically
// (a temporary file renamed into place).
func writeRecord(path string, g *mjlog.Game) error {
	return WriteFile(path, func(w io.Writer) error { return mjlog.Write(w, g) })
}

// WriteFile writes with write to path atomically: into path+".tmp",
// renamed into place once write and Close succeeded (removed otherwise).
// It returns the error of Create, write (wrapped with the path), Close or
// Rename.
func WriteFile(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// writeGameJSON writes the tenhou.net/6 JSON of a game record to path and
// returns the tenhou.net/6 viewer link that opens it (the JSON in the URL
// fragment, never sent to a server).
func writeGameJSON(path string, g *mjlog.Game) (link string, err error) {
	l, err := tenhou6.Convert(g)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := l.Encode(&buf); err != nil {
		return "", err
	}
	if err := WriteFile(path, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return "", err
	}
	return "https://tenhou.net/6/#json=" + url.PathEscape(strings.TrimSpace(buf.String())), nil
}

// safeName keeps a table name usable in a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
