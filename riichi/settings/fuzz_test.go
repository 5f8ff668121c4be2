package settings

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/riichi/settings/pb"
)

// FuzzFromProto feeds arbitrary bytes as a peer's settings: FromProto
// never panics, and what it accepts is valid and reads back the same
// from its own wire form.
func FuzzFromProto(f *testing.F) {
	for _, s := range []Settings{Default()} {
		b, _ := proto.Marshal(s.Proto())
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m pb.Settings
		if proto.Unmarshal(b, &m) != nil {
			return
		}
		s, err := FromProto(&m)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("accepted unplayable settings %+v: %v", s, err)
		}
		back, err := FromProto(s.Proto())
		if err != nil || back != s {
			t.Fatalf("accepted %+v, which reads back as %+v, %v", s, back, err)
		}
	})
}
