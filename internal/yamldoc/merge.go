package yamldoc

import (
	"bytes"
	"fmt"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// ToJSON is one document (Doc.Text) as JSON, read strictly as the API
// server reads it: a key set twice is an error. A merge key (`<<: *base`)
// that a key of the same mapping overrides is no such error: kustomize's
// YAML (go-yaml v3) accepts it, the explicit key winning over the merged
// one wherever it is written, and an earlier merged mapping over a later
// one; the strict parser refuses it, so such a document is read again with
// its merges resolved that way. Lines in an error are the document's.
func ToJSON(text []byte) ([]byte, error) {
	j, err := yaml.YAMLToJSONStrict(text)
	if err == nil || !bytes.Contains(text, []byte("<<")) {
		return j, err
	}
	var doc yaml3.Node
	if yaml3.Unmarshal(text, &doc) != nil {
		return nil, err
	}
	if !resolveMerges(&doc, map[*yaml3.Node]bool{}) {
		return nil, err
	}
	if dup := duplicateKey(&doc); dup != nil {
		return nil, fmt.Errorf("yaml: unmarshal errors:\n  line %d: key %q already set in map", dup.Line, dup.Value)
	}
	plainTags(&doc)
	merged, merr := yaml3.Marshal(&doc)
	if merr != nil {
		return nil, err
	}
	return yaml.YAMLToJSONStrict(merged)
}

// resolveMerges replaces each mapping's `<<` entries by the keys they
// merge that the mapping does not set itself. done marks the mappings
// resolved (an anchored one is met at every alias). false: a `<<` whose
// value is not a mapping or a list of mappings, which the strict parser's
// error says better.
func resolveMerges(n *yaml3.Node, done map[*yaml3.Node]bool) bool {
	if n.Kind == yaml3.AliasNode {
		return n.Alias == nil || resolveMerges(n.Alias, done)
	}
	if done[n] {
		return true
	}
	done[n] = true
	for _, c := range n.Content {
		if !resolveMerges(c, done) {
			return false
		}
	}
	if n.Kind != yaml3.MappingNode {
		return true
	}
	var own, sources []*yaml3.Node
	set := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			own = append(own, k, v)
			set[k.Value] = true
			continue
		}
		v = deref(v)
		switch v.Kind {
		case yaml3.MappingNode:
			sources = append(sources, v)
		case yaml3.SequenceNode:
			for _, s := range v.Content {
				if s = deref(s); s.Kind != yaml3.MappingNode {
					return false
				}
				sources = append(sources, s)
			}
		default:
			return false
		}
	}
	if len(sources) == 0 {
		return true
	}
	for _, s := range sources {
		for i := 0; i+1 < len(s.Content); i += 2 {
			k := s.Content[i]
			if set[k.Value] {
				continue
			}
			set[k.Value] = true
			own = append(own, unanchored(k), unanchored(s.Content[i+1]))
		}
	}
	n.Content = own
	return true
}

func isMergeKey(k *yaml3.Node) bool {
	return k.Kind == yaml3.ScalarNode && k.Value == "<<" && (k.Tag == "!!merge" || k.Tag == "")
}

func deref(n *yaml3.Node) *yaml3.Node {
	for n.Kind == yaml3.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// unanchored is a merged node without its anchor, which its copy would
// define a second time.
func unanchored(n *yaml3.Node) *yaml3.Node {
	if n.Anchor == "" {
		return n
	}
	c := *n
	c.Anchor = ""
	return &c
}

// duplicateKey is a key a mapping sets twice itself, nil when none does.
func duplicateKey(n *yaml3.Node) *yaml3.Node {
	if n.Kind == yaml3.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml3.ScalarNode {
				if seen[k.Value] {
					return k
				}
				seen[k.Value] = true
			}
		}
	}
	for _, c := range n.Content {
		if d := duplicateKey(c); d != nil {
			return d
		}
	}
	return nil
}

// plainTags drops the tags the parser resolved, so that each scalar is
// written back as it was written and the strict parser reads it as it
// reads every other document (yes, on, 0755 included); an explicit tag
// stays.
func plainTags(n *yaml3.Node) {
	if n.Kind == yaml3.ScalarNode && n.Style&yaml3.TaggedStyle == 0 {
		n.Tag = ""
	}
	for _, c := range n.Content {
		plainTags(c)
	}
}
