package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"

	"github.com/ownership-check/ownership-check/internal/model"
)

// A snapshot read from git holds each object's file, compacted, instead of
// its decoded objects: decoded, an object with its managedFields takes
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
	if e == nil || e.file == nil {
		return e, nil
	}
	d, err := decodeEntry(e.file)
	if err != nil {
		return nil, &FileError{Commit: s.Commit, File: path.Join(s.Index.Environment, ObjectPath(id)), Err: err}
	}
	return d, nil
}

// sealEntry checks an object file the way decoding it would (valid JSON,
// a schema version this tool reads, an id, objects or null where the
// objects go) and returns its entry holding the file compacted.
func sealEntry(b []byte) (*Entry, error) {
	var buf bytes.Buffer
	buf.Grow(len(b) / 2)
	if err := json.Compact(&buf, b); err != nil {
		if verr := checkVersion(b); verr != nil {
			return nil, verr
		}
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	file := bytes.Clone(buf.Bytes())
	var h struct {
		SchemaVersion *int       `json:"schemaVersion"`
		ID            model.ID   `json:"id"`
		APIVersion    string     `json:"apiVersion"`
		Applied       objectSlot `json:"applied"`
		Deployed      objectSlot `json:"deployed"`
	}
	if err := json.Unmarshal(file, &h); err != nil {
		// A newer tool's file may not fit this one's shape: say so first.
		if verr := versionError(h.SchemaVersion); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	if err := versionError(h.SchemaVersion); err != nil {
		return nil, err
	}
	if h.ID.Kind == "" || h.ID.Name == "" {
		return nil, errors.New("no id")
	}
	return &Entry{SchemaVersion: *h.SchemaVersion, ID: h.ID, APIVersion: h.APIVersion, file: file}, nil
}

// objectSlot accepts what decoding into an object accepts: an object or
// null. It keeps nothing.
type objectSlot struct{}

func (*objectSlot) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' || string(b) == "null" {
		return nil
	}
	return fmt.Errorf("want an object or null, got %.20s", b)
}
