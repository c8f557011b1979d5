package ownership

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// ClientSide is what the deployer does with live's client-side managers
// (delivery.ClientSideManagers) at its first server-side apply.
type ClientSide struct {
	// Managers are live's client-side managers.
	Managers []string
	// Upgraded: the deployer merges them into M's Apply entry before it
	// applies (csaupgrade), so their fields are M's: the prediction was
	// made so, and live's and the snapshot's managedFields are read so.
	// Otherwise their fields stay theirs, and one the config no longer
	// sends is kept (retained, ReasonClientSideKept).
	Upgraded bool
	// NotFirst: they are not upgraded because the deploy has applied the
	// object server-side before (delivery.FirstServerSideDeploy), although
	// the deployer upgrades at its first server-side deploy
	// (ReasonClientSideLeft).
	NotFirst bool
}

// upgradeClientSide reads live and the snapshot's deployed object as the
// deployer's upgrade leaves them: the same managers merged into M, so
// that a field one of them owned is M's before the deploy (prevOwned),
// and one the config no longer sends is released by it.
func upgradeClientSide(in Input) (Input, *fieldpath.Set, error) {
	cs := in.ClientSide
	if !cs.Upgraded || len(cs.Managers) == 0 || in.Live == nil || !in.Apply.ServerSide() {
		return in, nil, nil
	}
	before, err := ManagedSets(in.Live)
	if err != nil {
		return in, nil, fmt.Errorf("live: %w", err)
	}
	moved := &fieldpath.Set{}
	for _, o := range before {
		if o.Operation == OperationUpdate && o.Subresource == "" && slices.Contains(cs.Managers, o.Manager.Manager) {
			moved = moved.Union(o.Fields)
		}
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
	if in.Live, err = up(in.Live); err != nil {
		return in, nil, fmt.Errorf("live: %w", err)
	}
	if in.Deployed, err = up(in.Deployed); err != nil {
		return in, nil, fmt.Errorf("snapshot deployed: %w", err)
	}
	return in, moved, nil
}

// setAgain tells a field the upgrade made the deploy's, that the deploy
// does not send, and that the server sets again as it is: a default or
// a derived label a client-side write came to own. The deploy releases
// it and nothing changes, which is no news to the reader.
func (a *analysis) setAgain(p fieldpath.Path) bool {
	if a.fromClientSide == nil || !Covers(a.fromClientSide, p) || Covers(a.desiredSet, p) || Covers(a.predictedM, p) {
		return false
	}
	if a.in.Predicted == nil {
		return a.serverSet(p)
	}
	live, liveOK := valueAt(a.live, p)
	after, afterOK := valueAt(a.predict, p)
	return liveOK && afterOK && model.EqualValues(live, after)
}

// serverSet tells, with no prediction to show what the server sets again
// (the apply is refused on a conflict the upgrade leaves: Helm 4's
// --server-side=true over a hand edit), a field the upgrade made the
// deploy's that the client-side deploys never sent: the server set it on
// their writes (a default, a derived label). Such a field is no more the
// deploy's news than after an apply that passes: the apply that passes
// releases it and the server sets it again, and the refused one writes
// nothing. What was sent is read from the snapshot's applied config, or
// live's last-applied annotation; without either nothing is told apart,
// and every such field is said released. The annotation itself is the
// deploy's after the upgrade, and goes (docs/deployers-apply.md).
func (a *analysis) serverSet(p fieldpath.Path) bool {
	if _, ok := valueAt(a.live, p); !ok || p.Equals(model.LastAppliedPath) {
		return false
	}
	if a.baseline == BaselineSnapshot {
		_, sent := a.earlierAt(p)
		return !sent
	}
	if _, ok := a.in.Live.GetAnnotations()[model.LastAppliedAnnotation]; !ok {
		return false
	}
	if a.sentBefore == nil {
		a.sentBefore = a.sentClientSide()
	}
	return !Covers(a.sentBefore, p)
}

// keptFindings states the fields of client-side managers the deployer does
// not upgrade that the config no longer sends: the deploy leaves them,
// and without this the report would say nothing of a field the pull
// request removes (it is not the deploy's, so no table row holds it).
func (a *analysis) keptFindings() []model.Finding {
	cs := a.in.ClientSide
	if cs.Upgraded || len(cs.Managers) == 0 || a.in.Live == nil || a.in.Desired == nil || !a.in.Apply.ServerSide() {
		return nil
	}
	kept := &fieldpath.Set{}
	for _, o := range a.liveOthers {
		if o.Operation == OperationUpdate && o.Subresource == "" && slices.Contains(cs.Managers, o.Manager.Manager) {
			kept = kept.Union(o.Fields)
		}
	}
	// An Update entry also owns what the server set on its writes
	// (defaults, a Namespace's name label): only what the client-side
	// deploys sent is the config's, which the last-applied annotation
	// records, and the snapshot's applied config too.
	kept = withoutServerManaged(kept).Leaves().Intersection(a.sentClientSide().Union(a.appliedSet))
	reason, why := delivery.ReasonClientSideKept, ", a client-side manager the deployer does not merge into its own (deployer.upgradesClientSide: false)"
	if cs.NotFirst {
		reason, why = delivery.ReasonClientSideLeft, ", a client-side manager an earlier server-side deploy did not merge into the deploy's, and deployers merge them at their first server-side deploy only"
	}
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
			Reason:    reason,
			Path:      p.String(),
			FieldPath: p.Copy(),
			Managers:  others,
		}
		a.setValues(&f, v)
		f.Message = "kept: owned by " + describeManagers(others) + why + ", so the deploy leaves it in place although the config does not send it"
		if !v.hidden {
			f.Message += " (" + show(v.live, false) + ")"
		}
		out = append(out, f)
	})
	return out
}

// sentClientSide is the field set of the config client-side `kubectl
// apply` last sent, from live's last-applied annotation; empty without
// one (or when it cannot be read: a Secret's is hidden).
func (a *analysis) sentClientSide() *fieldpath.Set {
	raw, ok := a.in.Live.GetAnnotations()[model.LastAppliedAnnotation]
	if !ok {
		return &fieldpath.Set{}
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON([]byte(raw)); err != nil {
		return &fieldpath.Set{}
	}
	s, _, err := typedFieldSet(u, a.in.Types)
	if err != nil {
		return &fieldpath.Set{}
	}
	ref := &fieldpath.Set{}
	for _, o := range a.liveOwners {
		ref = ref.Union(o.Fields)
	}
	return CanonicalKeys(s, ref).Leaves()
}
