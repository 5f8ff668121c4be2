package node

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/mentalmj/mentalmj/protocol"
)

// frame encodes msg with the standard library's uvarint, independently of
// go-msgio's writer.
func frame(msg []byte) []byte {
	return append(binary.AppendUvarint(nil, uint64(len(msg))), msg...)
}

func TestReadFrames(t *testing.T) {
	t.Parallel()
	max := protocol.MaxMessageSize
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name   string
		in     []byte
		frames int
		check  func(error) bool
	}{
		{"clean end", cat(frame([]byte("a")), frame(nil), frame(make([]byte, max))), 3,
			func(err error) bool { return errors.Is(err, io.EOF) }},
		{"empty stream", nil, 0, func(err error) bool { return errors.Is(err, io.EOF) }},
		{"one byte over", cat(frame([]byte("ok")), binary.AppendUvarint(nil, uint64(max+1))), 1,
			func(err error) bool {
				var e errFrameTooLarge
				return errors.As(err, &e) && e.size == max+1 && errors.Is(err, ErrFrameTooLarge)
			}},
		{"huge length", binary.AppendUvarint(nil, 1<<62), 0,
			func(err error) bool { return errors.Is(err, ErrFrameTooLarge) }},
		{"varint overflow", bytes.Repeat([]byte{0xff}, 12), 0,
			func(err error) bool {
				return err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, ErrFrameTooLarge)
			}},
		{"non-minimal varint", []byte{0x81, 0x00, 'x'}, 0,
			func(err error) bool { return err != nil && !errors.Is(err, io.EOF) }},
		{"truncated body", cat(frame([]byte("ok")), []byte{10, 'a', 'b'}), 1,
			func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }},
		{"truncated length", []byte{0x80}, 0,
			func(err error) bool { return err != nil && !errors.Is(err, ErrFrameTooLarge) }},
	}
	for _, tc := range cases {
		var got int
		err := readFrames(bytes.NewReader(tc.in), func([]byte) bool { got++; return true })
		if got != tc.frames || !tc.check(err) {
			t.Errorf("%s: %d frames, err %v", tc.name, got, err)
		}
	}
}

// FuzzReadFrames checks that no input makes readFrames panic or deliver a
// frame over MaxMessageSize, and that what it delivers agrees with the
// standard library's uvarint decoding of the same bytes.
func FuzzReadFrames(f *testing.F) {
	f.Add(append(frame([]byte("hello")), frame(nil)...))
	f.Add(binary.AppendUvarint(nil, protocol.MaxMessageSize+1))
	f.Add(bytes.Repeat([]byte{0xff}, 11))
	f.Add([]byte{0x80, 0x00})
	f.Add([]byte{5, 'a'})
	f.Fuzz(func(t *testing.T, data []byte) {
		var got [][]byte
		err := readFrames(bytes.NewReader(data), func(m []byte) bool {
			got = append(got, bytes.Clone(m))
			return true
		})
		if err == nil {
			t.Fatal("readFrames returned nil although deliver never stopped it")
		}
		off := 0
		for i, m := range got {
			if len(m) > protocol.MaxMessageSize {
				t.Fatalf("frame %d has %d bytes", i, len(m))
			}
			size, k := binary.Uvarint(data[off:])
			if k <= 0 || size != uint64(len(m)) || !bytes.Equal(m, data[off+k:off+k+len(m)]) {
				t.Fatalf("frame %d disagrees with the uvarint decoding at offset %d", i, off)
			}
			off += k + len(m)
		}
		if errors.Is(err, io.EOF) && off != len(data) {
			t.Fatalf("clean EOF after %d of %d bytes", off, len(data))
		}
	})
}
