package gitops

import "github.com/ownership-check/ownership-check/internal/model"

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
		if ok && err == nil {
			out = append(out, v)
		}
	}
	return append(out, r.Encrypted...)
}
