package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

// ElementKind says what one step of a Path selects.
type ElementKind int

const (
	// Field selects a map key: ".replicas". Name "*" selects every key.
	Field ElementKind = iota
	// Keys selects the items of an associative list whose key fields have
	// the given values: [name="app"] or [containerPort=80,protocol="TCP"].
	Keys
	// AnyItem selects every item of a list: [*].
	AnyItem
	// Value selects the item of a set equal to a value: [="foo"].
	Value
	// Index selects a list item by position: [0].
	Index
)

// Key is one key field of a Keys element.
type Key struct {
	Name  string
	Value any // string, int64, float64, bool or nil, as JSON decodes them
}

// Element is one step of a Path.
type Element struct {
	Kind  ElementKind
	Name  string // Field
	Keys  []Key  // Keys
	Value any    // Value
	Index int    // Index
}

// AnyName is the Field name that selects every key of a map.
const AnyName = "*"

// Path is a field path in structured-merge-diff's string form
// (".spec.template.spec.containers[name=\"app\"].resources"), with two
// wildcards: ".*" for every key of a map and "[*]" for every item of a list.
//
// Field names are split at dots when parsed, because the string form does
// not quote them: ".metadata.annotations.example.com/x" is ambiguous until
// matched against a real object or path, and matching joins consecutive
// field steps to find "example.com/x".
type Path struct {
	text     string
	elements []Element
}

// String gives the path as written.
func (p Path) String() string { return p.text }

// Elements gives the parsed steps.
func (p Path) Elements() []Element { return p.elements }

// ParsePath parses a path in structured-merge-diff's string form.
func ParsePath(s string) (Path, error) {
	p := Path{text: s}
	rest := s
	if rest == "" {
		return Path{}, fmt.Errorf("empty path")
	}
	if rest[0] != '.' {
		return Path{}, fmt.Errorf("path %q must start with a field, e.g. \".spec.replicas\"", s)
	}
	for rest != "" {
		var e Element
		var err error
		switch rest[0] {
		case '.':
			e, rest, err = parseField(rest[1:])
		case '[':
			e, rest, err = parseSelector(rest[1:])
		default:
			err = fmt.Errorf("expected '.' or '[' at %q", rest)
		}
		if err != nil {
			return Path{}, fmt.Errorf("path %q: %w", s, err)
		}
		p.elements = append(p.elements, e)
	}
	return p, nil
}

