package gitops

import (
	"sort"

	"github.com/ownership-check/ownership-check/internal/model"
)

// renderedValues are the ConfigMaps and Secrets a parent's render makes,
// which the Flux objects of that same render take values from before the
// repository's files as written and the cluster: a generator's output
// carries the hash suffix kustomize's name references give those objects,
// and is what the controller applies beside them at that revision. An
// encrypted Secret is there by its keys alone. One whose data cannot be
// read as text is not among them: its own apply fails, as the API server
// refuses it.
func renderedValues(r Rendered) []model.ValuesSource {
	var out []model.ValuesSource
	for _, o := range r.Objects {
		v, ok, err := model.ValuesSourceOf(o.Object, o.File)
		if !ok || err != nil {
			continue
		}
		if len(o.FromSecret) > 0 {
			v = withStandIns(v, o.FromSecret)
		}
		out = append(out, v)
	}
	return append(out, r.Encrypted...)
}

// withStandIns is v made by a render with placeholders (discovery's)
// from the Secret keys of fields: a Secret of that render, its own values
// placeholders (SOPS-encrypted, or the cluster's), is there by its keys
// alone, as an encrypted one is, so that a check's render hands out its
// own; a ConfigMap keeps its data with the keys whose placeholders it
// holds, which a check's render takes as its own.
func withStandIns(v model.ValuesSource, fields []model.SecretField) model.ValuesSource {
	if v.Kind == "Secret" {
		v.Encrypted = true
		v.Keys = v.Keys[:0]
		for k := range v.Data {
			v.Keys = append(v.Keys, k)
		}
		sort.Strings(v.Keys)
		v.Data = nil
		return v
	}
	seen := map[model.SecretKey]bool{}
	for _, f := range fields {
		for _, k := range f.Keys {
			if !seen[k] {
				seen[k] = true
				v.StandIns = append(v.StandIns, k)
			}
		}
	}
	return v
}
