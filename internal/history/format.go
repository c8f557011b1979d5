package history

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
)

// SchemaVersion of a deploy file; a reader refuses newer ones.
const SchemaVersion = 1

// ErrNewerSchema is wrapped by errors about files a newer ownership-check
// wrote.
var ErrNewerSchema = errors.New("written by a newer ownership-check; upgrade")

// Deploy is one recorded deploy: what the check right before it found.
type Deploy struct {
	SchemaVersion int       `json:"schemaVersion"`
	Environment   string    `json:"environment"`
	RecordedAt    time.Time `json:"recordedAt"`
	SourceCommit  string    `json:"sourceCommit,omitempty"`
	FieldManager  string    `json:"fieldManager"`
	ToolVersion   string    `json:"toolVersion,omitempty"`
	// Objects are the objects with findings, in ID order.
	Objects []Object `json:"objects"`

	// File is the file the deploy was read from; not stored.
	File string `json:"-"`
}

// Object is one object's findings in a deploy.
type Object struct {
	model.ID
	Findings []Finding `json:"findings"`
}

// Finding is a finding without values: what it is about and who was
// involved. Messages are left out too, since they quote values.
type Finding struct {
	Category model.Category `json:"category"`
	Path     string         `json:"path,omitempty"`
	// Managers are the other owners of the path when it was found (of
	// a split-owned item: every owner of a part of it).
	Managers   []model.Manager   `json:"managers,omitempty"`
	Controller *model.Controller `json:"controller,omitempty"`
	// Reason is a dry-run error's reason (Invalid, Forbidden, ...).
	Reason string `json:"reason,omitempty"`
	// Cause is whose change it was (pull-request, undeployed, cluster,
	// unknown); a deploy's own check usually has no base, so unknown.
	Cause model.Cause `json:"cause,omitempty"`
}

// fileName names a deploy's file so that names sort oldest first: the
// time to the nanosecond, fixed width, then a random suffix so that two
// records in the same instant do not collide.
func fileName(d *Deploy) (string, error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return d.RecordedAt.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b) + ".json", nil
}

// The file keeps each object on one line and names every manager once,
// in a table the findings point into: a deploy of 1,000 drifting objects
// is a file of about 150 kB that decodes in a few milliseconds, which a
// check reads Window of. Managers lose their time: the deploy's time says
// when the change was seen.
type file struct {
	SchemaVersion int             `json:"schemaVersion"`
	Environment   string          `json:"environment"`
	RecordedAt    time.Time       `json:"recordedAt"`
	SourceCommit  string          `json:"sourceCommit,omitempty"`
	FieldManager  string          `json:"fieldManager"`
	ToolVersion   string          `json:"toolVersion,omitempty"`
	Managers      []model.Manager `json:"managers"`
	Objects       []fileObject    `json:"objects"`
}

// fileObject names its object as messages do (Deployment.apps/shop/web):
// one string decodes far faster than four fields, and no name, namespace
// or kind holds a '/'.
type fileObject struct {
	Object   string        `json:"object"`
	Findings []fileFinding `json:"findings"`
}

type fileFinding struct {
	Category   model.Category    `json:"category"`
	Path       string            `json:"path,omitempty"`
	Managers   []int             `json:"managers,omitempty"`
	Controller *model.Controller `json:"controller,omitempty"`
	Reason     string            `json:"reason,omitempty"`
}

// encode writes a deploy's file: the header indented as the snapshot
// branch's files are, then one object per line.
func encode(d *Deploy) ([]byte, error) {
	f := file{
		SchemaVersion: SchemaVersion, Environment: d.Environment, RecordedAt: d.RecordedAt.UTC().Truncate(time.Millisecond),
		SourceCommit: d.SourceCommit, FieldManager: d.FieldManager, ToolVersion: d.ToolVersion,
		Managers: []model.Manager{}, Objects: []fileObject{},
	}
	table := map[model.Manager]int{}
	objects := make([]fileObject, 0, len(d.Objects))
	for _, o := range d.Objects {
		fo := fileObject{Object: o.ID.String(), Findings: make([]fileFinding, 0, len(o.Findings))}
		for _, x := range o.Findings {
			ff := fileFinding{Category: x.Category, Path: x.Path, Controller: x.Controller, Reason: x.Reason}
			for _, m := range x.Managers {
				m.Time = ""
				i, ok := table[m]
				if !ok {
					i = len(f.Managers)
					table[m] = i
					f.Managers = append(f.Managers, m)
				}
				ff.Managers = append(ff.Managers, i)
			}
			fo.Findings = append(fo.Findings, ff)
		}
		objects = append(objects, fo)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&f); err != nil {
		return nil, err
	}
	// The header ends in `"objects": []` + "\n}\n": open the list there.
	const tail = "[]\n}\n"
	head := buf.Bytes()
	if !bytes.HasSuffix(head, []byte(tail)) || len(objects) == 0 {
		return head, nil
	}
	out := bytes.NewBuffer(make([]byte, 0, len(head)+200*len(objects)))
	out.Write(head[:len(head)-len(tail)])
	out.WriteString("[\n")
	line := json.NewEncoder(out)
	line.SetEscapeHTML(false)
	for i := range objects {
		out.WriteString("    ")
		if err := line.Encode(&objects[i]); err != nil {
			return nil, err
		}
		if i < len(objects)-1 {
			out.Truncate(out.Len() - 1)
			out.WriteString(",\n")
		}
	}
	out.WriteString("  ]\n}\n")
	return out.Bytes(), nil
}

// decode reads a deploy file of environment env.
func decode(env string, b []byte) (*Deploy, error) {
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	switch {
	case f.SchemaVersion > SchemaVersion:
		return nil, fmt.Errorf("schemaVersion %d: %w", f.SchemaVersion, ErrNewerSchema)
	case f.SchemaVersion < 1:
		return nil, fmt.Errorf("no schemaVersion")
	case f.Environment != env:
		return nil, fmt.Errorf("environment is %q, expected %q", f.Environment, env)
	case f.RecordedAt.IsZero():
		return nil, fmt.Errorf("no recordedAt")
	}
	d := &Deploy{
		SchemaVersion: f.SchemaVersion, Environment: f.Environment, RecordedAt: f.RecordedAt,
		SourceCommit: f.SourceCommit, FieldManager: f.FieldManager, ToolVersion: f.ToolVersion,
		Objects: make([]Object, len(f.Objects)),
	}
	for i, fo := range f.Objects {
		id, err := parseID(fo.Object)
		if err != nil {
			return nil, err
		}
		o := Object{ID: id, Findings: make([]Finding, len(fo.Findings))}
		for j, ff := range fo.Findings {
			x := Finding{Category: ff.Category, Path: ff.Path, Controller: ff.Controller, Reason: ff.Reason}
			for _, m := range ff.Managers {
				if m < 0 || m >= len(f.Managers) {
					return nil, fmt.Errorf("%s: manager %d is not in the table of %d", fo.Object, m, len(f.Managers))
				}
			}
			switch len(ff.Managers) {
			case 0:
			case 1:
				// A view of the table: most findings name one manager.
				m := ff.Managers[0]
				x.Managers = f.Managers[m : m+1 : m+1]
			default:
				x.Managers = make([]model.Manager, len(ff.Managers))
				for k, m := range ff.Managers {
					x.Managers[k] = f.Managers[m]
				}
			}
			o.Findings[j] = x
		}
		d.Objects[i] = o
	}
	return d, nil
}
