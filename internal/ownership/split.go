package ownership

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/schema"
)

// maxListedFields bounds the fields a split-ownership message names per
// manager; Finding.Owners lists them all.
const maxListedFields = 6

// splitFindings reports the units the config removes while other managers
// keep part of them (seed 004). A unit is an associative-list item
// ([name="x"]) or a struct-typed field (a volume's configMap, a container's
// resources), never a free-form map such as labels or annotations, whose
// keys stand alone. Server-Side Apply removes only the fields no other
// manager owns, so such a unit survives in part, which often fails
// validation. A client-side merge or a replace removes it whole or keeps
// it whole, as the prediction shows (removedWhole). Only the outermost
// such unit is reported.
func (a *analysis) splitFindings() []model.Finding {
	all := &fieldpath.Set{}
	for _, o := range a.liveOwners {
		all = all.Union(o.Fields)
	}
	var out []model.Finding
	WalkNodes(all, nil, func(p fieldpath.Path) bool {
		if !a.isUnit(p) || Covers(a.desiredSet, p) {
			return true
		}
		if _, ok := valueAt(a.live, p); !ok {
			return true
		}
		f, split := a.splitFinding(p)
		if split {
			out = append(out, f)
		}
		return !split
	})
	return out
}

// WalkNodes visits every node of s that has children (maps, list items),
// parents first, with its full path; visit returns whether to descend.
func WalkNodes(s *fieldpath.Set, prefix fieldpath.Path, visit func(fieldpath.Path) bool) {
	s.Children.Iterate(func(pe fieldpath.PathElement) {
		child, _ := s.Children.Get(pe)
		p := make(fieldpath.Path, len(prefix)+1)
		copy(p, prefix)
		p[len(prefix)] = pe
		if visit(p) {
			WalkNodes(child, p, visit)
		}
	})
}

func (a *analysis) splitFinding(unit fieldpath.Path) (model.Finding, bool) {
	if f, decided, found := a.removedWhole(unit); decided {
		return f, found
	}
	removed := false
	var owners []model.FieldOwners
	var others []model.Manager
	for _, o := range a.liveOwners {
		rel := relativeLeaves(o.Fields, unit)
		if len(rel) == 0 {
			continue
		}
		names := make([]string, len(rel))
		for i, r := range rel {
			names[i] = relString(r)
		}
		sort.Strings(names)
		fo := model.FieldOwners{Manager: o.Manager, Paths: names}
		if !a.rules.owns(o.Manager, a.in.FieldManager) {
			owners = append(owners, fo)
			others = append(others, o.Manager)
			continue
		}
		// The deploy's own fields lead the list.
		owners = append([]model.FieldOwners{fo}, owners...)
		for _, r := range rel {
			if !a.ownedByOthers(joinPath(unit, r)) {
				removed = true
			}
		}
	}
	if !removed || len(others) == 0 {
		return model.Finding{}, false
	}
	return model.Finding{
		Category:  model.SplitOwnership,
		Path:      unit.String(),
		FieldPath: unit.Copy(),
		Managers:  others,
		Owners:    owners,
		Message:   a.splitMessage(unit, owners),
	}, true
}

// removedWhole decides a unit under a method the prediction speaks for
// (a client-side merge, a replace): the strategic merge's three-way patch
// deletes an item of the original whole, and a replace keeps only what it
// sends, whoever owns the fields; no partial item stays. A unit gone from
// the prediction is the deploy removing it, named with the other managers
// whose fields go with it (found); one the prediction keeps whole is not
// removed, which the release of its fields says. decided is false where
// the rows above must decide: another method, no prediction, or an item
// the prediction keeps in part.
func (a *analysis) removedWhole(unit fieldpath.Path) (f model.Finding, decided, found bool) {
	if !a.rules.byPrediction || a.in.Predicted == nil {
		return model.Finding{}, false, false
	}
	live, _ := valueAt(a.live, unit)
	if after, ok := valueAt(a.predict, unit); ok {
		return model.Finding{}, model.EqualValues(after, live), false
	}
	var owners []model.FieldOwners
	var others []model.Manager
	for _, o := range a.liveOwners {
		rel := relativeLeaves(o.Fields, unit)
		if len(rel) == 0 || a.rules.owns(o.Manager, a.in.FieldManager) {
			continue
		}
		names := make([]string, len(rel))
		for i, r := range rel {
			names[i] = relString(r)
		}
		sort.Strings(names)
		owners = append(owners, model.FieldOwners{Manager: o.Manager, Paths: names})
		others = append(others, o.Manager)
	}
	if len(others) == 0 {
		// The deploy's own fields alone: their releases say it.
		return model.Finding{}, true, false
	}
	parts := make([]string, len(owners))
	for i, o := range owners {
		parts[i] = o.Manager.String() + " owns " + model.JoinAnd(o.Paths)
	}
	return model.Finding{
		Category:  model.Reset,
		Path:      unit.String(),
		FieldPath: unit.Copy(),
		Managers:  others,
		Owners:    owners,
		Message:   a.removedWholeMessage(strings.Join(parts, "; ")),
	}, true, true
}

