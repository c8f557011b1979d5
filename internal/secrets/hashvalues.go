package secrets

import (
	"encoding/base64"
	"encoding/json"

	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// HashSecretValues returns a deep copy of u. For a Secret, every value of data (the
// hash of the base64-decoded bytes) and of stringData (the hash of the
// string's bytes, so the same content hashes equal in both) is replaced by
// its hash, and so is the last-applied-configuration annotation. Anything
// else is returned unchanged.
//
// A data value that already is a hash of this Hasher is kept, so hashing
// twice is harmless: such a value cannot be base64 (it contains ':'), so it
// never is a real Secret value. stringData has no such guarantee and is
// always hashed.
func (h Hasher) HashSecretValues(u *unstructured.Unstructured) *unstructured.Unstructured {
	if u == nil {
		return nil
	}
	out := u.DeepCopy()
	if !model.IsSecret(out) {
		return out
	}
	if data, ok := out.Object["data"].(map[string]any); ok {
		for k, v := range data {
			data[k] = h.hashDataValue(v)
		}
	}
	if sd, ok := out.Object["stringData"].(map[string]any); ok {
		for k, v := range sd {
			sd[k] = h.hashStringValue(v)
		}
	}
	if ann := out.GetAnnotations(); ann != nil {
		if v, ok := ann[model.LastAppliedAnnotation]; ok {
			ann[model.LastAppliedAnnotation] = h.Hash([]byte(v))
			out.SetAnnotations(ann)
		}
	}
	return out
}

func (h Hasher) hashDataValue(v any) any {
	s, ok := v.(string)
	if !ok {
		return h.hashOther(v)
	}
	if h.IsHash(s) {
		return s
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		// Not valid base64: the server would refuse it, but it is still
		// somebody's secret text.
		return h.Hash([]byte(s))
	}
	return h.Hash(b)
}

func (h Hasher) hashStringValue(v any) any {
	if s, ok := v.(string); ok {
		return h.Hash([]byte(s))
	}
	return h.hashOther(v)
}

// hashOther covers values a valid Secret cannot hold (numbers, maps) but a
// hand-written manifest can: they are hidden all the same.
func (h Hasher) hashOther(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return h.Hash(nil)
	}
	return h.Hash(b)
}
