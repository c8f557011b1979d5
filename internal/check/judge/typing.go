package judge

import (
	"github.com/ownership-check/ownership-check/internal/ownership"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// typeInput gives the analysis the run's schema of the object's kind, in
// its version and in the others the snapshot or managedFields recorded it
// in, and live as the cluster serves it in the snapshot's version when the
// deploy moves the object to another. It returns the object's note when
// the kind's structure is deduced for want of a schema; "" when a schema
// types it.
func (in Input) typeInput(ai *ownership.Input, res predict.Result) string {
	if in.Types == nil {
		return ""
	}
	gvk := res.Object.Object.GroupVersionKind()
	k := in.Types.Kind(gvk)
	ai.Types = k.Types
	ai.TypesOf = in.Types.TypesOf(gvk.Kind)
	if in.ReadAs != nil && ai.Deployed != nil && res.Live != nil && ai.Deployed.GetAPIVersion() != gvk.GroupVersion().String() {
		// A failed read leaves the record to be relabelled, or the object
		// compared against live: never a guess.
		if u, err := in.ReadAs(res.Object, ai.Deployed.GetAPIVersion()); err == nil {
			ai.LiveAsRecorded = in.redact(u)
		}
	}
	if res.Live == nil || k.Deduced == "" {
		// A new object has no ownership yet: its structure decides nothing.
		return ""
	}
	return "schema deduced: " + k.Deduced + ", so its structure is deduced from the values, and keyed lists are owned whole rather than item by item as the API server does"
}
