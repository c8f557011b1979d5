package migrate

import (
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/ownership"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// units lists the outermost units of the object that the scope selects:
// associative-list items ([name="x"]) and, when the scope names a map
// (a struct such as a securityContext), that map itself. Without a scope
// only list items count: taking a whole struct such as .spec would take
// the autoscaler's replicas too.
func units(all *fieldpath.Set, live map[string]any, scope *config.Path) []fieldpath.Path {
	var out []fieldpath.Path
	ownership.WalkNodes(all, nil, func(p fieldpath.Path) bool {
		if scope != nil && !scope.Covers(p) {
			return true
		}
		if isUnit(p, live, scope) {
			out = append(out, p)
			return false
		}
		return true
	})
	return out
}

func isUnit(p fieldpath.Path, live map[string]any, scope *config.Path) bool {
	if p[len(p)-1].Key != nil {
		return true
	}
	if scope == nil || scope.Covers(p[:len(p)-1]) {
		return false
	}
	// p is where the scope ends: a unit when it is a map, not a list whose
	// items are the units.
	v, found, err := model.ValueAt(live, p)
	if err != nil || !found {
		return false
	}
	_, isMap := v.(map[string]any)
	return isMap
}

// under returns the paths of s at or below unit.
func under(s *fieldpath.Set, unit fieldpath.Path) *fieldpath.Set {
	node := s
	for _, pe := range unit[:len(unit)-1] {
		child, ok := node.Children.Get(pe)
		if !ok {
			return &fieldpath.Set{}
		}
		node = child
	}
	last := unit[len(unit)-1]
	out := &fieldpath.Set{}
	if node.Members.Has(last) {
		out.Insert(unit.Copy())
	}
	if child, ok := node.Children.Get(last); ok {
		child.Iterate(func(rel fieldpath.Path) { out.Insert(join(unit, rel)) })
	}
	return out
}

// relative lists the paths of s (all at or below unit) relative to unit,
// the unit itself as ".".
func relative(s *fieldpath.Set, unit fieldpath.Path) []string {
	var out []string
	s.Iterate(func(p fieldpath.Path) {
		if len(p) == len(unit) {
			out = append(out, ".")
			return
		}
		out = append(out, p[len(unit):].String())
	})
	return out
}

func join(a, b fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
