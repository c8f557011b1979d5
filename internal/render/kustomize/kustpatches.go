package kustomize

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Which patch of a build set a field of a built object, so that a remedy
// names the overlay's patch file and line rather than the base's document.
// kustomize's own transformations annotation cannot tell: it records the
// kustomization that ran a patch transformer on every object of that
// layer, patched or not, and never the patch's file. So the scan keeps
// each kustomization's patches, and a field is the patch's when the patch
// targets the object and its content reaches the field.

// patchSource is one patch of a kustomization: a strategic-merge patch
// (a mapping document) or a JSON 6902 patch (a sequence of operations).
type patchSource struct {
	file   string // resolved: the patch file, or the kustomization for an inline patch
	offset int    // lines before the patch's text in file
	target *types.Selector
	docs   []*yaml.Node
}

// addPatches records the patches of the kustomization k in file, read
// through read (the guarded file system); onDisk: file is the repository's,
// not a controller's generated one. A patch that does not parse is
// left to kustomize, which says why; it names no field here.
func (d *dirSources) addPatches(file string, onDisk bool, k *types.Kustomization, resolve func(string) string, read func(string) ([]byte, error)) {
	var kdoc *yaml.Node
	if data, err := read(file); err == nil {
		kdoc, _ = firstDoc(data)
	}
	add := func(list string, i int, path, inline string, target *types.Selector) {
		p := patchSource{target: target}
		var data []byte
		switch {
		case path != "":
			p.file = resolve(path)
			if p.file == "" {
				return
			}
			b, err := read(p.file)
			if err != nil {
				return
			}
			data = b
		case inline != "" && onDisk:
			p.file, data = file, []byte(inline)
			p.offset = inlineOffset(kdoc, list, i)
		default:
			return
		}
		docs, err := allDocs(data)
		if err != nil {
			return
		}
		p.docs = docs
		d.patches = append(d.patches, p)
	}
	// kustomize applies patches, then patchesJson6902, then
	// patchesStrategicMerge (types.FixKustomizationPreMarshalling).
	for i, p := range k.Patches {
		add("patches", i, p.Path, p.Patch, p.Target)
	}
	//lint:ignore SA1019 deprecated, but kustomize still applies it
	for i, p := range k.PatchesJson6902 {
		add("patchesJson6902", i, p.Path, p.Patch, p.Target)
	}
	//lint:ignore SA1019 deprecated, but kustomize still applies it
	for i, p := range k.PatchesStrategicMerge {
		if s := string(p); strings.Contains(s, "\n") {
			add("patchesStrategicMerge", i, "", s, nil)
		} else {
			add("patchesStrategicMerge", i, s, "", nil)
		}
	}
}

// inlineOffset is how many lines of the kustomization come before the
// text of its list[i] inline patch (a block scalar starts on the next
// line); 0 when not found.
func inlineOffset(kdoc *yaml.Node, list string, i int) int {
	seq := mapValue(kdoc, list)
	if seq == nil || seq.Kind != yaml.SequenceNode || i >= len(seq.Content) {
		return 0
	}
	n := seq.Content[i]
	if n.Kind == yaml.MappingNode {
		if n = mapValue(n, "patch"); n == nil {
			return 0
		}
	}
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Line
	}
	return n.Line - 1
}

// setsIn is "file:line" of the patch that sets the field at p of obj,
// "" when none does: ps in the order kustomize applies them.
func setsIn(ps []patchSource, obj map[string]any, p fieldpath.Path, rel func(string) string) string {
	for i := len(ps) - 1; i >= 0; i-- {
		if line, ok := ps[i].sets(obj, p); ok {
			return rel(ps[i].file) + ":" + strconv.Itoa(ps[i].offset+line)
		}
	}
	return ""
}

// sets tells whether the patch applies to obj and sets the field at p (or
// something under it), with the line that does.
func (ps patchSource) sets(obj map[string]any, p fieldpath.Path) (int, bool) {
	for i := len(ps.docs) - 1; i >= 0; i-- {
		doc := ps.docs[i]
		switch doc.Kind {
		case yaml.MappingNode:
			if !ps.targets(obj, doc) {
				continue
			}
			if line, ok := mergeSets(doc, p); ok {
				return line, true
			}
		case yaml.SequenceNode:
			if ps.target == nil || !ps.targets(obj, nil) {
				continue
			}
			if line, ok := jsonPatchSets(doc, obj, p); ok {
				return line, true
			}
		}
	}
	return 0, false
}

// targets tells whether the patch applies to obj: by its target, else by
// the strategic-merge document's own kind and name. Names are matched
// anywhere in the built name, which outer layers may prefix or suffix.
func (ps patchSource) targets(obj map[string]any, doc *yaml.Node) bool {
	kind, _ := obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	if ps.target == nil {
		docKind, docName := scalar(mapValue(doc, "kind")), scalar(mapValue(mapValue(doc, "metadata"), "name"))
		return docKind == kind && docName != "" && strings.Contains(name, docName)
	}
	t := ps.target
	if t.Kind != "" && !matches("^(?:"+t.Kind+")$", kind) || t.Name != "" && !matches(t.Name, name) {
		return false
	}
	return selects(t.LabelSelector, meta["labels"]) && selects(t.AnnotationSelector, meta["annotations"])
}

func matches(expr, s string) bool {
	re, err := regexp.Compile(expr)
	return err == nil && re.MatchString(s)
}

func selects(selector string, set any) bool {
	if selector == "" {
		return true
	}
	sel, err := labels.Parse(selector)
	if err != nil {
		return false
	}
	m := labels.Set{}
	if values, ok := set.(map[string]any); ok {
		for k, v := range values {
			m[k] = fmt.Sprint(v)
		}
	}
	return sel.Matches(m)
}

