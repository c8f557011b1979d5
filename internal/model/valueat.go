package model

import (
	"errors"
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// The one walk of an object's unstructured content by a field path: the
// value at a path (ValueAt), a list item by its key (ItemByKey, MatchKey)
// or its index in the list (ItemIndex), and whether a path element
// selects anything (CheckElement).

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
		if err := CheckElement(pe); err != nil {
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
		default:
			l, isList := cur.([]any)
			if !isList {
				return nil, false, nil
			}
			var i int
			if i, ok = ItemIndex(l, pe); ok {
				cur = l[i]
			}
		}
		if !ok {
			return nil, false, nil
		}
	}
	return cur, true, nil
}

// ItemByKey is the item of the list cur that the key element pe selects:
// one with every key field equal, else the first that agrees on the key
// fields it has (ValueAt says why).
func ItemByKey(cur any, pe fieldpath.PathElement) (any, bool) {
	l, _ := cur.([]any)
	if i, ok := ItemIndex(l, pe); ok && pe.Key != nil {
		return l[i], true
	}
	return nil, false
}

// ItemIndex is the index in list of the item that pe selects: an index
// element's own, the first item equal to a value element, or a key
// element's item as ItemByKey chooses it. False when pe selects none, or
// is a field name.
func ItemIndex(list []any, pe fieldpath.PathElement) (int, bool) {
	switch {
	case pe.Index != nil:
		return *pe.Index, *pe.Index >= 0 && *pe.Index < len(list)
	case pe.Value != nil:
		want := (*pe.Value).Unstructured()
		for i, item := range list {
			if EqualValues(item, want) {
				return i, true
			}
		}
	case pe.Key != nil:
		partial := -1
		for i, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			switch MatchKey(m, pe) {
			case KeyExact:
				return i, true
			case KeyPartial:
				if partial < 0 {
					partial = i
				}
			}
		}
		return partial, partial >= 0
	}
	return 0, false
}

// KeyMatch is how a list item agrees with a key element.
type KeyMatch int

const (
	// KeyNone: a key field differs, or the item has none of them.
	KeyNone KeyMatch = iota
	// KeyPartial: the key fields the item has agree; some are missing.
	KeyPartial
	// KeyExact: every key field is there and agrees.
	KeyExact
)

// MatchKey is how item agrees with the key element pe.
func MatchKey(item map[string]any, pe fieldpath.PathElement) KeyMatch {
	present := 0
	for _, f := range *pe.Key {
		v, ok := item[f.Name]
		if !ok {
			continue
		}
		if !EqualValues(v, f.Value.Unstructured()) {
			return KeyNone
		}
		present++
	}
	switch present {
	case 0:
		return KeyNone
	case len(*pe.Key):
		return KeyExact
	}
	return KeyPartial
}

// CheckElement says why a path element selects nothing; nil when it
// selects one field, key, value or index.
func CheckElement(pe fieldpath.PathElement) error {
	n := 0
	if pe.FieldName != nil {
		n++
	}
	if pe.Key != nil {
		if len(*pe.Key) == 0 {
			return errors.New("empty key")
		}
		for _, f := range *pe.Key {
			if f.Value == nil {
				return errors.New("key field without a value")
			}
		}
		n++
	}
	if pe.Value != nil {
		if *pe.Value == nil {
			return errors.New("set element without a value")
		}
		n++
	}
	if pe.Index != nil {
		n++
	}
	if n != 1 {
		return errors.New("path element selects nothing")
	}
	return nil
}

// SetValueAt sets the value at p in an object's unstructured content,
// where the field's parent exists (ValueAt's walk); false when it does not.
func SetValueAt(obj any, p fieldpath.Path, v any) bool {
	if len(p) == 0 {
		return false
	}
	parent, found, err := ValueAt(obj, p[:len(p)-1])
	if err != nil || !found {
		return false
	}
	last := p[len(p)-1]
	switch {
	case last.FieldName != nil:
		m, ok := parent.(map[string]any)
		if !ok {
			return false
		}
		m[*last.FieldName] = v
		return true
	default:
		l, ok := parent.([]any)
		if !ok {
			return false
		}
		i, ok := ItemIndex(l, last)
		if !ok {
			return false
		}
		l[i] = v
		return true
	}
}
