package protocol

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

// Transcript is an append-only record of every envelope a player sent or
// received, in the order it processed them. On disk it is a sequence of
// records, each a uvarint length followed by a serialized pb.Envelope (the
// framing of protobuf's delimited format). Every record is written to the
// file as soon as it is appended, so a crash loses nothing already played.
type Transcript struct {
	mu   sync.Mutex
	w    io.Writer
	sync func() error
	n    int
}

// CreateTranscript creates the transcript file at path. It refuses an
// existing non-empty file (a transcript is never overwritten or mixed with
// another game): the error names the path.
func CreateTranscript(path string) (*Transcript, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if st, err := f.Stat(); err != nil || st.Size() > 0 {
		f.Close()
		if err == nil {
			err = errors.New("file exists and is not empty; choose another path")
		}
		return nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	return &Transcript{w: f, sync: f.Sync}, nil
}

// NewTranscript returns a Transcript writing to w (e.g. a bytes.Buffer in
// tests). Each record is handed to w with one Write call.
func NewTranscript(w io.Writer) *Transcript { return &Transcript{w: w} }

// Append writes o's envelope as one record. It is safe for concurrent use.
func (t *Transcript) Append(o *Opened) error {
	rec := binary.AppendUvarint(make([]byte, 0, len(o.Envelope)+binary.MaxVarintLen64), uint64(len(o.Envelope)))
	rec = append(rec, o.Envelope...)
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.w.Write(rec); err != nil {
		return err
	}
	t.n++
	return nil
}

// Len returns the number of records appended.
func (t *Transcript) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// Sync flushes the file to stable storage (fsync); it is called at the
// end of every hand. A no-op for writers that are not files.
func (t *Transcript) Sync() error {
	if t.sync == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sync()
}

// Close syncs and closes the underlying file, if the Transcript owns one.
func (t *Transcript) Close() error {
	if err := t.Sync(); err != nil {
		return err
	}
	if c, ok := t.w.(io.Closer); ok && t.sync != nil {
		return c.Close()
	}
	return nil
}

// ReadTranscript reads every record of a transcript and verifies each
// envelope's signature (Open). It returns the records read up to the first
// problem together with an error naming name, the record number and the
// byte offset: a truncated record (e.g. a crash mid-write) or a record
// that fails to open.
func ReadTranscript(r io.Reader, name string) ([]*Opened, error) {
	recs, rerr := ReadRecords(r, name)
	out := make([]*Opened, 0, len(recs))
	for _, rec := range recs {
		o, err := Open(rec.Envelope)
		if err != nil {
			return out, fmt.Errorf("%s: record %d at byte %d: %w", name, rec.Index, rec.Offset, err)
		}
		out = append(out, o)
	}
	return out, rerr
}

// Record is one framed record of a transcript file, not yet verified.
type Record struct {
	// Index is the 1-based record number.
	Index int
	// Offset is the byte offset of the record's length prefix.
	Offset int64
	// Envelope is the record's bytes, a serialized pb.Envelope.
	Envelope []byte
}

// ReadRecords splits a transcript into its records without verifying
// them. It returns the complete records and, if the data ends in a
// truncated or oversized record, an error naming name, the record number
// and the offset.
func ReadRecords(r io.Reader, name string) ([]Record, error) {
	br := bufio.NewReader(r)
	var out []Record
	var off int64
	for {
		n, err := binary.ReadUvarint(br)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("%s: record %d at byte %d: bad length: %w", name, len(out)+1, off, err)
		}
		if n > MaxMessageSize {
			return out, fmt.Errorf("%s: record %d at byte %d: length %d exceeds %d", name, len(out)+1, off, n, MaxMessageSize)
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(br, buf); err != nil {
			return out, fmt.Errorf("%s: record %d at byte %d: truncated: %w", name, len(out)+1, off, err)
		}
		out = append(out, Record{Index: len(out) + 1, Offset: off, Envelope: buf})
		off += int64(n) + int64(uvarintLen(n))
	}
}

func uvarintLen(n uint64) int { return len(binary.AppendUvarint(nil, n)) }

// ErrNotTranscript is wrapped by LoadRecords's error for data that is not
// a mentalmj transcript at all.
var ErrNotTranscript = errors.New("not a mentalmj transcript")

// ErrCutShort is wrapped by LoadRecords's error for a transcript whose
// last record is incomplete or whose framing breaks part-way.
var ErrCutShort = errors.New("transcript cut short")

// LoadRecords reads a transcript like ReadRecords and also checks that it
// is one: its first record must decode as a signed entry (pb.Envelope
// holding a pb.Entry). It returns the complete records and an error naming
// name: ErrNotTranscript wrapped, saying what the data looks like (empty,
// gzip, JSON, XML, text or binary data), or ErrCutShort wrapped, saying
// where reading stopped (record number and byte offset); the records
// before that point are returned with it.
func LoadRecords(r io.Reader, name string) ([]Record, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(512)
	recs, err := ReadRecords(br, name)
	if len(head) == 0 {
		return nil, fmt.Errorf("%s: %w: the file is empty", name, ErrNotTranscript)
	}
	if len(recs) == 0 || !isEntry(recs[0].Envelope) {
		return nil, fmt.Errorf("%s: %w: it looks like %s (its first record, at byte 0, does not decode as a signed entry)", name, ErrNotTranscript, sniff(head))
	}
	if err != nil {
		return recs, fmt.Errorf("%w: %w (%d complete records before it)", ErrCutShort, err, len(recs))
	}
	return recs, nil
}

// isEntry reports whether env decodes as an Envelope whose entry decodes
// and names a sender; the signature is not checked.
func isEntry(env []byte) bool {
	var e pb.Envelope
	var entry pb.Entry
	if proto.Unmarshal(env, &e) != nil || len(e.Signature) == 0 || proto.Unmarshal(e.Entry, &entry) != nil {
		return false
	}
	_, err := peer.IDFromBytes(entry.Sender)
	return err == nil
}

// sniff names what a file that is not a transcript looks like.
func sniff(head []byte) string {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return "gzip data (an mjlog? try mentalmj tenhou replay)"
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		return "JSON"
	case len(trimmed) > 0 && trimmed[0] == '<':
		return "XML (an mjlog? try mentalmj tenhou replay)"
	case utf8.Valid(head) && !bytes.ContainsFunc(head, func(r rune) bool { return r < ' ' && r != '\n' && r != '\r' && r != '\t' }):
		return "text"
	}
	return "binary data of another kind"
}

// OpenTranscript reopens the transcript file at path to go on appending to
// it after a crash (Config.Resume): it reads and verifies every record,
// cuts off a last record left incomplete by the crash (the file is
// truncated to the end of the last complete one), and returns the
// Transcript, positioned at the end, with the records it holds. It refuses
// (errors name the path and the record) a file that is not a transcript
// or holds a record that does not verify: that is not a crash's damage.
func OpenTranscript(path string) (*Transcript, []*Opened, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("transcript: %w", err)
	}
	recs, err := LoadRecords(f, path)
	if err != nil && !errors.Is(err, ErrCutShort) {
		f.Close()
		return nil, nil, err
	}
	var end int64
	out := make([]*Opened, 0, len(recs))
	for _, rec := range recs {
		o, oerr := Open(rec.Envelope)
		if oerr != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: record %d at byte %d: %w", path, rec.Index, rec.Offset, oerr)
		}
		out = append(out, o)
		end = rec.Offset + int64(uvarintLen(uint64(len(rec.Envelope)))) + int64(len(rec.Envelope))
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	return &Transcript{w: f, sync: f.Sync, n: len(out)}, out, nil
}
