package terminal

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestConfirm(t *testing.T) {
	for in, want := range map[string]bool{
		"y\n": true, "YES\n": true, " yes \r\n": true, "y": true,
		"\n": false, "n\n": false, "no\n": false, "yep\n": false, "": false, "\x00y\n": true,
	} {
		var out bytes.Buffer
		if got := Confirm(strings.NewReader(in), &out, "play?"); got != want {
			t.Errorf("Confirm(%q) = %v, want %v", in, got, want)
		}
		if !strings.HasPrefix(out.String(), "play? [y/N] ") {
			t.Errorf("prompt %q", out.String())
		}
	}
}

// Confirm leaves what follows its line for the table's reader.
func TestConfirmLeavesTheRest(t *testing.T) {
	in := strings.NewReader("y\n3\npass\n")
	if !Confirm(in, io.Discard, "play?") {
		t.Fatal("not confirmed")
	}
	rest, _ := io.ReadAll(in)
	if string(rest) != "3\npass\n" {
		t.Fatalf("left %q, want the next lines whole", rest)
	}
}
