package source

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// LineIndex finds the line of a kustomize-built object in its source file.
// kustomize records the file, not the document; the document is found by
// kind and by the name before kustomize's prefixes, suffixes and hashes.
// Builds running side by side share it.
type LineIndex struct {
	fs   *GuardFS
	mu   sync.Mutex
	docs map[string][]docMeta
	// parsed counts the objects of the files the scanner parsed strictly.
	parsed map[string]int
}

type docMeta struct {
	Line       int
	Kind, Name string
}

func NewLineIndex(fs *GuardFS) *LineIndex {
	return &LineIndex{fs: fs, docs: map[string][]docMeta{}, parsed: map[string]int{}}
}

func (x *LineIndex) content(file string) []byte {
	real, err := x.fs.Boundary.Resolve(file)
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

// Record keeps what the scanner parsed of a resource file (real path), so
// that it is not parsed again.
func (x *LineIndex) Record(real string, objs []RawObject) {
	docs := make([]docMeta, len(objs))
	for i, o := range objs {
		kind, _ := o.Obj["kind"].(string)
		docs[i] = docMeta{Line: o.Line, Kind: kind, Name: NameOf(o.Obj)}
	}
	x.mu.Lock()
	x.docs[real] = docs
	x.parsed[real] = len(objs)
	x.mu.Unlock()
}

// ParsedObjects gives how many objects the scanner found in a file (real
// path) it parsed strictly.
func (x *LineIndex) ParsedObjects(real string) (int, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n, ok := x.parsed[real]
	return n, ok
}

func (x *LineIndex) Indexed(file string) ([]docMeta, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	d, ok := x.docs[file]
	return d, ok
}

func (x *LineIndex) index(file string) []docMeta {
	if real, err := x.fs.Boundary.Resolve(file); err == nil {
		file = real
	}
	if d, ok := x.Indexed(file); ok {
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
			docs = append(docs, docMeta{Line: c.Line, Kind: head.Kind, Name: head.Metadata.Name})
		}
	}
	x.mu.Lock()
	x.docs[file] = docs
	x.mu.Unlock()
	return docs
}

// ObjectLine gives the line of the document in file that produced an
// object of this kind and (rendered) name; 0 when it cannot tell.
func (x *LineIndex) ObjectLine(file, kind, name string) int {
	var best docMeta
	candidates := 0
	for _, d := range x.index(file) {
		if d.Kind != kind {
			continue
		}
		candidates++
		if d.Name == name {
			return d.Line
		}
		if d.Name != "" && strings.Contains(name, d.Name) && len(d.Name) > len(best.Name) {
			best = d
		}
	}
	if best.Line == 0 && candidates == 1 {
		for _, d := range x.index(file) {
			if d.Kind == kind {
				return d.Line
			}
		}
	}
	return best.Line
}

var (
	topLevelKey = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*):`)
	nameLine    = regexp.MustCompile(`^\s*(?:-\s+)?name:\s*["']?([^"'#\s]+)["']?\s*(?:#.*)?$`)
)

// GeneratorLine gives the line of the generator entry in a kustomization
// that made an object: the "name:" under the generator's field
// (configMapGenerator for a ConfigMapGenerator) that is the longest part
// of the object's name (which carries prefixes, suffixes and a hash); 0
// when not found.
func (x *LineIndex) GeneratorLine(file, generatorKind, objectName string) int {
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

func NameOf(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	return name
}
