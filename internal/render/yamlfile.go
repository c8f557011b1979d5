package render

import (
	"fmt"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// rawObject is a manifest before identity, scope and ignore rules.
type rawObject struct {
	obj    map[string]any
	source string // as users see it (relative to the working directory)
	line   int
	notes  []string      // model.Object.Notes
	hidden *model.Hidden // model.Object.HiddenValues
}

func (r rawObject) where() string {
	if r.line > 0 {
		return fmt.Sprintf("%s:%d", r.source, r.line)
	}
	return r.source
}

// parseManifests reads the Kubernetes objects of one YAML (or JSON) file,
// as kubectl apply -f would: multi-document, List kinds flattened. Errors
// name the file and line.
func parseManifests(file string, data []byte) ([]rawObject, error) {
	if err := checkAliasBombs(file, data); err != nil {
		return nil, err
	}
	objs, err := parseChecked(file, data)
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

// parseChecked is parseManifests for data that checkYAML has already
// passed (read through guardFS).
func parseChecked(file string, data []byte) ([]rawObject, error) {
	var out []rawObject
	for _, c := range yamldoc.Split(data) {
		if c.Line == 0 {
			continue
		}
		j, err := yaml.YAMLToJSONStrict(c.Text)
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
			return nil, fmt.Errorf("%s:%d: not a Kubernetes object: the document is a %s, not a mapping with apiVersion and kind", file, c.Line, kindOfValue(v))
		}
		objs, err := flattenList(rawObject{obj: m, source: file, line: c.Line})
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

func kindOfValue(v any) string {
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
func flattenList(r rawObject) ([]rawObject, error) {
	kind, _ := r.obj["kind"].(string)
	items, isList := r.obj["items"].([]any)
	if !strings.HasSuffix(kind, "List") || !isList {
		return []rawObject{r}, nil
	}
	out := make([]rawObject, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: items[%d] of the %s is not an object", r.where(), i, kind)
		}
		out = append(out, rawObject{obj: m, source: r.source, line: r.line})
	}
	return out, nil
}
