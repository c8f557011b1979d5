package kustomize

import (
	"strings"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// buildSources is what the scan saw of one build, enough to tell which
// document or generator entry each built object came from without
// kustomize's origin annotations. Those make kustomize record every
// transformer on every object (it doubles the cost of a build, see
// docs/benchmarks.md), and they are bookkeeping that can leak into the
// output (a replacement that copies a whole annotations map).
//
// An object comes from the one document of its kind whose name is the
// longest part of the object's name (kustomize adds prefixes, suffixes
// and hashes, never removes), or from the one generator entry that
// creates it. Where that is not certain (two candidates, none, a document
// claimed more often than the build reaches it, or a build whose objects
// may come from no file: helm charts, generator and transformer plugins),
// the build is run again with origin annotations for the sources alone.
type buildSources struct {
	dirs map[string]*dirSources // by resolved directory
	// opaque: some objects may come from no file the scan read.
	opaque bool
}

// dirSources is one kustomization of the build.
type dirSources struct {
	kustomization string   // resolved path of its file
	files         []string // resource files, resolved, as often as listed
	subdirs       []string // bases and components, resolved, as often as listed
	generators    []generatorEntry
	// components are those it lists, resolved: their patches apply to its
	// objects (kustpatches.go).
	components []string
	component  bool
	patches    []patchSource
}

// generatorEntry is a configMapGenerator or secretGenerator entry that
// creates an object (merge and replace change one created elsewhere).
type generatorEntry struct {
	kind, name string // ConfigMap or Secret
}

func newBuildSources() *buildSources {
	return &buildSources{dirs: map[string]*dirSources{}}
}

// add records a kustomization the scan read.
func (b *buildSources) add(dir, file string, k *types.Kustomization) *dirSources {
	d := &dirSources{kustomization: file, component: k.Kind == types.ComponentKind}
	for _, g := range k.ConfigMapGenerator {
		if creates(g.Behavior) {
			d.generators = append(d.generators, generatorEntry{kind: "ConfigMap", name: g.Name})
		}
	}
	for _, g := range k.SecretGenerator {
		if creates(g.Behavior) {
			d.generators = append(d.generators, generatorEntry{kind: "Secret", name: g.Name})
		}
	}
	if len(k.HelmCharts) > 0 || len(k.Generators) > 0 || len(k.Transformers) > 0 {
		b.opaque = true
	}
	b.dirs[dir] = d
	return d
}

func creates(behavior string) bool {
	return behavior == "" || behavior == "create"
}

// location is where an object came from: a document of a resource file,
// or a generator entry of a kustomization file (line found later).
type location struct {
	file      string // resolved
	line      int    // of the document; 0 for a generator entry
	generator string // ConfigMapGenerator or SecretGenerator; "" for a document
}

// reach counts how often the build reaches each location: a base listed
// by two overlays of the build yields its objects twice.
func (b *buildSources) reach(top string, lines *source.LineIndex) map[location]int {
	mult := map[string]int{top: 1}
	// Kustomizations form a DAG (the scan refused cycles); visit each
	// after all that reference it.
	order := b.topological(top)
	for _, dir := range order {
		d := b.dirs[dir]
		if d == nil {
			continue
		}
		for _, sub := range d.subdirs {
			mult[sub] += mult[dir]
		}
	}
	out := map[location]int{}
	for _, dir := range order {
		d := b.dirs[dir]
		if d == nil {
			continue
		}
		for _, f := range d.files {
			docs, _ := lines.Indexed(f)
			for _, doc := range docs {
				out[location{file: f, line: doc.Line}] += mult[dir]
			}
		}
		for _, g := range d.generators {
			out[location{file: d.kustomization, generator: g.kind + "Generator"}] += mult[dir]
		}
	}
	return out
}

func (b *buildSources) topological(top string) []string {
	indeg := map[string]int{}
	seen := map[string]bool{top: true}
	queue := []string{top}
	for i := 0; i < len(queue); i++ {
		if d := b.dirs[queue[i]]; d != nil {
			for _, sub := range d.subdirs {
				indeg[sub]++
				if !seen[sub] {
					seen[sub] = true
					queue = append(queue, sub)
				}
			}
		}
	}
	order := []string{top}
	for i := 0; i < len(order); i++ {
		if d := b.dirs[order[i]]; d != nil {
			for _, sub := range d.subdirs {
				if indeg[sub]--; indeg[sub] == 0 {
					order = append(order, sub)
				}
			}
		}
	}
	return order
}

// sourceMatcher finds the location of built objects by kind and name.
type sourceMatcher struct {
	byKind map[string]map[string][]location // kind → original name → locations
	reach  map[location]int
	claims map[location]int
}

func newSourceMatcher(b *buildSources, top string, lines *source.LineIndex) *sourceMatcher {
	m := &sourceMatcher{byKind: map[string]map[string][]location{}, reach: b.reach(top, lines), claims: map[location]int{}}
	add := func(kind, name string, loc location) {
		if kind == "" || name == "" {
			return
		}
		names := m.byKind[kind]
		if names == nil {
			names = map[string][]location{}
			m.byKind[kind] = names
		}
		for _, l := range names[name] {
			if l == loc {
				return
			}
		}
		names[name] = append(names[name], loc)
	}
	for _, d := range b.dirs {
		for _, f := range d.files {
			docs, _ := lines.Indexed(f)
			for _, doc := range docs {
				add(doc.Kind, doc.Name, location{file: f, line: doc.Line})
			}
		}
		for _, g := range d.generators {
			add(g.kind, g.name, location{file: d.kustomization, generator: g.kind + "Generator"})
		}
	}
	return m
}

// match gives the one location whose name is the longest part of name;
// false when there is none or more than one.
func (m *sourceMatcher) match(kind, name string) (location, bool) {
	names := m.byKind[kind]
	if len(names) == 0 {
		return location{}, false
	}
	if locs, ok := names[name]; ok {
		return m.claim(locs)
	}
	// Longest first: "web-config" before "web" in "prod-web-config-h4sh".
	for l := len(name) - 1; l > 0; l-- {
		var found []location
		for i := 0; i+l <= len(name); i++ {
			found = append(found, names[name[i:i+l]]...)
		}
		if len(found) > 0 {
			return m.claim(found)
		}
	}
	return location{}, false
}

func (m *sourceMatcher) claim(locs []location) (location, bool) {
	if len(locs) != 1 {
		return location{}, false
	}
	m.claims[locs[0]]++
	return locs[0], true
}

// consistent tells whether no location was claimed by more objects than
// the build makes from it: if one was, some object was matched to
// another's document (a name that happens to contain another's).
func (m *sourceMatcher) consistent() bool {
	for loc, n := range m.claims {
		if n > m.reach[loc] {
			return false
		}
	}
	return true
}

// bookkeeping tells whether an annotation key is kustomize's (or kyaml's)
// own record of a build: never part of what the deploy applies, wherever
// in an object it ends up.
func bookkeeping(key string) bool {
	switch key {
	case OriginAnnotation, transformationsAnnotation,
		"config.kubernetes.io/index", "config.kubernetes.io/path", "config.k8s.io/id":
		return true
	}
	return strings.HasPrefix(key, internalAnnotationPrefix)
}

// StripBookkeeping removes bookkeeping keys from every map in v, and the
// maps that held nothing else, and tells whether v itself is such a map:
// kustomize strips them from each object's own annotations only, so a
// replacement copying a whole annotations map (into a pod template, say)
// carries them along, even in kubectl kustomize.
func StripBookkeeping(v any) (emptied bool) {
	switch t := v.(type) {
	case map[string]any:
		removed := false
		for k, ch := range t {
			if bookkeeping(k) || StripBookkeeping(ch) {
				delete(t, k)
				removed = true
			}
		}
		return removed && len(t) == 0
	case []any:
		for _, ch := range t {
			StripBookkeeping(ch)
		}
	}
	return false
}
