package ownership

import (
	"github.com/ownership-check/ownership-check/internal/model"

	"fmt"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// ValueAt reads the value at p in an object's unstructured content. found is
// false when the object has no such field or item (including when the
// object's shape does not fit the path); err is set only for a path element
// that selects nothing.
//
// A key element ([port=80,protocol="TCP"]) matches a list item on the key
// fields the item has: the server writes the defaulted key (protocol "TCP")
// while a manifest often gives only {port: 80}. An item that has every key
// field wins over one that only agrees on the fields it has, so
// {port: 80, protocol: UDP} never answers for [port=80,protocol="TCP"].
func ValueAt(obj any, p fieldpath.Path) (v any, found bool, err error) {
	cur := obj
	for _, pe := range p {
		if err := checkElement(pe); err != nil {
			return nil, false, fmt.Errorf("%s: %w", p, err)
		}
		var ok bool
		switch {
		case pe.FieldName != nil:
			m, isMap := cur.(map[string]any)
			if !isMap {
				return nil, false, nil
			}
			cur, ok = m[*pe.FieldName]
		case pe.Key != nil:
			cur, ok = itemByKey(cur, pe)
		case pe.Value != nil:
			cur, ok = itemByValue(cur, (*pe.Value).Unstructured())
		case pe.Index != nil:
			l, isList := cur.([]any)
			i := *pe.Index
			if !isList || i < 0 || i >= len(l) {
				return nil, false, nil
			}
			cur, ok = l[i], true
		}
		if !ok {
			return nil, false, nil
		}
	}
	return cur, true, nil
}

func itemByKey(cur any, pe fieldpath.PathElement) (any, bool) {
	l, ok := cur.([]any)
	if !ok {
		return nil, false
	}
	var partial any
	found := false
	for _, item := range l {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		switch matchKey(m, pe) {
		case keyExact:
			return m, true
		case keyPartial:
			if !found {
				partial, found = m, true
			}
		}
	}
	return partial, found
}

type keyMatch int

const (
	keyNone keyMatch = iota
	keyPartial
	keyExact
)

func matchKey(item map[string]any, pe fieldpath.PathElement) keyMatch {
	present := 0
	for _, f := range *pe.Key {
		v, ok := item[f.Name]
		if !ok {
			continue
		}
		if !model.EqualValues(v, f.Value.Unstructured()) {
			return keyNone
		}
		present++
	}
	switch present {
	case 0:
		return keyNone
	case len(*pe.Key):
		return keyExact
	}
	return keyPartial
}

func itemByValue(cur any, want any) (any, bool) {
	l, ok := cur.([]any)
	if !ok {
		return nil, false
	}
	for _, item := range l {
		if model.EqualValues(item, want) {
			return item, true
		}
	}
	return nil, false
}
