package snapshot

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"runtime"
	"sync"

	"github.com/ownership-check/ownership-check/internal/model"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// A snapshot read from git holds each object's file, compacted and
// deflated, instead of its decoded objects: decoded, an object with its managedFields takes
// about seven times the bytes of its compact JSON, and a check needs each
// object once, when it analyses it. Entry decodes a file on each call, so
// what a caller decoded goes as soon as the caller lets go of it.

// Entry returns the snapshot's record of an object, nil when it has none.
// For a snapshot read from git each call decodes the object's file anew:
// the caller owns what it gets. The file was checked when it was read, so
// an error here means a file that passed that check and still could not be
// decoded; it names the file.
func (s *Snapshot) Entry(id model.ID) (*Entry, error) {
	e := s.Objects[id]
	if e == nil {
		return nil, nil
	}
	d, err := e.decoded()
	if err != nil {
		return nil, &FileError{Commit: s.Commit, File: path.Join(s.Index.Environment, ObjectPath(id)), Err: err}
	}
	return d, nil
}

// decoded is the entry with its objects: itself when it holds them, else
// its file decoded anew.
func (e *Entry) decoded() (*Entry, error) {
	if e.file == nil {
		return e, nil
	}
	file, err := inflate(e.file)
	if err != nil {
		return nil, err
	}
	return decodeEntry(file)
}

// sealEntry checks an object file the way decoding it would (valid JSON,
// a schema version this tool reads, an id, objects or null where the
// objects go) and returns its entry holding the file compacted and
// deflated.
func sealEntry(b []byte, d deflaters) (*Entry, error) {
	var buf bytes.Buffer
	buf.Grow(len(b) / 2)
	if err := json.Compact(&buf, b); err != nil {
		if verr := checkVersion(b); verr != nil {
			return nil, verr
		}
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	file := buf.Bytes()
	var h struct {
		SchemaVersion *int       `json:"schemaVersion"`
		ID            model.ID   `json:"id"`
		APIVersion    string     `json:"apiVersion"`
		Applied       objectSlot `json:"applied"`
		Deployed      objectSlot `json:"deployed"`
	}
	// The decoder decodeEntry uses, so that what passes here decodes there
	// (field names match case-sensitively).
	if err := utiljson.Unmarshal(file, &h); err != nil {
		// A newer tool's file may not fit this one's shape: say so first.
		if verr := versionError(h.SchemaVersion); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	if err := checkHeader(h.SchemaVersion, h.ID); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		slot objectSlot
	}{{"applied", h.Applied}, {"deployed", h.Deployed}} {
		if !f.slot.ok() {
			return nil, fmt.Errorf("%s: want an object or null, got %s", f.name, f.slot.got)
		}
	}
	return &Entry{SchemaVersion: *h.SchemaVersion, ID: h.ID, APIVersion: h.APIVersion, file: d.deflate(file)}, nil
}

// Held files are deflated: JSON objects of a few kinds repeat their keys,
// and flate's fastest level takes them to about a third, for about 12 ms
// per thousand files; inflating is cheaper still.

// deflaters lends flate writers to the goroutines that seal files, one
// each: a writer's tables take about a megabyte, too much to make per file
// or to let a sync.Pool drop at every collection.
type deflaters chan *flate.Writer

func newDeflaters(n int) deflaters {
	d := make(deflaters, n)
	for range n {
		w, _ := flate.NewWriter(nil, flate.BestSpeed)
		d <- w
	}
	return d
}

// processDeflaters are the process's deflaters, one per core, shared by
// every folder read: a run of many targets reads a folder per target, and
// two megabytes of tables each made its collector busy.
var processDeflaters = sync.OnceValue(func() deflaters { return newDeflaters(runtime.GOMAXPROCS(0)) })

func (d deflaters) deflate(b []byte) []byte {
	var out bytes.Buffer
	w := <-d
	defer func() { d <- w }()
	w.Reset(&out)
	// Writing to a bytes.Buffer cannot fail.
	_, _ = w.Write(b)
	_ = w.Close()
	return bytes.Clone(out.Bytes())
}

var inflaters sync.Pool

func inflate(b []byte) ([]byte, error) {
	src := bytes.NewReader(b)
	r, ok := inflaters.Get().(io.ReadCloser)
	if ok {
		if err := r.(flate.Resetter).Reset(src, nil); err != nil {
			return nil, err
		}
	} else {
		r = flate.NewReader(src)
	}
	defer inflaters.Put(r)
	return io.ReadAll(r)
}

// objectSlot records what a file holds where an object goes, without
// keeping it: decoding into an object accepts an object or null (or the
// key's absence).
type objectSlot struct{ got string }

func (s *objectSlot) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '{':
	case string(b) == "null":
	default:
		s.got = fmt.Sprintf("%.20s", b)
	}
	return nil
}

func (s objectSlot) ok() bool { return s.got == "" }
