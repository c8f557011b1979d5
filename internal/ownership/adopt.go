package ownership

import (
	"sort"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// adopt counts p as a field the deploy comes to share with each manager
// that owns it in live.
func (a *analysis) adopt(p fieldpath.Path) {
	if a.adopted == nil {
		a.adopted = map[model.Manager]int{}
	}
	for _, m := range a.liveOthers.OwnersOf(p) {
		m.Time = ""
		a.adopted[m]++
	}
}

// adoptions lists the managers adopt counted, sorted by manager.
func (a *analysis) adoptions() []model.Adoption {
	var out []model.Adoption
	for m, n := range a.adopted {
		ad := model.Adoption{Manager: m, Fields: n}
		for _, e := range a.liveOthers {
			if e.Manager.Manager == m.Manager && e.Operation == m.Operation && e.Subresource == m.Subresource &&
				Covers(e.Fields, model.LastAppliedPath) {
				ad.ClientSideApply = true
			}
		}
		out = append(out, ad)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manager.Less(out[j].Manager) })
	return out
}
