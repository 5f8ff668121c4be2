package node

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
	cryptopb "github.com/libp2p/go-libp2p/core/crypto/pb"
)

// IdentityFile is the name of the identity key file inside a data directory.
// It holds one private key in the libp2p protobuf encoding
// (crypto.MarshalPrivateKey; libp2p specs, peer-ids/peer-ids.md "Keys"),
// written with mode 0600.
const IdentityFile = "identity.key"

// NewIdentity returns a fresh Ed25519 libp2p private key drawn from
// crypto/rand. The peer ID derived from it (peer.IDFromPrivateKey) is the
// player's name at the table. It returns an error only if the system random
// source fails.
func NewIdentity() (crypto.PrivKey, error) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating Ed25519 identity: %w", err)
	}
	return key, nil
}

// WriteIdentity writes key to the file path in the libp2p protobuf encoding
// with mode 0600. It never overwrites: an existing file is an error wrapping
// fs.ErrExist. Errors name the file. A launcher that pre-creates four
// identities calls NewIdentity and WriteIdentity four times.
func WriteIdentity(path string, key crypto.PrivKey) error {
	if key == nil {
		return fmt.Errorf("identity file %s: no key to write", path)
	}
	data, err := crypto.MarshalPrivateKey(key)
	if err != nil {
		return fmt.Errorf("identity file %s: encoding key: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("identity file %s: %w", path, err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(path)
		return fmt.Errorf("identity file %s: writing: %w", path, werr)
	}
	return nil
}

// ReadIdentity reads the private key stored in the file path by
// WriteIdentity. It returns an error naming the file if the file cannot be
// read, does not decode as a libp2p private key, or holds a key that is not
// Ed25519.
func ReadIdentity(path string) (crypto.PrivKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("identity file %s: %w", path, err)
	}
	key, err := crypto.UnmarshalPrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("identity file %s: not a libp2p private key: %w", path, err)
	}
	if key.Type() != cryptopb.KeyType_Ed25519 {
		return nil, fmt.Errorf("identity file %s: key type %s, want Ed25519", path, key.Type())
	}
	return key, nil
}

// LoadOrCreateIdentity returns the Ed25519 identity kept in
// dataDir/IdentityFile, so that a player keeps the same peer ID across
// restarts. If the file does not exist it creates dataDir (mode 0700) if
// needed, generates a key with NewIdentity and writes it with WriteIdentity
// (mode 0600). An unreadable or malformed file, or one holding a non-Ed25519
// key, is an error naming the file; it is never silently replaced.
func LoadOrCreateIdentity(dataDir string) (crypto.PrivKey, error) {
	path := filepath.Join(dataDir, IdentityFile)
	key, err := ReadIdentity(path)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dataDir, err)
	}
	key, err = NewIdentity()
	if err != nil {
		return nil, err
	}
	if err := WriteIdentity(path, key); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another process created it between our read and write.
			return ReadIdentity(path)
		}
		return nil, err
	}
	return key, nil
}
