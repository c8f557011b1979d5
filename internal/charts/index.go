package charts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"helm.sh/helm/v3/pkg/repo"
)

// The bounds of reading an index file, beside its 50 MiB on the wire:
// Helm's loader takes some twenty-five times an index's size in memory
// (a 48 MiB index, over 1 GiB at its peak: docs/benchmarks.md), so it is
// given only the part of the index one chart needs.
const (
	// maxChartEntries bounds one chart's entries in an index, the part
	// Helm's loader parses: a chart of thousands of versions takes a few
	// MiB.
	maxChartEntries = 8 << 20
	// maxIndexRest bounds what an index holds beside its entries.
	maxIndexRest = 1 << 20
	// maxWholeIndex is the largest index read whole by Helm's loader,
	// when its charts' entries cannot be cut apart (below).
	maxWholeIndex = 4 << 20
	// maxIndexLine bounds a line of an index written as YAML.
	maxIndexLine = 1 << 20
)

// errNotHelmForm is an index not written as Helm (or a YAML or JSON
// encoder) writes one, so that one chart's entries cannot be cut from
// the others' without parsing the whole.
var errNotHelmForm = errors.New("not written as Helm writes an index")

// indexLayout is where each chart's entries are in an index file, found
// in one pass over the file (once per run) that keeps no entry: a
// chart's part is then read from the file alone and given to Helm's
// loader, which validates, sorts and resolves versions as it does for
// the whole index. An index whose entries cannot be cut apart is read
// whole by Helm's loader, once, up to maxWholeIndex.
type indexLayout struct {
	path string
	info os.FileInfo
	json bool
	// rest is what the index holds beside its entries: YAML lines, or
	// the spans of JSON members.
	rest     []byte
	restJSON []member
	// sawEntries says the index has an entries key.
	sawEntries bool
	charts     map[string]span
	// cut is why the entries cannot be cut apart, nil when they can.
	cut error

	whole struct {
		once  sync.Once
		index *repo.IndexFile
		err   error
	}
}

// span is a range of the file's bytes.
type span struct{ off, n int64 }

// member is a JSON object member: its key, and its value's span (from
// just after the key, its colon included).
type member struct {
	key string
	at  span
}

// layoutIndex reads the layout of the index file at path.
func layoutIndex(path string) (*indexLayout, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return scanLayout(path, f)
}

func scanLayout(path string, f *os.File) (*indexLayout, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	l := &indexLayout{path: path, info: info, charts: map[string]span{}}
	r := bufio.NewReaderSize(f, 64<<10)
	if isJSON(r) {
		l.json = true
		err = l.scanJSON(r)
	} else {
		err = l.scanYAML(r)
	}
	var bound *indexBoundError
	switch {
	case errors.As(err, &bound):
		return nil, err
	case err != nil:
		l.cut = err
	}
	return l, nil
}

// chart is the index as Helm's loader reads it with only name's entries,
// what naming the index in an error.
func (l *indexLayout) chart(name, what string) (*repo.IndexFile, error) {
	if l.cut != nil {
		return l.wholeIndex(what)
	}
	f, err := os.Open(l.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !os.SameFile(info, l.info) || info.Size() != l.info.Size() {
		// Another run cached a newer index meanwhile: its own layout.
		fresh, err := scanLayout(l.path, f)
		if err != nil {
			return nil, err
		}
		return fresh.chart(name, what)
	}
	part, err := l.part(f, name)
	if err != nil {
		return nil, err
	}
	index, err := loadPart(filepath.Dir(l.path), part, what)
	if err != nil && !isCacheError(err) && l.info.Size() <= maxWholeIndex {
		// The part may lean on the rest (an alias of an anchor in
		// another chart's entries): Helm's answer on the whole.
		return l.wholeIndex(what)
	}
	return index, err
}

// part is the bytes of name's part of the index: what the index holds
// beside its entries, and name's entries.
func (l *indexLayout) part(f *os.File, name string) ([]byte, error) {
	s, ok := l.charts[name]
	if s.n > maxChartEntries {
		return nil, &indexBoundError{what: "the index's entries for " + name, limit: maxChartEntries}
	}
	var chart []byte
	if ok {
		chart = make([]byte, s.n)
		if _, err := f.ReadAt(chart, s.off); err != nil {
			return nil, err
		}
	}
	if !l.json {
		var out bytes.Buffer
		out.Write(l.rest)
		if l.sawEntries {
			if len(l.rest) > 0 && l.rest[len(l.rest)-1] != '\n' {
				out.WriteByte('\n')
			}
			out.WriteString("entries:\n")
			out.Write(chart)
		}
		return out.Bytes(), nil
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, m := range l.restJSON {
		if i > 0 {
			out.WriteByte(',')
		}
		writeJSONString(&out, m.key)
		v := make([]byte, m.at.n)
		if _, err := f.ReadAt(v, m.at.off); err != nil {
			return nil, err
		}
		out.Write(v)
	}
	if l.sawEntries {
		if len(l.restJSON) > 0 {
			out.WriteByte(',')
		}
		out.WriteString(`"entries":{`)
		if ok {
			writeJSONString(&out, name)
			out.Write(chart)
		}
		out.WriteByte('}')
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// wholeIndex is Helm's loader on the whole file, once, when it is small
// enough.
func (l *indexLayout) wholeIndex(what string) (*repo.IndexFile, error) {
	if l.info.Size() > maxWholeIndex {
		if errors.Is(l.cut, errNotHelmForm) {
			return nil, fmt.Errorf("%s is %d MiB and %v: an index of another form is read only up to %d MiB", what, l.info.Size()>>20, l.cut, maxWholeIndex>>20)
		}
		return nil, fmt.Errorf("not a Helm repository index: %w", l.cut)
	}
	l.whole.once.Do(func() { l.whole.index, l.whole.err = loadIndex(l.path, what) })
	return l.whole.index, l.whole.err
}

// loadPart is Helm's loader on part, through a file of its own in dir:
// Helm loads an index from a file alone.
func loadPart(dir string, part []byte, what string) (*repo.IndexFile, error) {
	tmp, err := os.CreateTemp(dir, ".part-*.yaml")
	if err != nil {
		return nil, &cacheError{dir: dir, err: err}
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(part)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, &cacheError{dir: dir, err: err}
	}
	return loadIndex(tmp.Name(), what)
}

// loadIndex is Helm's loader on the file at path, its error naming what
// rather than the cache's file.
func loadIndex(path, what string) (*repo.IndexFile, error) {
	index, err := repo.LoadIndexFile(path)
	if err != nil {
		return nil, fmt.Errorf("not a Helm repository index: %s", strings.ReplaceAll(err.Error(), path, what))
	}
	return index, nil
}

// indexBoundError is an index over one of the bounds above.
type indexBoundError struct {
	what  string
	limit int
}

func (e *indexBoundError) Error() string {
	return fmt.Sprintf("%s is over %d MiB, the bound of what is parsed of an index", e.what, e.limit>>20)
}
