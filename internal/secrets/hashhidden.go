package secrets

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// HashHidden returns u, or a deep copy of it in which every string that
// holds one of hidden (values a render took from a Secret into an object
// of any kind: model.Object.HiddenValues) is replaced by its hash, so that
// two copies still compare equal where the value is the same, and the
// value is never stored. A string that already is a hash is kept. Without
// hidden values, u itself is returned.
func (h Hasher) HashHidden(u *unstructured.Unstructured, hidden []string) *unstructured.Unstructured {
	if u == nil || len(hidden) == 0 {
		return u
	}
	out := u.DeepCopy()
	out.Object = h.hashHiddenIn(out.Object, hidden).(map[string]any)
	return out
}

func (h Hasher) hashHiddenIn(v any, hidden []string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = h.hashHiddenIn(e, hidden)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = h.hashHiddenIn(e, hidden)
		}
		return x
	case string:
		if h.IsHash(x) {
			return x
		}
		for _, s := range hidden {
			if s != "" && strings.Contains(x, s) {
				return h.Hash([]byte(x))
			}
		}
	}
	return v
}
