package gitops

import (
	"fmt"
	"strings"
)

// The readers of an object's fields: an absent field is the zero value; a
// field of another type is an error naming the file, line and field,
// because the controller would refuse the object.

func field(obj map[string]any, path []string) (any, bool) {
	var v any = obj
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok || v == nil {
			return nil, false
		}
	}
	return v, true
}

func typeError(d document, path []string, v any, want string) error {
	return fmt.Errorf("%s: %s %s: .%s is %s, not %s", d.where(), d.kind(), d.name(), strings.Join(path, "."), describe(v), want)
}

func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

func (d document) name() string {
	m, _ := d.obj["metadata"].(map[string]any)
	n, _ := m["name"].(string)
	return n
}

func (d document) str(path ...string) (string, error) { return str(d, d.obj, path...) }

func str(d document, obj map[string]any, path ...string) (string, error) {
	v, ok := field(obj, path)
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", typeError(d, path, v, "a string")
	}
	return s, nil
}

func (d document) boolean(path ...string) (bool, error) {
	v, ok := field(d.obj, path)
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, typeError(d, path, v, "a boolean")
	}
	return b, nil
}

func (d document) mapping(path ...string) (map[string]any, error) {
	v, ok := field(d.obj, path)
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(d, path, v, "a mapping")
	}
	return m, nil
}

// list is a list of mappings.
func (d document) list(path ...string) ([]map[string]any, error) {
	v, ok := field(d.obj, path)
	if !ok {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, typeError(d, path, v, "a list")
	}
	out := make([]map[string]any, 0, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, typeError(d, append(path[:len(path):len(path)], fmt.Sprint(i)), e, "a mapping")
		}
		out = append(out, m)
	}
	return out, nil
}

// strings is a list of strings.
func (d document) strings(path ...string) ([]string, error) {
	v, ok := field(d.obj, path)
	if !ok {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, typeError(d, path, v, "a list")
	}
	out := make([]string, 0, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, typeError(d, append(path[:len(path):len(path)], fmt.Sprint(i)), e, "a string")
		}
		out = append(out, s)
	}
	return out, nil
}
