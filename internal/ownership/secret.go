package ownership

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

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

// A Secret's stringData is write-only: the API server moves its keys into
// data and stores no stringData, yet records the applier as the owner of
// .stringData.K. The analysis reads a Secret as the server keeps it: the
// configs' stringData folded into data (foldSecretConfigs), and ownership
// of .stringData.K counted as ownership of .data.K (foldStringDataOwners).
// Otherwise a key the deploy sets through stringData, edited by hand in
// data since (kubectl edit), would be put back by the deploy with no
// finding at all.

// foldSecretConfigs folds stringData into data in every object of in that
// has it, on copies.
func foldSecretConfigs(in Input) Input {
	for _, u := range []**unstructured.Unstructured{&in.Desired, &in.Applied, &in.Deployed, &in.Live, &in.Predicted, &in.LiveAsRecorded} {
		if *u == nil {
			continue
		}
		if _, ok := (*u).Object["stringData"]; !ok {
			continue
		}
		c := (*u).DeepCopy()
		model.FoldStringData(c.Object)
		*u = c
	}
	return in
}

var stringDataField, dataField = "stringData", "data"

// foldStringDataOwners counts every owner's .stringData.K as .data.K.
// viaStringData is the data paths the deploy's own entries (own) hold only through
// stringData: such a key stays in data, with no owner, once the deploy
// stops sending it (the server removes what the applier owned, and the
// applier owned .stringData.K, which is not stored).
func foldStringDataOwners(o Ownership, own func(model.Manager) bool) (folded Ownership, viaStringData *fieldpath.Set) {
	viaStringData = &fieldpath.Set{}
	folded = make(Ownership, len(o))
	for i, e := range o {
		folded[i] = e
		var moved *fieldpath.Set
		rest := &fieldpath.Set{}
		e.Fields.Iterate(func(p fieldpath.Path) {
			if len(p) > 0 && p[0].FieldName != nil && *p[0].FieldName == stringDataField {
				q := append(fieldpath.Path{{FieldName: &dataField}}, p[1:].Copy()...)
				if moved == nil {
					moved = &fieldpath.Set{}
				}
				moved.Insert(q)
				return
			}
			rest.Insert(p.Copy())
		})
		if moved == nil {
			continue
		}
		folded[i].Fields = rest.Union(moved)
		if own(e.Manager) {
			viaStringData = viaStringData.Union(moved.Difference(rest))
		}
	}
	return folded, viaStringData
}