// mergeSets walks a strategic-merge patch along p, as model.ValueAt walks
// an object: the patch sets the field when the whole path is in it.
func mergeSets(n *yaml.Node, p fieldpath.Path) (int, bool) {
	line := n.Line
	for _, pe := range p {
		n = deref(n)
		switch {
		case pe.FieldName != nil:
			key, value := mapEntry(n, *pe.FieldName)
			if value == nil {
				return 0, false
			}
			n, line = value, key.Line
		case n == nil || n.Kind != yaml.SequenceNode:
			return 0, false
		default:
			item := listItem(n.Content, pe)
			if item == nil {
				return 0, false
			}
			n, line = item, item.Line
		}
	}
	return line, true
}

// listItem is the item of a patch's list that pe selects.
func listItem(items []*yaml.Node, pe fieldpath.PathElement) *yaml.Node {
	if pe.Index != nil {
		if *pe.Index < 0 || *pe.Index >= len(items) {
			return nil
		}
		return items[*pe.Index]
	}
	values := make([]any, len(items))
	for i, it := range items {
		if err := it.Decode(&values[i]); err != nil {
			values[i] = nil
		}
	}
	i, ok := model.ItemIndex(values, pe)
	if !ok {
		return nil
	}
	return items[i]
}

// jsonPatchSets finds the last operation of a JSON 6902 patch that writes
// the field at p of obj or something under or above it.
func jsonPatchSets(ops *yaml.Node, obj map[string]any, p fieldpath.Path) (int, bool) {
	want, ok := pointerOf(obj, p)
	if !ok {
		return 0, false
	}
	for i := len(ops.Content) - 1; i >= 0; i-- {
		op := deref(ops.Content[i])
		switch scalar(mapValue(op, "op")) {
		case "add", "replace", "copy", "move":
		default:
			continue
		}
		key, path := mapEntry(op, "path")
		if path == nil {
			continue
		}
		if pointerOverlaps(splitPointer(scalar(path)), want) {
			return key.Line, true
		}
	}
	return 0, false
}

// pointerOf is p as the JSON pointer's segments into obj: a list item by
// its index in the built object, which is the index the operation wrote
// unless a later patch reordered the list (a strategic merge that puts
// its items first).
func pointerOf(obj map[string]any, p fieldpath.Path) ([]string, bool) {
	var cur any = obj
	out := make([]string, 0, len(p))
	for _, pe := range p {
		if pe.FieldName != nil {
			m, _ := cur.(map[string]any)
			cur = m[*pe.FieldName]
			out = append(out, *pe.FieldName)
			continue
		}
		list, _ := cur.([]any)
		i, ok := model.ItemIndex(list, pe)
		if !ok {
			return nil, false
		}
		cur = list[i]
		out = append(out, strconv.Itoa(i))
	}
	return out, true
}

func splitPointer(ptr string) []string {
	if ptr == "" || ptr == "/" {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return segs
}

// pointerOverlaps: one path is a prefix of the other; "-" (an append)
// stands for any index.
func pointerOverlaps(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] && a[i] != "-" {
			return false
		}
	}
	return true
}

func firstDoc(data []byte) (*yaml.Node, error) {
	docs, err := allDocs(data)
	if err != nil || len(docs) == 0 {
		return nil, err
	}
	return docs[0], nil
}

// allDocs parses a YAML stream into its documents' root nodes.
func allDocs(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(doc.Content) > 0 {
			out = append(out, deref(doc.Content[0]))
		}
	}
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// mapEntry is the key and value nodes of key in a mapping node.
func mapEntry(n *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], deref(n.Content[i+1])
		}
	}
	return nil, nil
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	_, v := mapEntry(n, key)
	return v
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// patchesFor are the patches of the build from top that apply to an
// object of file (as users see it), in the order kustomize applies them:
// a base's before its overlay's, a kustomization's components' before
// its own. rel turns a resolved path into what users see.
func (b *buildSources) patchesFor(top, file string, rel func(string) string) []patchSource {
	order := b.topological(top)
	reaches := map[string]bool{}
	var out []patchSource
	// Innermost first: every kustomization after all it reaches.
	for i := len(order) - 1; i >= 0; i-- {
		d := b.dirs[order[i]]
		if d == nil {
			continue
		}
		reach := rel(d.kustomization) == file
		for _, f := range d.files {
			reach = reach || rel(f) == file
		}
		for _, sub := range d.subdirs {
			reach = reach || reaches[sub]
		}
		reaches[order[i]] = reach
		if !reach || d.component {
			continue
		}
		for _, c := range d.components {
			if cd := b.dirs[c]; cd != nil {
				out = append(out, cd.patches...)
			}
		}
		out = append(out, d.patches...)
	}
	return out
}

// setPatchedAt gives each built object its model.Object.PatchedAt: nil
// when no patch of the build applies to its file.
func (b *buildSources) setPatchedAt(top string, out []source.RawObject, rel func(string) string) {
	byFile := map[string][]patchSource{}
	for i := range out {
		ps, ok := byFile[out[i].Source]
		if !ok {
			ps = b.patchesFor(top, out[i].Source, rel)
			byFile[out[i].Source] = ps
		}
		if len(ps) == 0 {
			continue
		}
		obj := out[i].Obj
		out[i].PatchedAt = func(p fieldpath.Path) string { return setsIn(ps, obj, p, rel) }
	}
}

func (b *buildSources) anyPatches() bool {
	for _, d := range b.dirs {
		if len(d.patches) > 0 {
			return true
		}
	}
	return false
}
