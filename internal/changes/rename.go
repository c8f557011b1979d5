package changes

import (
	"regexp"

	"github.com/ownership-check/ownership-check/internal/model"
)

// hashSuffix is the suffix kustomize's generators append to a ConfigMap's
// or Secret's name: ten characters of a hash, with 0, 1, 3, a and e
// replaced so that it never spells a word.
var hashSuffix = regexp.MustCompile(`^(.+)-[2456789bcdfghkmt]{10}$`)

// generatedBase is a generated ConfigMap's or Secret's name without its
// hash suffix; false for other objects.
func generatedBase(id model.ID) (string, bool) {
	if id.Group != "" || (id.Kind != "ConfigMap" && id.Kind != "Secret") {
		return "", false
	}
	m := hashSuffix.FindStringSubmatch(id.Name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Renames pairs the generated ConfigMaps and Secrets the deploy deletes
// with those it creates under the same name but another hash suffix: one
// rename each, old → new. An old name matched by several new ones (or the
// reverse) is left as it is: which one it became cannot be told.
func Renames(deleted, created []model.ID) map[model.ID]model.ID {
	type key struct {
		kind, namespace, base string
	}
	keyOf := func(id model.ID) (key, bool) {
		b, ok := generatedBase(id)
		return key{id.Kind, id.Namespace, b}, ok
	}
	olds, news := map[key][]model.ID{}, map[key][]model.ID{}
	for _, id := range deleted {
		if k, ok := keyOf(id); ok {
			olds[k] = append(olds[k], id)
		}
	}
	for _, id := range created {
		if k, ok := keyOf(id); ok {
			news[k] = append(news[k], id)
		}
	}
	out := map[model.ID]model.ID{}
	for k, o := range olds {
		if n := news[k]; len(o) == 1 && len(n) == 1 {
			out[o[0]] = n[0]
		}
	}
	return out
}
