package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// builtBinary is the mentalmj command that the end-to-end tests run,
// built by the first one to ask (go build, a link of a few seconds of
// CPU) into a directory TestMain removes.
type builtBinary struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// built is the test binary's one build; TestMain owns its directory.
var built builtBinary

// get builds the command the first time and returns its path, or the
// build's error (with go build's output) every time.
func (b *builtBinary) get() (string, error) {
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "mentalmj-test-bin-")
		if b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "mentalmj")
		if out, err := exec.Command("go", "build", "-o", b.bin, ".").CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	return b.bin, b.err
}

// TestMain runs the tests and removes the shared build's directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