// MustParsePath is ParsePath for constants; it panics on a bad path.
func MustParsePath(s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

func parseField(s string) (Element, string, error) {
	end := strings.IndexAny(s, ".[")
	if end < 0 {
		end = len(s)
	}
	name := s[:end]
	if name == "" {
		return Element{}, "", fmt.Errorf("empty field name before %q", s)
	}
	return Element{Kind: Field, Name: name}, s[end:], nil
}

func parseSelector(s string) (Element, string, error) {
	end, err := selectorEnd(s)
	if err != nil {
		return Element{}, "", err
	}
	body, rest := s[:end], s[end+1:]
	switch {
	case body == "*":
		return Element{Kind: AnyItem}, rest, nil
	case body == "":
		return Element{}, "", fmt.Errorf("empty []")
	case body[0] == '=':
		v, err := parseValue(body[1:])
		if err != nil {
			return Element{}, "", err
		}
		return Element{Kind: Value, Value: v}, rest, nil
	case body[0] >= '0' && body[0] <= '9':
		i, err := strconv.Atoi(body)
		if err != nil {
			return Element{}, "", fmt.Errorf("bad index [%s]", body)
		}
		return Element{Kind: Index, Index: i}, rest, nil
	}
	keys, err := parseKeys(body)
	if err != nil {
		return Element{}, "", err
	}
	return Element{Kind: Keys, Keys: keys}, rest, nil
}

// selectorEnd finds the ']' closing a selector, skipping quoted strings
// (a key value may contain ']' or ',').
func selectorEnd(s string) (int, error) {
	if i := model.IndexUnquoted(s, ']'); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("missing ']' in %q", "["+s)
}

func parseKeys(body string) ([]Key, error) {
	var keys []Key
	for body != "" {
		eq := strings.IndexByte(body, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("expected key=value in [%s]", body)
		}
		name := body[:eq]
		body = body[eq+1:]
		end := valueEnd(body)
		v, err := parseValue(body[:end])
		if err != nil {
			return nil, err
		}
		keys = append(keys, Key{Name: name, Value: v})
		body = body[end:]
		if body != "" {
			if body[0] != ',' {
				return nil, fmt.Errorf("expected ',' before %q", body)
			}
			body = body[1:]
		}
	}
	return keys, nil
}

// valueEnd is where a key's value ends: the next ',' outside quotes.
func valueEnd(s string) int {
	if i := model.IndexUnquoted(s, ','); i >= 0 {
		return i
	}
	return len(s)
}

// parseValue reads a key or set value: a quoted string, an integer, a
// float, true, false or null, as value.ToString writes them.
func parseValue(s string) (any, error) {
	switch {
	case s == "":
		return nil, fmt.Errorf("missing value")
	case s[0] == '"':
		v, err := strconv.Unquote(s)
		if err != nil {
			return nil, fmt.Errorf("bad quoted value %s", s)
		}
		return v, nil
	case s == "true":
		return true, nil
	case s == "false":
		return false, nil
	case s == "null":
		return nil, nil
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, nil
	}
	return nil, fmt.Errorf("value %s must be a quoted string, a number, true, false or null", s)
}

// FieldSpan tells how many consecutive Field steps from i, joined with
// dots, spell name; 0 when they do not. A wildcard step matches one whole
// name.
func FieldSpan(elements []Element, i int, name string) int {
	if i >= len(elements) || elements[i].Kind != Field {
		return 0
	}
	if elements[i].Name == AnyName {
		return 1
	}
	joined := ""
	for j := i; j < len(elements) && elements[j].Kind == Field && elements[j].Name != AnyName; j++ {
		if j > i {
			joined += "."
		}
		joined += elements[j].Name
		if joined == name {
			return j - i + 1
		}
		if len(joined) >= len(name) || !strings.HasPrefix(name, joined+".") {
			return 0
		}
	}
	return 0
}

// MatchItem tells whether a list item (as decoded JSON) is selected by a
// Keys, AnyItem or Value step at position index.
func (e Element) MatchItem(item any, index int) bool {
	switch e.Kind {
	case AnyItem:
		return true
	case Index:
		return e.Index == index
	case Value:
		return equalValues(e.Value, item)
	case Keys:
		m, ok := item.(map[string]any)
		if !ok {
			return false
		}
		for _, k := range e.Keys {
			v, found := m[k.Name]
			if !found || !equalValues(k.Value, v) {
				return false
			}
		}
		return true
	}
	return false
}

func equalValues(a, b any) bool {
	return value.Equals(value.NewValueInterface(a), value.NewValueInterface(b))
}

// Covers tells whether fp is at or below a location the path selects: an
// ignored subtree hides all its leaves.
func (p Path) Covers(fp fieldpath.Path) bool {
	return coversFrom(p.elements, 0, fp)
}

func coversFrom(elements []Element, i int, fp fieldpath.Path) bool {
	if i == len(elements) {
		return true
	}
	if len(fp) == 0 {
		return false
	}
	pe := fp[0]
	e := elements[i]
	switch {
	case pe.FieldName != nil:
		n := FieldSpan(elements, i, *pe.FieldName)
		return n > 0 && coversFrom(elements, i+n, fp[1:])
	case pe.Key != nil:
		if e.Kind == AnyItem {
			return coversFrom(elements, i+1, fp[1:])
		}
		if e.Kind != Keys || len(e.Keys) != len(*pe.Key) {
			return false
		}
		for _, k := range e.Keys {
			v, ok := fieldValue(*pe.Key, k.Name)
			if !ok || !value.Equals(value.NewValueInterface(k.Value), v) {
				return false
			}
		}
		return coversFrom(elements, i+1, fp[1:])
	case pe.Value != nil:
		if e.Kind == AnyItem || (e.Kind == Value && value.Equals(value.NewValueInterface(e.Value), *pe.Value)) {
			return coversFrom(elements, i+1, fp[1:])
		}
		return false
	case pe.Index != nil:
		if e.Kind == AnyItem || (e.Kind == Index && e.Index == *pe.Index) {
			return coversFrom(elements, i+1, fp[1:])
		}
		return false
	}
	return false
}

func fieldValue(fl value.FieldList, name string) (value.Value, bool) {
	for _, f := range fl {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}
