package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

// The string form of a field path is structured-merge-diff's: what
// fieldpath.Path.String prints (".spec.containers[name=\"app\"].image",
// "[=\"x\"]" for a set item, "[0]" for a list index) is what ParsePath
// reads, so that a user copies a path from a report into a rule. It is
// the one grammar of the module: config's rule patterns are this grammar
// with two wildcards (ParsePathPattern).

// stringMaps are the fields whose keys are free strings, dots included
// (".data.app.properties", ".metadata.annotations.example.com/x"): in the
// string form the rest of such a path up to the next "[" is one key. The
// string form does not quote field names, so elsewhere a dot splits.
var stringMaps = map[string]bool{"data": true, "stringData": true, "binaryData": true, "annotations": true, "labels": true}

// AnyKey is the field name that, in a pattern, selects every key of a
// map: ".*".
const AnyKey = "*"

// PathStep is one step of a path pattern: an element of a fieldpath.Path,
// or "[*]", every item of a list.
type PathStep struct {
	fieldpath.PathElement
	// AnyItem is "[*]"; the element is zero then.
	AnyItem bool
}

// String prints the step in the string form.
func (s PathStep) String() string {
	if s.AnyItem {
		return "[*]"
	}
	return s.PathElement.String()
}

// PathPatternString prints a pattern: the inverse of ParsePathPattern.
func PathPatternString(steps []PathStep) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.String())
	}
	return b.String()
}

// ParsePath reads a path in the string form into the fieldpath.Path the
// Secret and redaction rules walk; fieldpath.Path.String prints it back.
// A key of a string map (stringMaps) is read whole; "[*]" is an error, as
// a path names one place.
func ParsePath(s string) (fieldpath.Path, error) {
	steps, err := ParsePathPattern(s)
	if err != nil {
		return nil, err
	}
	p := make(fieldpath.Path, 0, len(steps))
	for _, st := range steps {
		if st.AnyItem {
			return nil, fmt.Errorf("path %q: [*] selects every item, not one place", s)
		}
		p = append(p, st.PathElement)
	}
	return p, nil
}

// ParsePathPattern reads the string form with "[*]" for every item of a
// list; ".*" is a field named AnyKey, which a matcher reads as every key.
func ParsePathPattern(s string) ([]PathStep, error) {
	var steps []PathStep
	rest := s
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if n := len(steps); n > 0 && steps[n-1].FieldName != nil && stringMaps[*steps[n-1].FieldName] {
				end = strings.IndexByte(rest, '[')
			}
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, fmt.Errorf("path %q: empty field name", s)
			}
			name := rest[:end]
			steps = append(steps, PathStep{PathElement: fieldpath.PathElement{FieldName: &name}})
			rest = rest[end:]
		case '[':
			end := indexUnquoted(rest[1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: missing ']' in %q", s, rest)
			}
			st, err := parseSelector(rest[1 : end+1])
			if err != nil {
				return nil, fmt.Errorf("path %q: %w", s, err)
			}
			steps = append(steps, st)
			rest = rest[end+2:]
		default:
			return nil, fmt.Errorf("path %q: expected '.' or '[' at %q", s, rest)
		}
	}
	return steps, nil
}

// indexUnquoted is the index of the first stop byte of s outside a quoted
// string (a key's value may hold ']' or ','), or -1.
func indexUnquoted(s string, stop byte) int {
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

// parseSelector reads "*", "=value", "N" or "k=v,k2=v2".
func parseSelector(body string) (PathStep, error) {
	switch {
	case body == "*":
		return PathStep{AnyItem: true}, nil
	case body == "":
		return PathStep{}, fmt.Errorf("empty []")
	case body[0] == '=':
		v, err := parseValue(body[1:])
		if err != nil {
			return PathStep{}, err
		}
		return PathStep{PathElement: fieldpath.PathElement{Value: &v}}, nil
	case strings.Trim(body, "0123456789") == "":
		i, err := strconv.Atoi(body)
		if err != nil {
			return PathStep{}, fmt.Errorf("bad index [%s]: %w", body, err)
		}
		return PathStep{PathElement: fieldpath.PathElement{Index: &i}}, nil
	}
	var key value.FieldList
	for _, part := range splitUnquoted(body, ',') {
		name, raw, ok := strings.Cut(part, "=")
		if !ok || name == "" {
			return PathStep{}, fmt.Errorf("expected key=value in [%s]", body)
		}
		v, err := parseValue(raw)
		if err != nil {
			return PathStep{}, err
		}
		key = append(key, value.Field{Name: name, Value: v})
	}
	key.Sort()
	return PathStep{PathElement: fieldpath.PathElement{Key: &key}}, nil
}

// parseValue reads a key or set value as value.ToString prints it: a Go
// quoted string, an integer, a float, true, false or null.
func parseValue(s string) (value.Value, error) {
	var v any
	switch {
	case s == "":
		return nil, fmt.Errorf("missing value")
	case s[0] == '"':
		u, err := strconv.Unquote(s)
		if err != nil {
			return nil, fmt.Errorf("bad quoted value %s", s)
		}
		v = u
	case s == "true", s == "false":
		v = s == "true"
	case s == "null":
	default:
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			v = i
		} else if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			v = f
		} else {
			return nil, fmt.Errorf("value %s must be a quoted string, a number, true, false or null", s)
		}
	}
	return value.NewValueInterface(v), nil
}

// splitUnquoted splits s at sep outside quoted strings.
func splitUnquoted(s string, sep byte) []string {
	var out []string
	for {
		i := indexUnquoted(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}
