// Package secrets replaces the values of Kubernetes Secrets with salted
// hashes, so that snapshots and reports can compare Secret values without
// ever holding them.
package secrets

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"strings"
)

// KeyEnv names the environment variable that holds the optional HMAC key.
const KeyEnv = "OWNERSHIP_CHECK_SECRET_KEY"

// Algorithms, also the prefix of every hashed value.
const (
	AlgSHA256     = "sha256"
	AlgHMACSHA256 = "hmac-sha256"
)

// Hasher hashes Secret values with a salt and, when a key is set, an HMAC.
// The salt is public (it is kept in the snapshot's index), so without a key a
// short or guessable value can be found by trying candidates; the key makes
// that impossible for anyone who does not hold it.
type Hasher struct {
	salt []byte
	key  []byte
}

// New builds a Hasher. An empty key means plain salted SHA-256.
func New(salt string, key []byte) (Hasher, error) {
	if salt == "" {
		return Hasher{}, errors.New("secret hashing: empty salt")
	}
	return Hasher{salt: []byte(salt), key: append([]byte(nil), key...)}, nil
}

// KeyFromEnv returns the HMAC key from $OWNERSHIP_CHECK_SECRET_KEY, or nil.
func KeyFromEnv() []byte {
	if v := os.Getenv(KeyEnv); v != "" {
		return []byte(v)
	}
	return nil
}

// NewSalt returns a fresh random salt: 32 hex-encoded random bytes.
func NewSalt() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on supported platforms; a fixed salt
		// would silently weaken every hash, so refuse to go on.
		panic(fmt.Sprintf("secret hashing: no randomness: %v", err))
	}
	return hex.EncodeToString(b)
}

// Algorithm names the construction, as it prefixes every hashed value.
func (h Hasher) Algorithm() string {
	if len(h.key) > 0 {
		return AlgHMACSHA256
	}
	return AlgSHA256
}

// Salt returns the salt the Hasher was built with.
func (h Hasher) Salt() string { return string(h.salt) }

// KeyID identifies the HMAC key without revealing it, so that a reader can
// tell a missing or different key from changed values; empty without a key.
func (h Hasher) KeyID() string {
	if len(h.key) == 0 {
		return ""
	}
	m := hmac.New(sha256.New, h.key)
	m.Write([]byte("ownership-check key id\x00"))
	m.Write(h.salt)
	return hex.EncodeToString(m.Sum(nil))[:16]
}

// Hash returns "<algorithm>:<hex>" for a value. Equal bytes hash equal under
// one Hasher, whatever field they came from.
func (h Hasher) Hash(value []byte) string {
	var m hash.Hash
	if len(h.key) > 0 {
		m = hmac.New(sha256.New, h.key)
	} else {
		m = sha256.New()
	}
	// The salt has a fixed length per environment, so salt||value is
	// unambiguous without a separator.
	m.Write(h.salt)
	m.Write(value)
	return h.Algorithm() + ":" + hex.EncodeToString(m.Sum(nil))
}

// IsHash tells whether s has the form Hash produces under this Hasher.
func (h Hasher) IsHash(s string) bool {
	rest, ok := strings.CutPrefix(s, h.Algorithm()+":")
	if !ok || len(rest) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(rest)
	return err == nil
}
