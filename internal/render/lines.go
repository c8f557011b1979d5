package render

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// lineIndex finds the line of a kustomize-built object in its source file.
// kustomize records the file, not the document; the document is found by
// kind and by the name before kustomize's prefixes, suffixes and hashes.
// Builds running side by side share it.
type lineIndex struct {
	fs   *guardFS
	mu   sync.Mutex
	docs map[string][]docMeta
	// parsed counts the objects of the files the scanner parsed strictly.
	parsed map[string]int
}

type docMeta struct {
	line       int
	kind, name string
}

func newLineIndex(fs *guardFS) *lineIndex {
	return &lineIndex{fs: fs, docs: map[string][]docMeta{}, parsed: map[string]int{}}
}

func (x *lineIndex) content(file string) []byte {
	real, err := x.fs.boundary.Resolve(file)
	if err != nil {
		return nil
	}
	if data, ok := x.fs.original(real); ok {
		return data
	}
	data, err := x.fs.ReadFile(real)
	if err != nil {
		return nil
	}
	return data
}

// record keeps what the scanner parsed of a resource file (real path), so
// that it is not parsed again.
func (x *lineIndex) record(real string, objs []rawObject) {
	docs := make([]docMeta, len(objs))
	for i, o := range objs {
		kind, _ := o.obj["kind"].(string)
		docs[i] = docMeta{line: o.line, kind: kind, name: nameOf(o.obj)}
	}
	x.mu.Lock()
	x.docs[real] = docs
	x.parsed[real] = len(objs)
	x.mu.Unlock()
}

// parsedObjects gives how many objects the scanner found in a file (real
// path) it parsed strictly.
func (x *lineIndex) parsedObjects(real string) (int, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n, ok := x.parsed[real]
	return n, ok
}

func (x *lineIndex) indexed(file string) ([]docMeta, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	d, ok := x.docs[file]
	return d, ok
}

func (x *lineIndex) index(file string) []docMeta {
	if real, err := x.fs.boundary.Resolve(file); err == nil {
		file = real
	}
	if d, ok := x.indexed(file); ok {
		return d
	}
	var docs []docMeta
	for _, c := range yamldoc.Split(x.content(file)) {
		if c.Line == 0 {
			continue
		}
		var head struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if yaml.Unmarshal(c.Text, &head) == nil {
			docs = append(docs, docMeta{line: c.Line, kind: head.Kind, name: head.Metadata.Name})
		}
	}
	x.mu.Lock()
	x.docs[file] = docs
	x.mu.Unlock()
	return docs
}

// objectLine gives the line of the document in file that produced an
// object of this kind and (rendered) name; 0 when it cannot tell.
func (x *lineIndex) objectLine(file, kind, name string) int {
	var best docMeta
	candidates := 0
	for _, d := range x.index(file) {
		if d.kind != kind {
			continue
		}
		candidates++
		if d.name == name {
			return d.line
		}
		if d.name != "" && strings.Contains(name, d.name) && len(d.name) > len(best.name) {
			best = d
		}
	}
	if best.line == 0 && candidates == 1 {
		for _, d := range x.index(file) {
			if d.kind == kind {
				return d.line
			}
		}
	}
	return best.line
}

var (
	topLevelKey = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*):`)
	nameLine    = regexp.MustCompile(`^\s*(?:-\s+)?name:\s*["']?([^"'#\s]+)["']?\s*(?:#.*)?$`)
)

// generatorLine gives the line of the generator entry in a kustomization
// that made an object: the "name:" under the generator's field
// (configMapGenerator for a ConfigMapGenerator) that is the longest part
// of the object's name (which carries prefixes, suffixes and a hash); 0
// when not found.
func (x *lineIndex) generatorLine(file, generatorKind, objectName string) int {
	section := ""
	if generatorKind != "" {
		section = strings.ToLower(generatorKind[:1]) + generatorKind[1:]
	}
	current, best, bestLen := "", 0, 0
	sc := bufio.NewScanner(bytes.NewReader(x.content(file)))
	sc.Buffer(make([]byte, 64*1024), MaxFileSize+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := topLevelKey.FindStringSubmatch(line); m != nil {
			current = m[1]
			continue
		}
		if section != "" && current != section {
			continue
		}
		if m := nameLine.FindStringSubmatch(line); m != nil && strings.Contains(objectName, m[1]) && len(m[1]) > bestLen {
			best, bestLen = n, len(m[1])
		}
	}
	return best
}

func nameOf(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	return name
}
