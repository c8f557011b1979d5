package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

// stringMaps are the fields whose keys are free strings, dots included
// (".data.app.properties", ".metadata.annotations.example.com/x"): in the
// string form the rest of such a path up to the next "[" is one key.
var stringMaps = map[string]bool{"data": true, "stringData": true, "binaryData": true, "annotations": true, "labels": true}

// ParsePathString reads a path in structured-merge-diff's string form, as
// findings carry it, into the form the Secret and redaction rules walk, so
// that a rule is written once over fieldpath.Path. The string form does not
// quote field names; a key of a string map (stringMaps) is read whole.
func ParsePathString(s string) (fieldpath.Path, error) {
	var p fieldpath.Path
	rest := s
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if n := len(p); n > 0 && p[n-1].FieldName != nil && stringMaps[*p[n-1].FieldName] {
				end = strings.IndexByte(rest, '[')
			}
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, fmt.Errorf("path %q: empty field name", s)
			}
			name := rest[:end]
			p = append(p, fieldpath.PathElement{FieldName: &name})
			rest = rest[end:]
		case '[':
			end := selectorEnd(rest)
			if end < 0 {
				return nil, fmt.Errorf("path %q: unterminated [", s)
			}
			pe, err := parseSelector(rest[1:end])
			if err != nil {
				return nil, fmt.Errorf("path %q: %w", s, err)
			}
			p = append(p, pe)
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("path %q: expected '.' or '[' at %q", s, rest)
		}
	}
	return p, nil
}

// selectorEnd is the index of the "]" that closes the selector rest starts
// with; -1 when there is none.
func selectorEnd(rest string) int {
	i := IndexUnquoted(rest[1:], ']')
	if i < 0 {
		return -1
	}
	return i + 1
}

// IndexUnquoted is the index of the first stop byte of s outside a quoted
// string (a key's value may hold ']' or ','), or -1: the one scanner of the
// string form, for config's paths too.
func IndexUnquoted(s string, stop byte) int {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == stop:
			return i
		}
	}
	return -1
}

// parseSelector reads "=value", "N" or "k=v,k2=v2" (values are JSON).
func parseSelector(body string) (fieldpath.PathElement, error) {
	switch {
	case strings.HasPrefix(body, "="):
		v, err := jsonValue(body[1:])
		if err != nil {
			return fieldpath.PathElement{}, err
		}
		return fieldpath.PathElement{Value: &v}, nil
	case body != "" && body[0] >= '0' && body[0] <= '9':
		i, err := strconv.Atoi(body)
		if err != nil {
			return fieldpath.PathElement{}, fmt.Errorf("bad index [%s]", body)
		}
		return fieldpath.PathElement{Index: &i}, nil
	}
	var key value.FieldList
	for _, part := range splitUnquoted(body, ',') {
		name, raw, ok := strings.Cut(part, "=")
		if !ok || name == "" {
			return fieldpath.PathElement{}, fmt.Errorf("bad key %q", part)
		}
		v, err := jsonValue(raw)
		if err != nil {
			return fieldpath.PathElement{}, err
		}
		key = append(key, value.Field{Name: name, Value: v})
	}
	key.Sort()
	return fieldpath.PathElement{Key: &key}, nil
}

func jsonValue(raw string) (value.Value, error) {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return nil, fmt.Errorf("value %s: %w", raw, err)
	}
	return value.NewValueInterface(v), nil
}

// splitUnquoted splits s at sep outside quoted strings.
func splitUnquoted(s string, sep byte) []string {
	var out []string
	for {
		i := IndexUnquoted(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}
