package typing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// Document is one group-version's OpenAPI v3 definitions
// (components.schemas), as the API server publishes them or a snapshot
// recorded them. Definitions stay raw JSON until a kind needs them.
type Document struct {
	defs map[string]json.RawMessage

	indexOnce sync.Once
	kinds     map[schema.GroupVersionKind]string
}

// ParseDocument reads an OpenAPI v3 document, or any JSON object with the
// same components.schemas (a snapshot's record).
func ParseDocument(b []byte) (*Document, error) {
	if defs, ok := componentsAtEnd(b); ok {
		return &Document{defs: defs}, nil
	}
	var d struct {
		Components components `json:"components"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("OpenAPI document: %w", err)
	}
	return &Document{defs: d.Components.Schemas}, nil
}

type components struct {
	Schemas map[string]json.RawMessage `json:"schemas"`
}

var componentsKey = []byte(`"components":`)

// componentsAtEnd reads the document's components without scanning its
// paths, which are two thirds of the API server's documents and which
// typing never needs. The server writes components last; when the first
// "components" key is not the document's last value (then it is not, or
// may not be, the top-level one), it gives up and the caller decodes the
// whole document.
func componentsAtEnd(b []byte) (map[string]json.RawMessage, bool) {
	i := bytes.Index(b, componentsKey)
	if i < 0 {
		return nil, false
	}
	rest := b[i+len(componentsKey):]
	dec := json.NewDecoder(bytes.NewReader(rest))
	var c components
	if err := dec.Decode(&c); err != nil {
		return nil, false
	}
	tail := bytes.TrimSpace(rest[dec.InputOffset():])
	if len(tail) != 1 || tail[0] != '}' {
		return nil, false
	}
	return c.Schemas, true
}

var gvkExtension = []byte(`"x-kubernetes-group-version-kind"`)

// model returns the name of the definition of a kind.
func (d *Document) model(gvk schema.GroupVersionKind) (string, bool) {
	d.indexOnce.Do(d.index)
	name, ok := d.kinds[gvk]
	return name, ok
}

// index reads the kinds of the definitions that name any, without parsing
// the others.
func (d *Document) index() {
	d.kinds = map[schema.GroupVersionKind]string{}
	for name, raw := range d.defs {
		if !bytes.Contains(raw, gvkExtension) {
			continue
		}
		var m struct {
			GVK []schema.GroupVersionKind `json:"x-kubernetes-group-version-kind"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		for _, gvk := range m.GVK {
			if gvk.Kind != "" {
				d.kinds[gvk] = name
			}
		}
	}
}

// Has tells whether the document defines the kind.
func (d *Document) Has(gvk schema.GroupVersionKind) bool {
	_, ok := d.model(gvk)
	return ok
}

// closure returns the raw definitions of the kinds and of everything they
// refer to.
func (d *Document) closure(gvks []schema.GroupVersionKind) (map[string]json.RawMessage, error) {
	var stack []string
	for _, gvk := range gvks {
		name, ok := d.model(gvk)
		if !ok {
			return nil, fmt.Errorf("%s is not in the document", gvk)
		}
		stack = append(stack, name)
	}
	out := map[string]json.RawMessage{}
	for len(stack) > 0 {
		name := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, done := out[name]; done {
			continue
		}
		raw, ok := d.defs[name]
		if !ok {
			return nil, fmt.Errorf("definition %s is referred to but not in the document", name)
		}
		out[name] = raw
		stack = append(stack, refs(raw)...)
	}
	return out, nil
}

var refKey = []byte(`"$ref"`)

const refPrefix = "#/components/schemas/"

// refs lists the definitions a raw schema refers to. A quote inside a JSON
// string is always escaped, so an unescaped "$ref" is a key; a property
// that happens to be named $ref has an object for value and is skipped.
func refs(raw []byte) []string {
	var out []string
	for {
		i := bytes.Index(raw, refKey)
		if i < 0 {
			return out
		}
		raw = raw[i+len(refKey):]
		rest := bytes.TrimLeft(raw, " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' {
			continue
		}
		end := bytes.IndexByte(rest[1:], '"')
		if end < 0 {
			return out
		}
		ref := string(rest[1 : 1+end])
		if len(ref) > len(refPrefix) && ref[:len(refPrefix)] == refPrefix {
			out = append(out, ref[len(refPrefix):])
		}
	}
}

// Converter builds the type converter of one kind from the definitions it
// needs: the same converter the API server's field manager uses.
func (d *Document) Converter(gvk schema.GroupVersionKind) (managedfields.TypeConverter, error) {
	raw, err := d.closure([]schema.GroupVersionKind{gvk})
	if err != nil {
		return nil, err
	}
	models := make(map[string]*spec.Schema, len(raw))
	for name, r := range raw {
		s := &spec.Schema{}
		if err := json.Unmarshal(r, s); err != nil {
			return nil, fmt.Errorf("definition %s: %w", name, err)
		}
		models[name] = s
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", gvk, err)
	}
	return tc, nil
}

// Subset returns the definitions the kinds need, descriptions left out, as
// a document of its own: what a snapshot records, so that the offline
// engine types these kinds as the API server did.
func (d *Document) Subset(gvks []schema.GroupVersionKind) (map[string]any, error) {
	raw, err := d.closure(gvks)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	defs := make(map[string]any, len(raw))
	for _, n := range names {
		var v map[string]any
		if err := json.Unmarshal(raw[n], &v); err != nil {
			return nil, fmt.Errorf("definition %s: %w", n, err)
		}
		stripDocs(v)
		defs[n] = v
	}
	return map[string]any{"components": map[string]any{"schemas": defs}}, nil
}

// stripDocs removes the descriptions of a schema and its subschemas (most
// of a document's bytes); values (default, enum) and extensions stay.
func stripDocs(s map[string]any) {
	delete(s, "description")
	for _, k := range []string{"properties", "patternProperties", "definitions"} {
		if m, ok := s[k].(map[string]any); ok {
			for _, v := range m {
				if sub, ok := v.(map[string]any); ok {
					stripDocs(sub)
				}
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties", "additionalItems", "not"} {
		if sub, ok := s[k].(map[string]any); ok {
			stripDocs(sub)
		}
	}
	for _, k := range []string{"items", "allOf", "anyOf", "oneOf"} {
		if l, ok := s[k].([]any); ok {
			for _, v := range l {
				if sub, ok := v.(map[string]any); ok {
					stripDocs(sub)
				}
			}
		}
	}
}
