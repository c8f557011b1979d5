package model

import (
	"path"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

// The redaction rule, the Secret rule's neighbour: values that are
// secret-like without being in a Secret (a password in a container's env,
// set by hand; a token in a ConfigMap) are hidden like a Secret's, in every
// comment, summary, annotation, log and JSON report. Values are still
// compared; only their text is never shown.
//
// Hidden by default: the value of an env var (env[name=N].value, in any
// container of any object) and of a ConfigMap's data or binaryData key K
// whose name is secret-like (SecretLikeName). The repository config adds
// names and paths (Redaction).

// secretWords are the words that make a name secret-like, whole words
// only: "API_KEY" and "apiKey" are secret-like, "KEYBOARD" and "MONKEY"
// are not. A trailing "s" is allowed ("SECRETS", "keys").
var secretWords = map[string]bool{
	"password": true, "passwd": true, "passphrase": true, "pwd": true,
	"secret": true, "token": true, "key": true, "credential": true, "creds": true,
	// Words commonly written as one: "APIKEY", "privatekey".
	"apikey": true, "privatekey": true, "accesskey": true, "secretkey": true,
}

// SecretLikeName tells whether an env var name or a ConfigMap key names a
// secret-like value: one of its words is a secret word (secretWords).
// Words are split at every character that is not a letter or digit and at
// case changes (dbPassword, APIKey → api, key), and compared in lower case.
func SecretLikeName(name string) bool {
	for _, w := range words(name) {
		w = strings.ToLower(w)
		if secretWords[w] || (len(w) > 1 && strings.HasSuffix(w, "s") && secretWords[w[:len(w)-1]]) {
			return true
		}
	}
	return false
}

// words splits an identifier: at non-alphanumerics, between a lower-case
// letter or digit and an upper-case one (dbPassword), and before the last
// upper-case letter of a run followed by lower case (APIKey → API, Key).
func words(s string) []string {
	var out []string
	r := []rune(s)
	start := -1
	for i, c := range r {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			if start >= 0 {
				out = append(out, string(r[start:i]))
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := r[i-1]
		boundary := unicode.IsUpper(c) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) ||
			unicode.IsUpper(c) && unicode.IsUpper(prev) && i+1 < len(r) && unicode.IsLower(r[i+1])
		if boundary {
			out = append(out, string(r[start:i]))
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(r[start:]))
	}
	return out
}

// Redaction is the redaction rule of one check: the defaults and the
// repository config's additions. The zero value (and nil) is the defaults.
type Redaction struct {
	// Names are more env var names and ConfigMap keys whose values are
	// hidden: shell patterns (path.Match), matched against the whole name,
	// case-insensitively.
	Names []string
	// Paths tells whether a rule of the repository config hides the value
	// at p of an object (p is at or below a path it selects); nil for
	// none. A value above such a path is hidden for what it holds: list
	// items are addressed by their name key, else by position.
	Paths func(id ID, p fieldpath.Path) bool
	// Hidden are values hidden wherever they are, in any object, whole or
	// within a longer text: the run's set, which holds a Secret's values
	// the render put into objects (Object.HiddenValues) and those read for
	// a controller's values.
	Hidden *Hidden
}

// holdsValue tells whether v, a scalar, holds one of the values hidden
// wherever they are.
func (r *Redaction) holdsValue(v any) bool {
	if r == nil || r.Hidden.Len() == 0 || v == nil {
		return false
	}
	if _, ok := v.(map[string]any); ok {
		return false
	}
	if _, ok := v.([]any); ok {
		return false
	}
	return r.Hidden.Holds(valueText(v))
}

// Hides tells whether the value at p of object id must never be shown: a
// Secret's (HiddenPath), or a secret-like one at p, or anywhere in v, the
// value at p (a whole container, or a whole ConfigMap's data, holds the
// values below it).
func (r *Redaction) Hides(id ID, p fieldpath.Path, v any) bool {
	if id.IsSecret() {
		return HiddenPath(p)
	}
	if r.hidesAt(id, p) || r.holdsValue(v) {
		return true
	}
	return r.hidesWithin(id, p, v)
}

// hidesAt applies the rule to one path, without looking at its value.
func (r *Redaction) hidesAt(id ID, p fieldpath.Path) bool {
	if r != nil && r.Paths != nil && r.Paths(id, p) {
		return true
	}
	if isCore(id.Group, id.Kind, "ConfigMap") && len(p) >= 2 && p[0].FieldName != nil && p[1].FieldName != nil &&
		(*p[0].FieldName == "data" || *p[0].FieldName == "binaryData") {
		return r.secretLike(*p[1].FieldName)
	}
	// env[name=N] and env[name=N].value; valueFrom only names a Secret.
	for i := 0; i+1 < len(p); i++ {
		if p[i].FieldName == nil || *p[i].FieldName != "env" || p[i+1].Key == nil {
			continue
		}
		rest := p[i+2:]
		if len(rest) > 0 && (rest[0].FieldName == nil || *rest[0].FieldName != "value") {
			continue
		}
		if name, ok := keyName(*p[i+1].Key); ok && r.secretLike(name) {
			return true
		}
	}
	return false
}

func keyName(key value.FieldList) (string, bool) {
	for _, f := range key {
		if f.Name == "name" && f.Value.IsString() {
			return f.Value.AsString(), true
		}
	}
	return "", false
}

// hidesWithin walks v, the value at p, for a hidden path below p. List
// items are addressed by their name key when they have one, as env items
// are, else by position.
func (r *Redaction) hidesWithin(id ID, p fieldpath.Path, v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			child := append(p.Copy(), fieldpath.PathElement{FieldName: &k})
			if r.hidesAt(id, child) || r.holdsValue(e) || r.hidesWithin(id, child, e) {
				return true
			}
		}
	case []any:
		for i, e := range x {
			child := append(p.Copy(), itemElement(i, e))
			if r.hidesAt(id, child) || r.holdsValue(e) || r.hidesWithin(id, child, e) {
				return true
			}
		}
	}
	return false
}

