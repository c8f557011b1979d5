package render

import (
	"context"
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// A render with stand-ins for Secret values (Options.StandInSecrets) that
// handed one out is rendered a second time with other placeholders: a
// field whose value differs between the two depends on a Secret, however a
// template transformed it, and an object found under another name or
// namespace has an identity made from one (docs/security.md, "Secrets a
// render reads").

// renderAgainWithOtherStandIns renders the paths again with other
// placeholders and marks first's objects by what differs.
func renderAgainWithOtherStandIns(ctx context.Context, paths []string, opts Options, first Result) (Result, error) {
	other := opts
	other.standIns = opts.standIns.Other()
	other.Deployer = deployerWithOtherStandIns(opts.Deployer, opts.standIns, other.standIns)
	// The first render recorded every file; the second reads the same.
	other.Reads = nil
	second, err := renderOnce(ctx, paths, other)
	if err != nil {
		return Result{}, fmt.Errorf("rendering again with other placeholders for the Secret values it read: %w", err)
	}
	return markStandIns(first, second, opts.standIns), nil
}

// markStandIns is first with each object's fields that differ in second
// marked (model.Object.FromSecret), and the objects second does not have
// under the same identity not rendered, with why.
func markStandIns(first, second Result, s *model.StandIns) Result {
	again := make(map[model.ID]model.Object, len(second.Objects))
	for _, o := range second.Objects {
		again[o.ID] = o
	}
	read := s.Used()
	placeholders := s.Hidden()
	out := first
	out.Objects = make([]model.Object, 0, len(first.Objects))
	out.NotRendered = append([]source.NotRendered(nil), first.NotRendered...)
	for _, o := range first.Objects {
		o2, ok := again[o.ID]
		if !ok {
			keys := s.In(o.ID.Namespace + "/" + o.ID.Name)
			if len(keys) == 0 {
				keys = read
			}
			// Its name is the placeholder's, not the deploy's: not shown.
			out.NotRendered = append(out.NotRendered, source.NotRendered{
				Source: objectSource(o),
				Reason: fmt.Sprintf("a %s whose name or namespace is made from %s, whose value a check never reads: not checked", o.ID.Kind, model.SecretKeys(keys)),
			})
			continue
		}
		for _, p := range differingLeaves(o.Object.Object, o2.Object.Object) {
			v, _, _ := model.ValueAt(o.Object.Object, p)
			keys := s.In(fmt.Sprint(v))
			if len(keys) == 0 {
				keys = read
			}
			o.FromSecret = append(o.FromSecret, model.SecretField{Path: p, Keys: keys})
		}
		if len(o.FromSecret) > 0 {
			o.HiddenValues = model.Union(o.HiddenValues, placeholders)
		}
		out.Objects = append(out.Objects, o)
	}
	return out
}

// objectSource is where an object was written, as users see it.
func objectSource(o model.Object) string {
	if o.Line > 0 {
		return fmt.Sprintf("%s:%d", o.Source, o.Line)
	}
	return o.Source
}

// differingLeaves are the paths of every leaf where a and b differ, in
// order: a field one has and the other lacks is a leaf, list items are
// compared by position (by name where both items carry the same one, so
// that the path reads as the report's), and lists of another length are
// one leaf.
func differingLeaves(a, b map[string]any) []fieldpath.Path {
	var out []fieldpath.Path
	var walk func(p fieldpath.Path, x, y any)
	walk = func(p fieldpath.Path, x, y any) {
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok {
				break
			}
			for _, k := range model.UnionKeys(xv, yv) {
				walk(append(p[:len(p):len(p)], fieldpath.PathElement{FieldName: &k}), xv[k], yv[k])
			}
			return
		case []any:
			yv, ok := y.([]any)
			if !ok || len(xv) != len(yv) {
				break
			}
			for i := range xv {
				walk(append(p[:len(p):len(p)], itemElement(xv[i], yv[i], i)), xv[i], yv[i])
			}
			return
		}
		if !model.EqualValues(x, y) {
			out = append(out, append(fieldpath.Path(nil), p...))
		}
	}
	walk(nil, a, b)
	return out
}

// itemElement selects item i by its name when both renders gave it the
// same one, else by its position.
func itemElement(x, y any, i int) fieldpath.PathElement {
	xm, _ := x.(map[string]any)
	ym, _ := y.(map[string]any)
	if name, ok := xm["name"].(string); ok && name != "" && ym["name"] == name {
		return fieldpath.PathElement{Key: fieldpath.KeyByFields("name", name)}
	}
	return fieldpath.PathElement{Index: &i}
}

// A child a parent's render made (discovery) may hold placeholders its
// parent substituted (Deployer.StandIns): the render registers their keys
// as handed out (registerDeployerStandIns), so that the second render
// happens and names them, and renders the second time with the object's
// placeholders written as the second set's.

// registerDeployerStandIns hands out the placeholders d's object holds.
func registerDeployerStandIns(d *delivery.Deployer, s *model.StandIns) {
	if d == nil || s == nil {
		return
	}
	for _, f := range d.StandIns {
		s.Register(f.Keys)
	}
}

// deployerWithOtherStandIns is d with each placeholder its object holds
// written as other's. A field whose placeholder the parent's substitution
// transformed beyond recognition (a substring) is other's placeholder
// whole: it differs all the same.
func deployerWithOtherStandIns(d *delivery.Deployer, first, other *model.StandIns) *delivery.Deployer {
	if d == nil || len(d.StandIns) == 0 {
		return d
	}
	var keys []model.SecretKey
	for _, f := range d.StandIns {
		keys = append(keys, f.Keys...)
	}
	out := *d
	obj, _ := copySwapping(d.Object, func(s string) string { return first.Swap(s, keys, other) }).(map[string]any)
	for _, f := range d.StandIns {
		was, _, _ := model.ValueAt(d.Object, f.Path)
		now, _, _ := model.ValueAt(obj, f.Path)
		if s, ok := was.(string); ok && s == now && len(f.Keys) > 0 {
			model.SetValueAt(obj, f.Path, other.Value(f.Keys[0]))
		}
	}
	out.Object = obj
	return &out
}

// copySwapping is a copy of v with swap applied to every string in it.
func copySwapping(v any, swap func(string) string) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copySwapping(e, swap)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = copySwapping(e, swap)
		}
		return l
	case string:
		return swap(x)
	}
	return v
}
