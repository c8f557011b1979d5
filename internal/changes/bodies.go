package changes

import (
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
)

// maxBodyBytes bounds one side of Bodies: past it the per-field diff says
// enough, and a comment could not show the body anyway.
const maxBodyBytes = 64 << 10

// BodiesOf is the object before (nil: it is created) and after the deploy
// as YAML for people, with the same paths hidden as Diff hides; nil when
// a side is too large to show.
func BodiesOf(id model.ID, before, after map[string]any, r *model.Redaction) *model.Bodies {
	var b model.Bodies
	for _, side := range []struct {
		obj map[string]any
		out *string
	}{{before, &b.Before}, {after, &b.After}} {
		if side.obj == nil {
			continue
		}
		obj := side.obj
		if id.IsSecret() {
			obj = model.HideValues(obj)
		}
		s := shower{id: id, r: r}
		y, err := yaml.Marshal(s.copy(obj))
		if err != nil || len(y) > maxBodyBytes {
			return nil
		}
		*side.out = string(y)
	}
	return &b
}

// shower copies an object for people: bookkeeping left out, and each leaf
// the rules hide replaced, walked with the paths Diff uses so that both
// hide the same values.
type shower struct {
	id   model.ID
	r    *model.Redaction
	path fieldpath.Path
}

func (s *shower) copy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if skippedAt(s.path, k) {
				continue
			}
			k := k
			out[k] = s.at(fieldpath.PathElement{FieldName: &k}, e)
		}
		return out
	case []any:
		if len(x) == 0 || !objectList(x) {
			return s.leaf(x)
		}
		out := make([]any, len(x))
		byName := named(x)
		for i, e := range x {
			if byName {
				key := value.FieldList{{Name: "name", Value: value.NewValueInterface(nameOf(e))}}
				out[i] = s.at(fieldpath.PathElement{Key: &key}, e)
				continue
			}
			i := i
			out[i] = s.at(fieldpath.PathElement{Index: &i}, e)
		}
		return out
	}
	return s.leaf(v)
}

func (s *shower) at(e fieldpath.PathElement, v any) any {
	s.path = append(s.path, e)
	defer func() { s.path = s.path[:len(s.path)-1] }()
	return s.copy(v)
}

func (s *shower) leaf(v any) any {
	if v != nil && s.r.Hides(s.id, s.path, v) {
		return model.HiddenValue
	}
	return v
}
