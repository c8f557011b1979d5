package migrate

import (
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/ownership"
)

// Options say whose ownership to complete, and where.
type Options struct {
	// FieldManager is M, the name the deploy applies with.
	FieldManager string
	// Scope limits the split items taken to those at or below this path
	// (structured-merge-diff's string form); nil takes every split list item.
	Scope *config.Path
	// FromManagers are merged into M like client-side-apply managers, in
	// addition to the Update managers that own the last-applied annotation.
	FromManagers []string
}

// ObjectPlan is what migrate does to one live object.
type ObjectPlan struct {
	ID     model.ID
	Source string
	// ResourceVersion is the live version the plan was made from; the
	// change is refused if the object moved on since.
	ResourceVersion string
	// Upgrades are the client-side-apply managers merged into M.
	Upgrades []Upgrade
	// UpgradeUnsent are the fields M gains from them that the config does
	// not send: the next deploy removes them from the object.
	UpgradeUnsent []string
	// Items are the split items M takes whole, after the upgrades.
	Items []Item

	gvk           schema.GroupVersionKind
	managedFields []metav1.ManagedFieldsEntry
}

// Upgrade is one client-side-apply manager merged into M.
type Upgrade struct {
	model.Manager
	// Reason is why it counts as client-side apply.
	Reason string
	// Fields counts the fields it owned.
	Fields int
}

// Reasons an Update manager is upgraded.
const (
	ReasonLastApplied  = "owns the last-applied-configuration annotation"
	ReasonFromManagers = "named by --from-manager"
)

// Item is one split item and what M takes of it.
type Item struct {
	Path string
	// Owners say who owns which fields now (relative to Path, the item
	// itself as "."), M first; M takes every field of the others, shared
	// ones included, and owns the item alone afterwards.
	Owners []model.FieldOwners
	// Gone: the config no longer has the item, so the next deploy removes
	// it whole.
	Gone bool
	// Unsent are the fields M takes that the config does not send (when
	// the config keeps the item): the next deploy removes them.
	Unsent []string
}

// Empty tells whether there is nothing to do.
func (p *ObjectPlan) Empty() bool { return len(p.Upgrades) == 0 && len(p.Items) == 0 }

// lastApplied is the annotation client-side `kubectl apply` keeps.
var lastApplied = model.LastAppliedPath

