package ownership

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/secrets"
)

// isSecret tells whether the object is a core/v1 Secret, judged by the
// first object given (they all have the same identity).
func isSecret(objs ...*unstructured.Unstructured) bool {
	for _, u := range objs {
		if u != nil {
			return secrets.IsSecret(u)
		}
	}
	return false
}

// hiddenPath tells whether a Secret's value at p must never be shown: data,
// stringData and the client-side-apply copy of the whole object. Paths are
// shown (they name keys, not values); values become HiddenValue.
func hiddenPath(p fieldpath.Path) bool {
	if len(p) == 0 || p[0].FieldName == nil {
		return false
	}
	switch *p[0].FieldName {
	case "data", "stringData":
		return true
	case "metadata":
		// A Secret's whole annotations map holds the copy: hide it when a
		// path stops above the annotation.
		if len(p) < 2 || p[1].FieldName == nil || *p[1].FieldName != "annotations" {
			return len(p) == 1
		}
		return len(p) == 2 || (p[2].FieldName != nil && *p[2].FieldName == secrets.LastAppliedAnnotation)
	}
	return false
}

// copyValue keeps findings from sharing maps with the caller's objects.
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copyValue(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = copyValue(e)
		}
		return l
	}
	return v
}
