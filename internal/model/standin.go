package model

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// A pull request controls templates and substitutions that can transform
// a value beyond anything a mask recognises (base32, case, substrings,
// hashes), so during a check no byte of a cluster Secret, nor of a
// SOPS-encrypted Secret of the repository, reaches a render: each value
// stands there as a placeholder, and the pull request transforms that
// instead (docs/security.md, "Secrets a render reads").

// SecretKey names one key of one Secret.
type SecretKey struct{ Namespace, Name, Key string }

func (k SecretKey) String() string {
	return fmt.Sprintf("Secret %s/%s key %s", k.Namespace, k.Name, k.Key)
}

// runKey makes the placeholders of one run: the same Secret key gets the
// same placeholder in every render of the run (the head's and the base's
// compare equal), and nobody can tell from a placeholder which value it
// stands for.
var (
	runKeyOnce sync.Once
	runKey     [32]byte
)

func standInKey() []byte {
	runKeyOnce.Do(func() {
		if _, err := rand.Read(runKey[:]); err != nil {
			panic("no randomness for Secret stand-ins: " + err.Error())
		}
	})
	return runKey[:]
}

// standInLen is a placeholder's length: 1 letter and 31 hex digits, lower
// case, so that it is a valid DNS label and survives a template's case
// change, and long enough that no two keys share one.
const standInLen = 32

// StandIns are the placeholders one render hands out for Secret values,
// and the record of which it handed out. nil stands for no stand-ins: the
// render reads the real values (`snapshot`, after the deploy, on the
// trusted revision). Safe for concurrent use.
type StandIns struct {
	variant byte
	mu      sync.Mutex
	handed  map[string]SecretKey
}

// NewStandIns is a render's first set of placeholders.
func NewStandIns() *StandIns { return &StandIns{} }

// Other is a second set for the same render, with other placeholders for
// every key: what differs between the two renders depends on a Secret.
func (s *StandIns) Other() *StandIns {
	if s == nil {
		return nil
	}
	return &StandIns{variant: s.variant + 1}
}

// Value is the placeholder of one key, recorded as handed out.
func (s *StandIns) Value(k SecretKey) string {
	mac := hmac.New(sha256.New, standInKey())
	fmt.Fprintf(mac, "%d\x00%s\x00%s\x00%s", s.variant, k.Namespace, k.Name, k.Key)
	v := "s" + hex.EncodeToString(mac.Sum(nil))[:standInLen-1]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handed == nil {
		s.handed = map[string]SecretKey{}
	}
	s.handed[v] = k
	return v
}

// Data is a Secret's data as a render may see it: each key's placeholder.
func (s *StandIns) Data(namespace, name string, keys []string) map[string]string {
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = s.Value(SecretKey{Namespace: namespace, Name: name, Key: k})
	}
	return out
}

// Secret is a copy of a Secret object as a render may see it: its data
// (and stringData's keys) as placeholders, base64 in data as the API
// gives it, and no last-applied annotation, which holds the values too.
// Any other object is returned as it is.
func (s *StandIns) Secret(obj map[string]any) map[string]any {
	if obj == nil || obj["kind"] != "Secret" {
		return obj
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	data := map[string]any{}
	for _, field := range []string{"data", "stringData"} {
		m, _ := obj[field].(map[string]any)
		for k := range m {
			data[k] = base64.StdEncoding.EncodeToString([]byte(s.Value(SecretKey{Namespace: ns, Name: name, Key: k})))
		}
	}
	delete(out, "stringData")
	if len(data) > 0 {
		out["data"] = data
	}
	if meta != nil {
		m := make(map[string]any, len(meta))
		for k, v := range meta {
			m[k] = v
		}
		if a, ok := meta["annotations"].(map[string]any); ok {
			kept := make(map[string]any, len(a))
			for k, v := range a {
				if k != LastAppliedAnnotation {
					kept[k] = v
				}
			}
			m["annotations"] = kept
		}
		delete(m, "managedFields")
		out["metadata"] = m
	}
	return out
}

// Used is every key handed out, in order.
func (s *StandIns) Used() []SecretKey {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SecretKey, 0, len(s.handed))
	for _, k := range s.handed {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

// Hidden is every placeholder handed out, for the writers to show as
// hidden where one appears as it is.
func (s *StandIns) Hidden() *Hidden {
	h := &Hidden{}
	if s == nil {
		return h
	}
	s.mu.Lock()
	vals := make([]string, 0, len(s.handed))
	for v := range s.handed {
		vals = append(vals, v)
	}
	s.mu.Unlock()
	h.Add(vals...)
	return h
}

// In is the keys whose placeholder text holds as it is (case aside, as a
// template may change it).
func (s *StandIns) In(text string) []SecretKey {
	if s == nil || text == "" {
		return nil
	}
	lower := strings.ToLower(text)
	s.mu.Lock()
	var out []SecretKey
	for v, k := range s.handed {
		if strings.Contains(lower, v) {
			out = append(out, k)
		}
	}
	s.mu.Unlock()
	sortKeys(out)
	return out
}

func sortKeys(keys []SecretKey) {
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
}

// SecretKeys is "Secret a/b key k, Secret c/d key l".
func SecretKeys(keys []SecretKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}

// Register hands out the keys' placeholders, as if the render had read
// them itself: a placeholder a parent's substitution wrote into the
// object a target is rendered with (Deployer.StandIns) is known as one.
func (s *StandIns) Register(keys []SecretKey) {
	if s == nil {
		return
	}
	for _, k := range keys {
		s.Value(k)
	}
}

// Swap is text with each key's placeholder of s written as other's, as
// it is and in upper case (what a substitution's case change leaves).
func (s *StandIns) Swap(text string, keys []SecretKey, other *StandIns) string {
	for _, k := range keys {
		from, to := s.Value(k), other.Value(k)
		text = strings.ReplaceAll(text, from, to)
		text = strings.ReplaceAll(text, strings.ToUpper(from), strings.ToUpper(to))
	}
	return text
}
