package ownership

import (
	"github.com/ownership-check/ownership-check/internal/model"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// setByAdmission tells a value the API server's admission wrote (a
// MutatingAdmissionPolicy, a mutating webhook) from drift. Admission
// changes an object after the field manager has recorded the request, so
// the value it writes has no manager of its own: a field nobody owns, or
// one the deploy keeps owning with the policy's value instead of its own.
// When live differs from the last deploy at p, no other manager owns p in
// live, and the dry-run of the deploy's own apply holds live's value, no
// one changed it that the deploy could revert: the server sets it on every
// write, the deploy's included. (Drift by any request, a hand edit or a
// controller, leaves its manager on the field, and the forced apply puts
// the deploy's value back.)
//
// Against live there is no recorded value to differ from: the external
// change there already needs another manager.
func (a *analysis) setByAdmission(p fieldpath.Path) bool {
	if a.baseline != BaselineSnapshot {
		return false
	}
	lv, lok := valueAt(a.live, p)
	pv, pok := valueAt(a.predict, p)
	if !lok || !pok || !model.EqualValues(lv, pv) {
		return false
	}
	return len(a.liveOthers.OwnersOf(p)) == 0
}
