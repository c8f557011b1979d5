package source

import (
	"fmt"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// RawObject is a manifest before identity, scope and ignore rules.
type RawObject struct {
	Obj    map[string]any
	Source string // as users see it (relative to the working directory)
	Line   int
	Notes  []string      // model.Object.Notes
	Hidden *model.Hidden // model.Object.HiddenValues
	// PatchedAt is model.Object.PatchedAt.
	PatchedAt func(fieldpath.Path) string
}

func (r RawObject) Where() string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d", r.Source, r.Line)
	}
	return r.Source
}

// ParseManifests reads the Kubernetes objects of one YAML (or JSON) file,
// as kubectl apply -f would: multi-document, List kinds flattened. Errors
// name the file and line.
func ParseManifests(file string, data []byte) ([]RawObject, error) {
	if err := CheckAliasBombs(file, data); err != nil {
		return nil, err
	}
	objs, err := ParseChecked(file, data)
	if err != nil {
		// The strict parser refuses a duplicate key without saying
		// where the first one is; checkYAML says both.
		if cerr := checkYAML(file, data); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	return objs, nil
}

// ParseChecked is parseManifests for data that checkYAML has already
// passed (read through guardFS).
func ParseChecked(file string, data []byte) ([]RawObject, error) {
	var out []RawObject
	for _, c := range yamldoc.Split(data) {
		if c.Line == 0 {
			continue
		}
		j, err := yamldoc.ToJSON(c.Text)
		if err != nil {
			return nil, yamldoc.Error(file, c, err)
		}
		var v any
		if err := utiljson.Unmarshal(j, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, c.Line, err)
		}
		if v == nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a Kubernetes object: the document is a %s, not a mapping with apiVersion and kind", file, c.Line, KindOfValue(v))
		}
		objs, err := flattenList(RawObject{Obj: m, Source: file, Line: c.Line})
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

func KindOfValue(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case string:
		return "string"
	case bool:
		return "boolean"
	default:
		return "number"
	}
}

// flattenList expands a List (kind v1/List, or any *List with items) into
// its items, as kubectl does.
func flattenList(r RawObject) ([]RawObject, error) {
	kind, _ := r.Obj["kind"].(string)
	items, isList := r.Obj["items"].([]any)
	if !strings.HasSuffix(kind, "List") || !isList {
		return []RawObject{r}, nil
	}
	out := make([]RawObject, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: items[%d] of the %s is not an object", r.Where(), i, kind)
		}
		out = append(out, RawObject{Obj: m, Source: r.Source, Line: r.Line})
	}
	return out, nil
}
