package config

import "github.com/ownership-check/ownership-check/internal/model"

// Lookup reads the value a path without wildcards selects in obj (decoded
// JSON); ok is false when obj has nothing there. A key step matches a list
// item on the key fields the item has, preferring an item that has all of
// them: a finding's path carries the server's whole key
// ([containerPort=80,protocol="TCP"]) where a manifest often leaves a
// defaulted key field out.
func (p Path) Lookup(obj any) (any, bool) {
	return lookup(obj, p.steps)
}

func lookup(node any, els []model.PathStep) (any, bool) {
	if len(els) == 0 {
		return node, node != nil
	}
	e := els[0]
	if isField(e) {
		m, ok := node.(map[string]any)
		if !ok {
			return nil, false
		}
		// Field steps were split at dots: the longest key they spell wins
		// (".metadata.annotations.example.com/x").
		for n := len(els); n > 0; n-- {
			name, ok := joinFields(els[:n])
			if !ok {
				continue
			}
			if child, found := m[name]; found {
				return lookup(child, els[n:])
			}
		}
		return nil, false
	}
	list, ok := node.([]any)
	if !ok {
		return nil, false
	}
	best, bestScore := -1, 0
	for i, item := range list {
		if s := itemScore(e, item, i); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return nil, false
	}
	return lookup(list[best], els[1:])
}

// joinFields spells consecutive Field steps as one key; false when a step
// is not a plain field.
func joinFields(els []model.PathStep) (string, bool) {
	name := ""
	for i, e := range els {
		if !isField(e) || isAnyKey(e) {
			return "", false
		}
		if i > 0 {
			name += "."
		}
		name += *e.FieldName
	}
	return name, true
}

// itemScore is how well a list item matches a step: 0 not at all; for a
// key step, 1 + the number of key fields that match when every key field
// the item has matches.
func itemScore(e model.PathStep, item any, index int) int {
	if e.Key == nil {
		if MatchItem(e, item, index) {
			return 1
		}
		return 0
	}
	m, ok := item.(map[string]any)
	if !ok {
		return 0
	}
	matched := 0
	for _, k := range *e.Key {
		v, found := m[k.Name]
		if !found {
			continue
		}
		if !model.EqualValues(k.Value.Unstructured(), v) {
			return 0
		}
		matched++
	}
	if matched == 0 {
		return 0
	}
	return 1 + matched
}
