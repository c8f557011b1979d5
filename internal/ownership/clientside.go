package ownership

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// ClientSide is what the deployer does with live's client-side managers
// (model.ClientSideManagers) at its first server-side apply.
type ClientSide struct {
	// Managers are live's client-side managers.
	Managers []string
	// Upgraded: the deployer merges them into M's Apply entry before it
	// applies (csaupgrade), so their fields are M's: the prediction was
	// made so, and live's and the snapshot's managedFields are read so.
	// Otherwise their fields stay theirs, and one the config no longer
	// sends is kept (retained, ReasonClientSideKept).
	Upgraded bool
}

// upgradeClientSide reads live and the snapshot's deployed object as the
// deployer's upgrade leaves them: the same managers merged into M, so
// that a field one of them owned is M's before the deploy (prevOwned),
// and one the config no longer sends is released by it.
func upgradeClientSide(in Input) (Input, error) {
	cs := in.ClientSide
	if !cs.Upgraded || len(cs.Managers) == 0 {
		return in, nil
	}
	names := sets.New(cs.Managers...)
	up := func(u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
		if u == nil {
			return nil, nil
		}
		u = u.DeepCopy()
		if err := csaupgrade.UpgradeManagedFields(u, names, in.FieldManager); err != nil {
			return nil, fmt.Errorf("client-side upgrade of %s: %w", model.JoinAnd(cs.Managers), err)
		}
		return u, nil
	}
	var err error
	if in.Live, err = up(in.Live); err != nil {
		return in, fmt.Errorf("live: %w", err)
	}
	if in.Deployed, err = up(in.Deployed); err != nil {
		return in, fmt.Errorf("snapshot deployed: %w", err)
	}
	return in, nil
}

// keptFindings states the fields of client-side managers the deployer does
// not upgrade that the config no longer sends: the deploy leaves them,
// and without this the report would say nothing of a field the pull
// request removes (it is not the deploy's, so no table row holds it).
func (a *analysis) keptFindings() []model.Finding {
	cs := a.in.ClientSide
	if cs.Upgraded || len(cs.Managers) == 0 || a.in.Live == nil || a.in.Desired == nil {
		return nil
	}
	kept := &fieldpath.Set{}
	for _, o := range a.liveOthers {
		if o.Operation == OperationUpdate && o.Subresource == "" && slices.Contains(cs.Managers, o.Manager.Manager) {
			kept = kept.Union(o.Fields)
		}
	}
	kept = withoutServerManaged(kept).Leaves()
	var out []model.Finding
	kept.Iterate(func(p fieldpath.Path) {
		if p.Equals(model.LastAppliedPath) || Covers(a.prevM, p) || Covers(a.predictedM, p) ||
			Covers(a.desiredSet, p) || atomicAncestor(a.desiredSet, p) {
			return
		}
		v := a.values(p)
		if !v.liveOK {
			return
		}
		others := a.liveOthers.OwnersOf(p)
		f := model.Finding{
			Category:  model.Retained,
			Reason:    model.ReasonClientSideKept,
			Path:      p.String(),
			FieldPath: p.Copy(),
			Managers:  others,
		}
		a.setValues(&f, v)
		f.Message = "kept: owned by " + describeManagers(others) +
			", a client-side manager the deployer does not merge into its own (deployer.upgradesClientSide: false), so the deploy leaves it in place although the config does not send it"
		if !v.hidden {
			f.Message += " (" + show(v.live, false) + ")"
		}
		out = append(out, f)
	})
	return out
}
