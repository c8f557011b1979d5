package judge

import (
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// withoutSecretValues is res with the values a render made from Secret
// placeholders (model.Object.FromSecret) left out of the comparison: where
// live has the field, the manifest and the prediction take live's value,
// so that no change is claimed for a value the check never saw; the field
// is still sent, so its ownership is classified as any other. The notes
// say which fields, and from which Secrets (docs/security.md).
func withoutSecretValues(res predict.Result) (predict.Result, []string) {
	fields := res.Object.FromSecret
	if len(fields) == 0 {
		return res, nil
	}
	if res.Object.Object != nil {
		res.Object.Object = res.Object.Object.DeepCopy()
	}
	if res.Predicted != nil {
		res.Predicted = res.Predicted.DeepCopy()
	}
	var order []string
	byKeys := map[string][]string{}
	for _, f := range fields {
		if res.Live != nil && res.Object.ID.Kind == "Secret" && len(f.Path) == 2 && f.Path[0].FieldName != nil && *f.Path[0].FieldName == "stringData" {
			// The server keeps stringData as data: that is what live has.
			data := "data"
			f.Path = fieldpath.Path{{FieldName: &data}, f.Path[1]}
		}
		if res.Live != nil {
			if v, found, err := model.ValueAt(res.Live.Object, f.Path); err == nil && found {
				if res.Object.Object != nil {
					model.SetValueAt(res.Object.Object.Object, f.Path, v)
				}
				if res.Predicted != nil {
					model.SetValueAt(res.Predicted.Object, f.Path, v)
				}
			}
		}
		from := model.SecretKeys(f.Keys)
		if _, seen := byKeys[from]; !seen {
			order = append(order, from)
		}
		byKeys[from] = append(byKeys[from], f.Path.String())
	}
	notes := make([]string, 0, len(order))
	for _, from := range order {
		paths := slices.Compact(byKeys[from])
		notes = append(notes, "from "+from+": value not compared ("+strings.Join(paths, ", ")+")")
	}
	return res, notes
}

// hidingSecretFields is r with the fields of object id that a render made
// from Secret placeholders hidden too, as the redaction rule hides a
// secret-like value: live's value there, which the comparison takes, is
// made from the Secret's, so no diff, manifest or message may show it
// (docs/security.md). r itself is not changed; nil fields: r.
func hidingSecretFields(r *model.Redaction, id model.ID, fields []model.SecretField) *model.Redaction {
	if len(fields) == 0 {
		return r
	}
	var out model.Redaction
	if r != nil {
		out = *r
	}
	others := out.Paths
	out.Paths = func(at model.ID, p fieldpath.Path) bool {
		if at == id {
			for _, f := range fields {
				if len(p) >= len(f.Path) && p[:len(f.Path)].Equals(f.Path) {
					return true
				}
			}
		}
		return others != nil && others(at, p)
	}
	return &out
}