// PlanObject plans the migration of one live object; desired is the
// rendered object, which tells what the next deploy will remove.
func PlanObject(desired model.Object, live *unstructured.Unstructured, o Options) (*ObjectPlan, error) {
	id := desired.ID
	if o.FieldManager == "" {
		return nil, fmt.Errorf("%s: no field manager given", id)
	}
	// ManagedSets fails on a malformed entry where GetManagedFields would
	// drop it silently.
	before, err := ownership.ManagedSets(live)
	if err != nil {
		return nil, fmt.Errorf("%s: live: %w", id, err)
	}
	p := &ObjectPlan{ID: id, Source: desired.Source, ResourceVersion: live.GetResourceVersion(), gvk: live.GroupVersionKind()}
	ref := &fieldpath.Set{}
	for _, e := range before {
		ref = ref.Union(e.Fields)
	}
	desiredSet, err := ownership.FieldSet(desired.Object, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: desired: %w", id, err)
	}
	desiredSet = ownership.CanonicalKeys(desiredSet, ref)

	entries, err := upgradeCSA(p, live, before, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	sets, err := decodeSets(entries)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	mi := applierIndex(entries, o.FieldManager)
	if len(p.Upgrades) > 0 {
		p.UpgradeUnsent = unsent(freed(p.Upgrades, before, sets, mi), desiredSet, nil)
	}
	if mi >= 0 {
		if err := p.takeSplitItems(entries, sets, mi, live.Object, desiredSet, o); err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
	}
	if p.Empty() {
		return p, nil
	}
	p.managedFields, err = encodeSets(entries, sets)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return p, nil
}

// takeSplitItems moves the other managers' fields of each split item into
// M's set (sets[mi]).
func (p *ObjectPlan) takeSplitItems(entries []metav1.ManagedFieldsEntry, sets []*fieldpath.Set, mi int, live map[string]any, desiredSet *fieldpath.Set, o Options) error {
	all := &fieldpath.Set{}
	for _, s := range sets {
		all = all.Union(s)
	}
	for _, unit := range units(all, live, o.Scope) {
		mine := under(sets[mi], unit)
		if mine.Empty() {
			continue
		}
		gone := !ownership.Covers(desiredSet, unit)
		if o.Scope == nil && !gone {
			// Unasked, only the items the deploy removes: taking an item it
			// keeps makes the next deploy remove every field of it that the
			// config does not send (a `kubectl set resources`, say).
			continue
		}
		// Any other owner counts, not only one of fields M lacks: where M
		// also owns all of another's fields but has some alone, the deploy
		// removes those and leaves the shared ones, a partial item as well.
		split := false
		for i, s := range sets {
			if i != mi && !under(s, unit).Empty() {
				split = true
			}
		}
		if !split {
			continue
		}
		item := Item{Path: unit.String()}
		item.Owners = append(item.Owners, fieldOwners(entries[mi], mine, unit))
		for i, s := range sets {
			theirs := under(s, unit)
			if i == mi || theirs.Empty() {
				continue
			}
			if entries[i].APIVersion != entries[mi].APIVersion {
				return fmt.Errorf("%s: %s recorded its fields at %s and %s at %s: migrate does not convert fields between versions; apply the object once at one version first",
					item.Path, describe(entries[i]), entries[i].APIVersion, o.FieldManager, entries[mi].APIVersion)
			}
			item.Owners = append(item.Owners, fieldOwners(entries[i], theirs, unit))
			sets[i] = s.Difference(theirs)
			sets[mi] = sets[mi].Union(theirs)
		}
		item.Gone = gone
		if !gone {
			item.Unsent = unsent(under(sets[mi], unit).Leaves(), desiredSet, unit)
		}
		p.Items = append(p.Items, item)
	}
	return nil
}

// unsent lists the paths of gained that desired does not send, relative to
// unit when one is given.
func unsent(gained, desiredSet *fieldpath.Set, unit fieldpath.Path) []string {
	var out []string
	gained.Iterate(func(q fieldpath.Path) {
		if ownership.Covers(desiredSet, q) {
			return
		}
		if unit != nil {
			out = append(out, relString(q[len(unit):]))
			return
		}
		out = append(out, q.String())
	})
	return out
}

func fieldOwners(e metav1.ManagedFieldsEntry, s *fieldpath.Set, unit fieldpath.Path) model.FieldOwners {
	paths := relative(s, unit)
	slices.Sort(paths)
	return model.FieldOwners{Manager: managerOf(e), Paths: paths}
}

func managerOf(e metav1.ManagedFieldsEntry) model.Manager {
	return model.Manager{Manager: e.Manager, Operation: string(e.Operation), Subresource: e.Subresource}
}

func describe(e metav1.ManagedFieldsEntry) string {
	s := e.Manager + " (" + string(e.Operation)
	if e.Subresource != "" {
		s += ", " + e.Subresource
	}
	return s + ")"
}

func relString(p fieldpath.Path) string {
	if len(p) == 0 {
		return "."
	}
	return p.String()
}

// applierIndex finds M's Apply entry on the main resource; -1 when M has
// none.
func applierIndex(entries []metav1.ManagedFieldsEntry, fieldManager string) int {
	for i, e := range entries {
		if ownership.IsApplier(managerOf(e), fieldManager) {
			return i
		}
	}
	return -1
}

// freed are the client-side-apply managers' fields that no other manager
// than M owns once they are merged into M: what a deploy that stops
// sending them now removes, where before the upgrade they stayed.
func freed(upgrades []Upgrade, before ownership.Ownership, sets []*fieldpath.Set, mi int) *fieldpath.Set {
	out := &fieldpath.Set{}
	for _, u := range upgrades {
		for _, e := range before {
			if e.Manager.Manager == u.Manager.Manager && e.Operation == u.Operation && e.Subresource == u.Subresource {
				out = out.Union(e.Fields)
			}
		}
	}
	out = out.Leaves()
	for i, s := range sets {
		if i != mi {
			out = out.Difference(s)
		}
	}
	return out
}
