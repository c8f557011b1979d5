package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// maxAliasNodes bounds how many nodes YAML aliases may add to a file
// beyond its own: kustomize copies every alias (a "billion laughs" file of
// a few hundred bytes expands to gigabytes), so such files are refused
// before kustomize parses them.
const maxAliasNodes = 100_000

// checkYAML refuses alias bombs in any file that parses as YAML, and
// duplicate keys in YAML files (the YAML spec forbids them; parsers
// silently keep one of the values). Files that do not parse are left to
// their reader: a properties file is not YAML.
func checkYAML(file string, data []byte) error {
	return checkYAMLFor(file, data, mayHaveAliases(data), isYAMLName(file))
}

// CheckAliasBombs is checkYAML without the duplicate-key check, for data
// about to be parsed strictly (sigs.k8s.io/yaml refuses duplicate keys
// itself): one parse fewer for every manifest.
func CheckAliasBombs(file string, data []byte) error {
	return checkYAMLFor(file, data, mayHaveAliases(data), false)
}

// mayHaveAliases: an alias (*name) needs an anchor (&name), so data
// without both characters has none, and needs no YAML parse to tell.
func mayHaveAliases(data []byte) bool {
	return bytes.IndexByte(data, '*') >= 0 && bytes.IndexByte(data, '&') >= 0
}

func checkYAMLFor(file string, data []byte, aliases, dupKeys bool) error {
	if !aliases && !dupKeys {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil
		}
		if aliases {
			if err := checkAliases(file, &doc); err != nil {
				return err
			}
		}
		if dupKeys {
			if err := checkDuplicateKeys(file, &doc); err != nil {
				return err
			}
		}
	}
}

func isYAMLName(file string) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return filepath.Base(file) == "Kustomization"
}

func checkAliases(file string, doc *yaml.Node) error {
	real := countNodes(doc)
	limit := real + max(real, maxAliasNodes)
	if n := expandedNodes(doc, map[*yaml.Node]int{}, limit); n > limit {
		return fmt.Errorf("%s:%d: YAML aliases expand this document beyond %d nodes; refusing it (a \"billion laughs\" document?)", file, doc.Line, limit)
	}
	return nil
}

func countNodes(n *yaml.Node) int {
	c := 1
	for _, ch := range n.Content {
		c += countNodes(ch)
	}
	return c
}

// expandedNodes counts the nodes of n with every alias replaced by its
// anchor's content, stopping early past limit.
func expandedNodes(n *yaml.Node, memo map[*yaml.Node]int, limit int) int {
	if c, ok := memo[n]; ok {
		return c
	}
	memo[n] = limit + 1 // an alias cycle counts as too large
	c := 1
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		c = expandedNodes(n.Alias, memo, limit)
	}
	for _, ch := range n.Content {
		c += expandedNodes(ch, memo, limit)
		if c > limit {
			break
		}
	}
	memo[n] = c
	return c
}

func checkDuplicateKeys(file string, n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Value == "<<" {
				continue
			}
			if first, dup := seen[k.Value]; dup {
				return fmt.Errorf("%s:%d: duplicate key %q (first at line %d)", file, k.Line, k.Value, first)
			}
			seen[k.Value] = k.Line
		}
	}
	for _, ch := range n.Content {
		if err := checkDuplicateKeys(file, ch); err != nil {
			return err
		}
	}
	return nil
}
