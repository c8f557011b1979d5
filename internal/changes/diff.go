package changes

import (
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"

	"github.com/ownership-check/ownership-check/internal/model"
)

// bookkeeping are the fields the API server keeps for itself: they differ
// between any live object and any answer without saying what the deploy
// does. Top-level fields map to true; metadata's to their names.
var bookkeeping = map[string]bool{"status": true}

var bookkeepingMetadata = map[string]bool{
	"managedFields": true, "resourceVersion": true, "generation": true, "uid": true,
	"creationTimestamp": true, "selfLink": true,
}

// Diff lists every leaf that differs between before and after, in path
// order, server bookkeeping left out and hidden values replaced by
// model.HiddenValue. With sparse, after is a manifest: fields it does not
// set are not compared (the server would keep or default them).
//
// Lists of objects that all carry a unique name (containers, env,
// volumes) are compared item by item under [name="…"], other lists of
// objects by position; lists of scalars are one leaf.
func Diff(id model.ID, before, after map[string]any, r *model.Redaction, sparse bool) []model.FieldChange {
	d := differ{id: id, r: r, sparse: sparse, out: []model.FieldChange{}}
	d.maps(before, after)
	return d.out
}

// differ walks two objects with one path stack: a path is copied only for
// a leaf that differs, so that the walk of an unchanged object (most of
// them) allocates little.
type differ struct {
	id     model.ID
	r      *model.Redaction
	sparse bool
	path   fieldpath.Path
	out    []model.FieldChange
}

func (d *differ) push(e fieldpath.PathElement) { d.path = append(d.path, e) }
func (d *differ) pop()                         { d.path = d.path[:len(d.path)-1] }

// skipped tells whether field k at the current depth is bookkeeping.
func (d *differ) skipped(k string) bool { return skippedAt(d.path, k) }

// skippedAt tells whether field k below path is bookkeeping.
func skippedAt(path fieldpath.Path, k string) bool {
	switch len(path) {
	case 0:
		return bookkeeping[k]
	case 1:
		return path[0].FieldName != nil && *path[0].FieldName == "metadata" && bookkeepingMetadata[k]
	}
	return false
}

func (d *differ) maps(a, b map[string]any) {
	for _, k := range model.UnionKeys(a, b) {
		if d.skipped(k) {
			continue
		}
		bv, inB := b[k]
		if d.sparse && !inB {
			continue
		}
		av := a[k]
		if equalScalar(av, bv) {
			// Most leaves are equal: no path element is made for them.
			continue
		}
		k := k
		d.at(fieldpath.PathElement{FieldName: &k}, av, bv)
	}
}

// at compares a and b one element below the current path.
func (d *differ) at(e fieldpath.PathElement, a, b any) {
	d.push(e)
	d.value(a, b)
	d.pop()
}

func (d *differ) value(a, b any) {
	am, aMap := a.(map[string]any)
	bm, bMap := b.(map[string]any)
	switch {
	case aMap && bMap:
		d.maps(am, bm)
		return
	case aMap && b == nil:
		d.maps(am, map[string]any{})
		return
	case a == nil && bMap:
		d.maps(map[string]any{}, bm)
		return
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if (aList || a == nil) && (bList || b == nil) && (aList || bList) && objectList(al) && objectList(bl) {
		d.lists(al, bl)
		return
	}
	if model.EqualValues(a, b) {
		return
	}
	d.leaf(a, b)
}

func (d *differ) lists(a, b []any) {
	if named(a) && named(b) {
		inA := make(map[string]any, len(a))
		for _, it := range a {
			inA[nameOf(it)] = it
		}
		inB := make(map[string]any, len(b))
		for _, it := range b {
			inB[nameOf(it)] = it
		}
		// a's order, then b's new items.
		order := make([]string, 0, len(a)+len(b))
		for _, it := range a {
			order = append(order, nameOf(it))
		}
		for _, it := range b {
			if n := nameOf(it); inA[n] == nil {
				order = append(order, n)
			}
		}
		for _, n := range order {
			if d.sparse && inB[n] == nil {
				continue
			}
			key := value.FieldList{{Name: "name", Value: value.NewValueInterface(n)}}
			d.at(fieldpath.PathElement{Key: &key}, inA[n], inB[n])
		}
		return
	}
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y any
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		} else if d.sparse {
			continue
		}
		i := i
		d.at(fieldpath.PathElement{Index: &i}, x, y)
	}
}

func (d *differ) leaf(a, b any) {
	if d.r.Hides(d.id, d.path, a) || d.r.Hides(d.id, d.path, b) {
		a, b = hidden(a), hidden(b)
	}
	// d.path is the walk's and changes under it: the change keeps a copy.
	fp := append(fieldpath.Path(nil), d.path...)
	d.out = append(d.out, model.FieldChange{Path: fp.String(), FieldPath: fp, Before: a, After: b})
}

func hidden(v any) any {
	if v == nil {
		return nil
	}
	return model.HiddenValue
}

// objectList tells whether every item of l is an object (an empty list
// is one).
func objectList(l []any) bool {
	for _, it := range l {
		if _, ok := it.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// named tells whether every item carries a distinct string name.
func named(l []any) bool {
	seen := map[string]bool{}
	for _, it := range l {
		n := nameOf(it)
		if n == "" || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

func nameOf(it any) string {
	m, _ := it.(map[string]any)
	n, _ := m["name"].(string)
	return n
}

// equalScalar tells cheaply whether two values are the same scalar;
// false for maps and lists, which the walk compares item by item.
func equalScalar(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return false
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return model.EqualValues(a, b)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