// itemElement is the path element of item i of a list: keyed by its name
// where it has one (env, containers, volumes: the lists the rule selects
// in), else by position.
func itemElement(i int, e any) fieldpath.PathElement {
	if m, ok := e.(map[string]any); ok {
		if name, ok := m["name"].(string); ok {
			return fieldpath.PathElement{Key: &value.FieldList{{Name: "name", Value: value.NewValueInterface(name)}}}
		}
	}
	return fieldpath.PathElement{Index: &i}
}

func (r *Redaction) secretLike(name string) bool {
	if SecretLikeName(name) {
		return true
	}
	if r == nil {
		return false
	}
	lower := strings.ToLower(name)
	for _, pattern := range r.Names {
		if ok, err := path.Match(strings.ToLower(pattern), lower); err == nil && ok {
			return true
		}
	}
	return false
}

// HiddenValues is the set of every value the two rules hide in the given
// copies of one object (rendered, live, predicted): a Secret's values, else
// the secret-like values of the redaction rule; and the values hidden
// wherever they are. Its HideIn is the one way a server's message about
// the object is made fit to show.
func (r *Redaction) HiddenValues(objs ...*unstructured.Unstructured) *Hidden {
	out := &Hidden{}
	if r != nil {
		out.Merge(r.Hidden)
	}
	for _, u := range objs {
		if IsSecret(u) {
			out.Merge(SecretValues(objs...))
			return out
		}
	}
	for _, u := range objs {
		if u == nil {
			continue
		}
		id := idOfContent(u.Object)
		r.collect(id, fieldpath.Path{}, u.Object, false, out)
	}
	return out
}

// collect adds every scalar at or below a hidden path.
func (r *Redaction) collect(id ID, p fieldpath.Path, v any, hidden bool, set *Hidden) {
	hidden = hidden || (len(p) > 0 && r.hidesAt(id, p))
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			// An item's name key is in every path that names the item:
			// not a value to hide.
			h := hidden && !(k == "name" && isKeyOf(p, e))
			r.collect(id, append(p.Copy(), fieldpath.PathElement{FieldName: &k}), e, h, set)
		}
	case []any:
		for i, e := range x {
			r.collect(id, append(p.Copy(), itemElement(i, e)), e, hidden, set)
		}
	default:
		if (hidden || r.holdsValue(v)) && v != nil {
			set.Add(valueText(v))
		}
	}
}

// isKeyOf tells whether v is the name key of the item p ends at.
func isKeyOf(p fieldpath.Path, v any) bool {
	if len(p) == 0 || p[len(p)-1].Key == nil {
		return false
	}
	name, ok := keyName(*p[len(p)-1].Key)
	return ok && v == name
}

// idOfContent is the identity of an object's content, enough for the
// rule: group, kind, namespace and name.
func idOfContent(obj map[string]any) ID {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group := schema.FromAPIVersionAndKind(apiVersion, kind).Group
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return ID{Group: group, Kind: kind, Namespace: ns, Name: name}
}

// SecretLikeAt is the default redaction rule for what a finding or a
// change is about (Finding.At): the report's own check, which needs no
// repository config. The same rule as Hides; no path is left to the rule
// the producer applied.
func SecretLikeAt(apiVersion, kind string, p fieldpath.Path) bool {
	id := ID{Group: schema.FromAPIVersionAndKind(apiVersion, kind).Group, Kind: kind}
	return (*Redaction)(nil).hidesAt(id, p)
}
