package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// A config error names the file's line and the key it is about
// (".ownership-check.yaml:12: targets[3].paths: ..."), in YAML's words:
// the file is YAML, whatever the reader converts it to. sigs.k8s.io/yaml
// reads through JSON and keeps no lines, so the key an error names is
// looked up again in the file's YAML nodes.

// KeyError is an error about one key of a config file.
type KeyError struct {
	File string
	// Line is the key's line in File; 0 when it could not be found.
	Line int
	// Key is where the key is, as "targets[3].paths"; "" for the whole
	// file.
	Key string
	Err error
}

func (e *KeyError) Error() string {
	where := e.File
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
	}
	if e.Key == "" {
		return fmt.Sprintf("%s: %v", where, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", where, e.Key, e.Err)
}

func (e *KeyError) Unwrap() error { return e.Err }

var (
	syntaxLineRE   = regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: (?:unmarshal errors:\s+)?line (\d+): (.*)$`)
	unknownFieldRE = regexp.MustCompile(`unknown field "([^"]+)"`)
	typeRE         = regexp.MustCompile(`cannot unmarshal (\S+) into Go (?:struct field \w+\.(\S+)|value) of type (\S+)`)
	keyPrefixRE    = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*(?:\[\d+\])?(?:\.[A-Za-z][A-Za-z0-9]*(?:\[\d+\])?)*): (.*)$`)
)

// readError words an error of reading data (file) into a Config.
func readError(file string, data []byte, err error) error {
	msg := err.Error()
	if m := syntaxLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &KeyError{File: file, Line: n, Err: errors.New(m[2])}
	}
	root := parseNode(data)
	if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
		key, line := findKey(root, m[1])
		return &KeyError{File: file, Line: line, Key: key, Err: fmt.Errorf("unknown key %q (docs/config.md lists the keys)", m[1])}
	}
	if m := typeRE.FindStringSubmatch(msg); m != nil {
		key, line := findDotted(root, m[2], nodeKind(m[1]))
		return &KeyError{File: file, Line: line, Key: key, Err: fmt.Errorf("a %s where %s goes", yamlKind(m[1]), goType(m[3]))}
	}
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "error unmarshaling JSON: "), "while decoding JSON: ")
	return &KeyError{File: file, Err: errors.New(strings.TrimPrefix(msg, "json: "))}
}

// validateError places an error of Validate, which starts with the key
// it is about, at the key's line.
func validateError(file string, data []byte, err error) error {
	m := keyPrefixRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &KeyError{File: file, Err: err}
	}
	line := lineOf(parseNode(data), m[1])
	return &KeyError{File: file, Line: line, Key: m[1], Err: errors.New(m[2])}
}

func parseNode(data []byte) *yaml.Node {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// lineOf is the line of key ("targets[3].paths") in root, or of the
// deepest part of it found; 0 when none is.
func lineOf(root *yaml.Node, key string) int {
	n, line := root, 0
	for _, part := range strings.Split(key, ".") {
		name, idx := part, -1
		if i := strings.IndexByte(part, '['); i >= 0 {
			name = part[:i]
			idx, _ = strconv.Atoi(strings.TrimSuffix(part[i+1:], "]"))
		}
		k, v := mapEntry(n, name)
		if k == nil {
			return line
		}
		line, n = k.Line, v
		if idx >= 0 {
			if n.Kind != yaml.SequenceNode || idx >= len(n.Content) {
				return line
			}
			n = n.Content[idx]
			line = n.Line
		}
	}
	return line
}

func mapEntry(n *yaml.Node, name string) (key, value *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == name {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

// findKey finds the first key named name anywhere under n, depth first
// in file order, and says in which mapping and on which line it is.
func findKey(n *yaml.Node, name string) (string, int) {
	var walk func(n *yaml.Node, at string) (string, int)
	walk = func(n *yaml.Node, at string) (string, int) {
		if n == nil {
			return "", 0
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := join(at, n.Content[i].Value)
				if n.Content[i].Value == name {
					// The key is unknown: the error is about where it is.
					return at, n.Content[i].Line
				}
				if p, l := walk(n.Content[i+1], k); l > 0 {
					return p, l
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if p, l := walk(c, fmt.Sprintf("%s[%d]", at, i)); l > 0 {
					return p, l
				}
			}
		}
		return "", 0
	}
	return walk(n, "")
}

// nodeKind is the YAML node a JSON type was read from.
func nodeKind(jsonType string) yaml.Kind {
	switch jsonType {
	case "array":
		return yaml.SequenceNode
	case "object":
		return yaml.MappingNode
	}
	return yaml.ScalarNode
}

// findDotted finds the first place a dotted path of keys ("targets.paths",
// list indices left out, as encoding/json names a field) has a value of
// kind, with the indices.
func findDotted(n *yaml.Node, dotted string, kind yaml.Kind) (string, int) {
	parts := strings.Split(dotted, ".")
	var walk func(n *yaml.Node, at string, parts []string) (string, int)
	walk = func(n *yaml.Node, at string, parts []string) (string, int) {
		if n == nil {
			return "", 0
		}
		if n.Kind == yaml.SequenceNode {
			for i, c := range n.Content {
				if p, l := walk(c, fmt.Sprintf("%s[%d]", at, i), parts); l > 0 {
					return p, l
				}
			}
			return "", 0
		}
		k, v := mapEntry(n, parts[0])
		if k == nil {
			return "", 0
		}
		at = join(at, parts[0])
		if len(parts) == 1 {
			if v.Kind != kind {
				return "", 0
			}
			return at, k.Line
		}
		return walk(v, at, parts[1:])
	}
	if dotted == "" {
		return "", 0
	}
	return walk(n, "", parts)
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// yamlKind names a JSON type as the YAML it came from reads.
func yamlKind(t string) string {
	switch t {
	case "array":
		return "list"
	case "object":
		return "mapping"
	}
	return t
}

// goType names a Go type for a person writing YAML.
func goType(t string) string {
	switch {
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float"):
		return "a number"
	case t == "[]string":
		return "a list of strings"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	}
	return "a mapping"
}
