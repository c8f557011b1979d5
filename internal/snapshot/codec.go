package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// ErrNewerSchema is wrapped by errors about files a newer ownership-check
// wrote.
var ErrNewerSchema = errors.New("written by a newer ownership-check")

// canonical encodes v as sorted (encoding/json sorts map keys), indented
// JSON with a trailing newline, without HTML escaping so values read as
// they are.
func canonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// entryFile is Entry as stored: plain maps, so the encoding does not depend
// on unstructured's own JSON methods.
type entryFile struct {
	SchemaVersion int            `json:"schemaVersion"`
	ID            model.ID       `json:"id"`
	APIVersion    string         `json:"apiVersion"`
	Applied       map[string]any `json:"applied"`
	Deployed      map[string]any `json:"deployed"`
}

func encodeEntry(e *Entry) ([]byte, error) {
	e, err := e.decoded()
	if err != nil {
		return nil, err
	}
	f := entryFile{SchemaVersion: SchemaVersion, ID: e.ID, APIVersion: e.APIVersion}
	if e.Applied != nil {
		f.Applied = e.Applied.Object
	}
	if e.Deployed != nil {
		f.Deployed = e.Deployed.Object
	}
	return canonical(f)
}

// encodeFiles gives every file of an environment's folder, by path relative
// to it, and fills snap.Index.Objects.
func encodeFiles(snap *Snapshot) (map[string][]byte, error) {
	files := make(map[string][]byte, len(snap.Objects)+1)
	ids := make([]model.ID, 0, len(snap.Objects))
	for id := range snap.Objects {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Less(ids[j]) })
	index := snap.Index
	index.SchemaVersion = SchemaVersion
	index.DeployedAt = index.DeployedAt.UTC().Truncate(1e9)
	index.Objects = make([]IndexEntry, 0, len(ids))
	for _, id := range ids {
		e := snap.Objects[id]
		if e == nil {
			return nil, fmt.Errorf("%s: no entry", id)
		}
		if e.ID != id {
			return nil, fmt.Errorf("%s: entry is for %s", id, e.ID)
		}
		p := ObjectPath(id)
		if _, dup := files[p]; dup {
			return nil, fmt.Errorf("%s: two objects map to %s", id, p)
		}
		b, err := encodeEntry(e)
		if err != nil {
			return nil, fmt.Errorf("%s: encode snapshot: %w", id, err)
		}
		files[p] = b
		index.Objects = append(index.Objects, IndexEntry{ID: id, APIVersion: e.APIVersion, Path: p})
	}
	if err := encodeSchemas(snap, files); err != nil {
		return nil, err
	}
	encodeDocuments(snap, files)
	b, err := canonical(index)
	if err != nil {
		return nil, fmt.Errorf("encode index: %w", err)
	}
	files[indexFile] = b
	snap.Index = index
	return files, nil
}

// checkVersion reads only schemaVersion, so that a newer file is reported
// as newer instead of as whatever its first unknown field breaks.
func checkVersion(b []byte) error {
	var v struct {
		SchemaVersion *int `json:"schemaVersion"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	return versionError(v.SchemaVersion)
}

func versionError(v *int) error {
	switch {
	case v == nil:
		return errors.New("no schemaVersion")
	case *v > SchemaVersion:
		return fmt.Errorf("%w (schemaVersion %d; this one reads up to %d): upgrade ownership-check", ErrNewerSchema, *v, SchemaVersion)
	case *v < 1:
		return fmt.Errorf("invalid schemaVersion %d", *v)
	}
	return nil
}

// checkHeader is what every object file must have: a schema version this
// tool reads, and an id.
func checkHeader(version *int, id model.ID) error {
	if err := versionError(version); err != nil {
		return err
	}
	if id.Kind == "" || id.Name == "" {
		return errors.New("no id")
	}
	return nil
}

func decodeIndex(b []byte) (*Index, error) {
	// Unknown fields are ignored: a compatible addition does not bump the
	// schema version, and older readers must still read the file. One
	// parse, as for an object file: a selection reads thousands of
	// indexes.
	var f struct {
		Index
		Version *int `json:"schemaVersion"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		// A newer tool's file may not fit this one's shape: say so first.
		if verr := checkVersion(b); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	if err := versionError(f.Version); err != nil {
		return nil, err
	}
	f.Index.SchemaVersion = *f.Version
	return &f.Index, nil
}

// decodeEntry parses an object file once: a snapshot holds thousands, and
// checking the version by a parse of its own doubled the cost.
func decodeEntry(b []byte) (*Entry, error) {
	var f struct {
		entryFile
		SchemaVersion *int `json:"schemaVersion"`
	}
	// apimachinery's decoder gives int64 for integers, as client-go does for
	// live objects, so what is read back compares equal to what was written.
	if err := utiljson.Unmarshal(b, &f); err != nil {
		// A newer tool's file may not fit this one's shape: say so first.
		if verr := checkVersion(b); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	if err := checkHeader(f.SchemaVersion, f.ID); err != nil {
		return nil, err
	}
	e := &Entry{SchemaVersion: *f.SchemaVersion, ID: f.ID, APIVersion: f.APIVersion}
	if f.Applied != nil {
		e.Applied = &unstructured.Unstructured{Object: f.Applied}
	}
	if f.Deployed != nil {
		e.Deployed = &unstructured.Unstructured{Object: f.Deployed}
	}
	return e, nil
}
