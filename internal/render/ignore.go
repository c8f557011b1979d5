package render

import (
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
)

// removeIgnored deletes what the ignore rules select from an object, in
// place. A map that the removal leaves empty goes too (ignoring the only
// annotation must not leave "annotations: {}", which the deploy would then
// own); maps that were empty before, and list items, stay.
func removeIgnored(obj map[string]any, paths []config.Path) {
	for _, p := range paths {
		removePath(obj, p.Steps())
	}
}

// removePath removes the locations els select below node and returns the
// node (a new slice when list items were removed).
func removePath(node any, els []model.PathStep) any {
	if len(els) == 0 {
		return node
	}
	e := els[0]
	if e.FieldName != nil {
		m, ok := node.(map[string]any)
		if !ok {
			return node
		}
		for key, child := range m {
			n := config.FieldSpan(els, 0, key)
			switch {
			case n == 0:
			case n == len(els):
				delete(m, key)
			default:
				wasFull := isNonEmptyMap(child)
				m[key] = removePath(child, els[n:])
				if wasFull && !isNonEmptyMap(m[key]) {
					delete(m, key)
				}
			}
		}
		return m
	}
	list, ok := node.([]any)
	if !ok {
		return node
	}
	out := make([]any, 0, len(list))
	for i, item := range list {
		if config.MatchItem(e, item, i) {
			if len(els) == 1 {
				continue
			}
			item = removePath(item, els[1:])
		}
		out = append(out, item)
	}
	return out
}

func isNonEmptyMap(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) > 0
}
