package ownership

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
)

// isSecret tells whether the object is a core/v1 Secret, judged by the
// first object given (they all have the same identity).
func isSecret(objs ...*unstructured.Unstructured) bool {
	for _, u := range objs {
		if u != nil {
			return model.IsSecret(u)
		}
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
