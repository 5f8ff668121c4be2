package node

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// specVectors reads testdata/peer_id_vectors.txt (libp2p peer-ids spec).
func specVectors(t *testing.T) map[string][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "peer_id_vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hx, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad vector line %q", line)
		}
		b, err := hex.DecodeString(hx)
		if err != nil {
			t.Fatalf("vector %s: %v", name, err)
		}
		out[name] = b
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLoadOrCreateIdentityReusesKey(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "player") // not yet existing
	k1, err := LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, IdentityFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("identity file mode %o, want 600", st.Mode().Perm())
	}
	k2, err := LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	id1, _ := peer.IDFromPrivateKey(k1)
	id2, _ := peer.IDFromPrivateKey(k2)
	if id1 != id2 {
		t.Fatalf("reloaded identity has peer ID %s, first run had %s", id2, id1)
	}
	other, err := LoadOrCreateIdentity(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if id3, _ := peer.IDFromPrivateKey(other); id3 == id1 {
		t.Fatal("two data directories produced the same identity")
	}
}

func TestReadIdentitySpecVector(t *testing.T) {
	t.Parallel()
	v := specVectors(t)
	path := filepath.Join(t.TempDir(), IdentityFile)
	if err := os.WriteFile(path, v["ed25519-private"], 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := ReadIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := crypto.MarshalPublicKey(key.GetPublic())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pub, v["ed25519-public"]) {
		t.Fatalf("public key of spec private key = %x, spec says %x", pub, v["ed25519-public"])
	}
	// Writing it back yields the spec's encoding byte for byte.
	path2 := filepath.Join(t.TempDir(), IdentityFile)
	if err := WriteIdentity(path2, key); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path2)
	if !bytes.Equal(got, v["ed25519-private"]) {
		t.Fatalf("written identity = %x, spec encoding %x", got, v["ed25519-private"])
	}
}

func TestReadIdentityRejectsBadFiles(t *testing.T) {
	t.Parallel()
	v := specVectors(t)
	dir := t.TempDir()
	cases := map[string][]byte{
		"secp256k1.key": v["secp256k1-private"],
		"garbage.key":   []byte("not a key at all"),
		"empty.key":     {},
	}
	for name, data := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := ReadIdentity(path)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
	// The wrong key type is said so.
	_, err := ReadIdentity(filepath.Join(dir, "secp256k1.key"))
	if err == nil || !strings.Contains(err.Error(), "Ed25519") {
		t.Errorf("secp256k1 key: error %v does not say Ed25519 is wanted", err)
	}
	// LoadOrCreateIdentity never replaces a bad file.
	bad := t.TempDir()
	path := filepath.Join(bad, IdentityFile)
	if err := os.WriteFile(path, []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateIdentity(bad); err == nil {
		t.Fatal("LoadOrCreateIdentity accepted a corrupt identity file")
	}
	if got, _ := os.ReadFile(path); string(got) != "junk" {
		t.Fatal("LoadOrCreateIdentity overwrote a corrupt identity file")
	}
}

func TestWriteIdentityRefusesToOverwrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), IdentityFile)
	k1, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteIdentity(path, k1); err != nil {
		t.Fatal(err)
	}
	k2, _ := NewIdentity()
	err = WriteIdentity(path, k2)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second WriteIdentity: %v, want fs.ErrExist", err)
	}
	got, err := ReadIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equals(k1) {
		t.Fatal("identity file changed by a refused write")
	}
}
