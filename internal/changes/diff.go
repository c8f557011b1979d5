package changes

import (
	"sort"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"

	"github.com/ownership-check/ownership-check/internal/model"
)

// bookkeeping are the fields the API server keeps for itself: they differ
// between any live object and any answer without saying what the deploy
// does. Keyed by their path below the object's root.
var bookkeeping = map[string]bool{
	"status":                     true,
	"metadata.managedFields":     true,
	"metadata.resourceVersion":   true,
	"metadata.generation":        true,
	"metadata.uid":               true,
	"metadata.creationTimestamp": true,
	"metadata.selfLink":          true,
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
	d.maps(nil, "", before, after)
	return d.out
}

type differ struct {
	id     model.ID
	r      *model.Redaction
	sparse bool
	out    []model.FieldChange
}

func (d *differ) maps(p fieldpath.Path, dotted string, a, b map[string]any) {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := dotted + k
		if bookkeeping[name] {
			continue
		}
		bv, inB := b[k]
		if d.sparse && !inB {
			continue
		}
		k := k
		d.value(append(p[:len(p):len(p)], fieldpath.PathElement{FieldName: &k}), name+".", a[k], bv)
	}
}

func (d *differ) value(p fieldpath.Path, dotted string, a, b any) {
	am, aMap := a.(map[string]any)
	bm, bMap := b.(map[string]any)
	switch {
	case aMap && bMap:
		d.maps(p, dotted, am, bm)
		return
	case aMap && b == nil:
		d.maps(p, dotted, am, map[string]any{})
		return
	case a == nil && bMap:
		d.maps(p, dotted, map[string]any{}, bm)
		return
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if (aList || a == nil) && (bList || b == nil) && (aList || bList) && objectList(al) && objectList(bl) {
		d.lists(p, dotted, al, bl)
		return
	}
	if equal(a, b) {
		return
	}
	d.leaf(p, a, b)
}

func (d *differ) lists(p fieldpath.Path, dotted string, a, b []any) {
	if named(a) && named(b) {
		byName := map[string]any{}
		for _, it := range a {
			byName[nameOf(it)] = it
		}
		seen := map[string]bool{}
		var order []string
		for _, it := range append(append([]any{}, a...), b...) {
			if n := nameOf(it); !seen[n] {
				seen[n] = true
				order = append(order, n)
			}
		}
		inB := map[string]any{}
		for _, it := range b {
			inB[nameOf(it)] = it
		}
		for _, n := range order {
			key := value.FieldList{{Name: "name", Value: value.NewValueInterface(n)}}
			if d.sparse && inB[n] == nil {
				continue
			}
			d.value(append(p[:len(p):len(p)], fieldpath.PathElement{Key: &key}), dotted, byName[n], inB[n])
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
		d.value(append(p[:len(p):len(p)], fieldpath.PathElement{Index: &i}), dotted, x, y)
	}
}

func (d *differ) leaf(p fieldpath.Path, a, b any) {
	if d.r.Hides(d.id, p, a) || d.r.Hides(d.id, p, b) {
		a, b = hidden(a), hidden(b)
	}
	d.out = append(d.out, model.FieldChange{Path: p.String(), Before: a, After: b})
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

// equal compares JSON values, numbers by value whatever their Go type
// (a manifest's 3 is an int64, a float64 decoded elsewhere).
func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch av := a.(type) {
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equal(av[i], bv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !equal(x, y) {
				return false
			}
		}
		return true
	}
	return a == b
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
