package config

// Lookup reads the value a path without wildcards selects in obj (decoded
// JSON); ok is false when obj has nothing there. A key step matches a list
// item on the key fields the item has, preferring an item that has all of
// them: a finding's path carries the server's whole key
// ([containerPort=80,protocol="TCP"]) where a manifest often leaves a
// defaulted key field out.
func (p Path) Lookup(obj any) (any, bool) {
	return lookup(obj, p.elements)
}

func lookup(node any, els []Element) (any, bool) {
	if len(els) == 0 {
		return node, node != nil
	}
	e := els[0]
	if e.Kind == Field {
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
func joinFields(els []Element) (string, bool) {
	name := ""
	for i, e := range els {
		if e.Kind != Field || e.Name == AnyName {
			return "", false
		}
		if i > 0 {
			name += "."
		}
		name += e.Name
	}
	return name, true
}

// itemScore is how well a list item matches a step: 0 not at all; for a
// key step, 1 + the number of key fields that match when every key field
// the item has matches.
func itemScore(e Element, item any, index int) int {
	if e.Kind != Keys {
		if e.MatchItem(item, index) {
			return 1
		}
		return 0
	}
	m, ok := item.(map[string]any)
	if !ok {
		return 0
	}
	matched := 0
	for _, k := range e.Keys {
		v, found := m[k.Name]
		if !found {
			continue
		}
		if !equalValues(k.Value, v) {
			return 0
		}
		matched++
	}
	if matched == 0 {
		return 0
	}
	return 1 + matched
}