func (a *analysis) ownedByOthers(p fieldpath.Path) bool {
	return len(a.liveOthers.OwnersOf(p)) > 0
}

// relativeLeaves lists the leaves s has at or below unit, relative to it;
// the unit itself (an item owned through its "." entry alone) is ".".
func relativeLeaves(s *fieldpath.Set, unit fieldpath.Path) []fieldpath.Path {
	var out []fieldpath.Path
	node := s
	for i, pe := range unit {
		if i == len(unit)-1 && node.Members.Has(pe) {
			if child, ok := node.Children.Get(pe); !ok || child.Empty() {
				return []fieldpath.Path{{}}
			}
		}
		child, ok := node.Children.Get(pe)
		if !ok {
			return nil
		}
		node = child
	}
	node.Leaves().Iterate(func(p fieldpath.Path) { out = append(out, p.Copy()) })
	return out
}

func joinPath(a, b fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

func relString(p fieldpath.Path) string {
	if len(p) == 0 {
		return "."
	}
	return p.String()
}

func (a *analysis) splitMessage(unit fieldpath.Path, owners []model.FieldOwners) string {
	parts := make([]string, len(owners))
	for i, o := range owners {
		fields := o.Paths
		if len(fields) > maxListedFields {
			fields = append(fields[:maxListedFields:maxListedFields], fmt.Sprintf("%d more", len(o.Paths)-maxListedFields))
		}
		parts[i] = o.Manager.String() + " owns " + model.JoinAnd(fields)
	}
	return fmt.Sprintf("the config removes it, but its fields are split: %s. "+
		"The deploy removes only the fields no other manager owns and leaves a partial item, "+
		"which may fail validation (a required field missing); take whole ownership first: "+
		"ownership-check migrate --field-manager %s --scope '%s'",
		strings.Join(parts, "; "), a.in.FieldManager, unit.String())
}

// isUnit tells whether p ends in a list item selected by key, or in a field
// whose schema type is a struct.
func (a *analysis) isUnit(p fieldpath.Path) bool {
	last := p[len(p)-1]
	if last.Key != nil {
		return true
	}
	if last.FieldName == nil || a.desiredTyped == nil {
		return false
	}
	atom, ok := resolveAt(a.desiredTyped.Schema(), a.desiredTyped.TypeRef(), p)
	return ok && atom.Map != nil && len(atom.Map.Fields) > 0 && atom.Map.ElementRelationship != schema.Atomic
}

// resolveAt follows p through a schema to the type found there.
func resolveAt(s *schema.Schema, tr schema.TypeRef, p fieldpath.Path) (schema.Atom, bool) {
	atom, ok := s.Resolve(tr)
	for _, pe := range p {
		if !ok {
			return schema.Atom{}, false
		}
		switch {
		case pe.FieldName != nil:
			if atom.Map == nil {
				return schema.Atom{}, false
			}
			if f, found := atom.Map.FindField(*pe.FieldName); found {
				tr = f.Type
			} else {
				tr = atom.Map.ElementType
			}
		default:
			if atom.List == nil {
				return schema.Atom{}, false
			}
			tr = atom.List.ElementType
		}
		atom, ok = s.Resolve(tr)
	}
	return atom, ok
}

// SplitBlame is what a dry-run refusal of an object with split-owned
// items is most likely due to (seed 004): the managers that keep part of
// them, and the sentence naming the items and their owners to add to the
// refusal's message; nil and "" when no finding is split-ownership.
func SplitBlame(findings []model.Finding) ([]model.Manager, string) {
	var splits []string
	var managers []model.Manager
	seen := map[model.Manager]bool{}
	for _, s := range findings {
		if s.Category != model.SplitOwnership {
			continue
		}
		splits = append(splits, s.Path)
		for _, o := range s.Owners {
			if !seen[o.Manager] {
				seen[o.Manager] = true
				managers = append(managers, o.Manager)
			}
		}
	}
	if len(splits) == 0 {
		return managers, ""
	}
	names := make([]string, 0, len(managers))
	for _, m := range managers {
		names = append(names, m.String())
	}
	sort.Strings(names)
	return managers, fmt.Sprintf("; likely caused by split ownership of %s, owned by %s (see split-ownership)",
		strings.Join(splits, ", "), strings.Join(names, ", "))
}
