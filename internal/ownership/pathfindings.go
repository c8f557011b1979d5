package ownership

import (
	"github.com/ownership-check/ownership-check/internal/model"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// findings runs the rules: object-level first, then every path.
// It never returns nil: the report tells "checked, clean" by an empty list.
func (a *analysis) findings() []model.Finding {
	out := append([]model.Finding{}, a.notes...)
	switch {
	case a.in.Desired == nil:
		if a.in.Applied != nil || a.in.Deployed != nil {
			out = append(out, a.removedFinding())
		}
		return sortFindings(out)
	case a.in.Live == nil && a.in.Deployed != nil:
		// Deleted out of band: every path is row 13 (the deploy owned it,
		// owns it again, someone else removed it), one finding says it.
		return sortFindings(append(out, a.deletedFinding()))
	case a.in.Live == nil:
		// Every path would read as new; one finding says it better.
		return sortFindings(append(out, a.newFinding()))
	}
	for _, p := range a.paths() {
		out = append(out, a.pathFindings(p)...)
	}
	out = append(out, a.splitFindings()...)
	out = append(out, a.keptFindings()...)
	return sortFindings(out)
}

// paths is the union the model classifies: M's fields in the baseline and
// in the prediction, the leaves of desired and of the applied config.
func (a *analysis) paths() []fieldpath.Path {
	u := a.prevM.Union(a.predictedM).Union(a.desiredSet).Union(a.appliedSet)
	u = withoutServerManaged(u).Leaves()
	var out []fieldpath.Path
	u.Iterate(func(p fieldpath.Path) { out = append(out, p.Copy()) })
	return out
}

// pathFindings reports p's row, and for a release what happens to the value.
func (a *analysis) pathFindings(p fieldpath.Path) []model.Finding {
	if a.setAgain(p) {
		return nil
	}
	t := a.transition(p)
	if a.baseline == BaselineLive && !t.PrevOwned && t.NowOwned && !t.ConfigChanged {
		// Rows 4 and 5 are impossible only against a snapshot. Against
		// live they are the deploy applying the value another manager
		// wrote: it becomes a co-owner (docs/report.md, docs/first-check.md),
		// where its method shares.
		if a.rules.shares {
			a.adopt(p)
		}
		return nil
	}
	cat, report := Classify(t)
	if !report {
		return nil
	}
	cat = a.rules.category(cat)
	v := a.values(p)
	f := model.Finding{
		Category:   cat,
		Transition: &t,
		Path:       p.String(),
		FieldPath:  p.Copy(),
		Managers:   a.liveOthers.OwnersOf(p),
	}
	a.setValues(&f, v)
	f.Message = a.message(cat, t, p, v, f.Managers)
	out := []model.Finding{f}
	if cat == model.Release && v.liveOK {
		g := model.Finding{Path: f.Path, FieldPath: f.FieldPath, Managers: f.Managers}
		a.setValues(&g, v)
		if a.rules.byPrediction {
			// The prediction is the merge the deployer sends: the field is
			// gone, or it stays and the release says so.
			if _, stays := valueAt(a.predict, p); stays {
				return out
			}
			g.Category = model.Reset
		} else if len(f.Managers) > 0 || a.liveViaStringData != nil && a.liveViaStringData.Has(p) {
			g.Category = model.Retained
		} else {
			g.Category = model.Reset
		}
		g.Message = a.message(g.Category, t, p, v, f.Managers)
		out = append(out, g)
	}
	return out
}

// pathValues are the values at one path, read once per finding.
type pathValues struct {
	hidden                 bool
	desired, applied       any
	desiredOK, appliedOK   bool
	deployed, live, target any
	deployedOK, liveOK     bool
	targetOK               bool
}

func (a *analysis) values(p fieldpath.Path) pathValues {
	var v pathValues
	v.desired, v.desiredOK = valueAt(a.desired, p)
	v.applied, v.appliedOK = a.earlierAt(p)
	v.deployed, v.deployedOK = valueAt(a.deployed, p)
	v.live, v.liveOK = valueAt(a.live, p)
	// What the path holds after the deploy: the config's value, or the
	// prediction's when the config does not set it.
	v.target, v.targetOK = v.desired, v.desiredOK
	if !v.targetOK {
		v.target, v.targetOK = valueAt(a.predict, p)
	}
	v.hidden = a.hides(p, v.desired, v.applied, v.deployed, v.live, v.target)
	return v
}

// hides is the Secret and redaction rules' decision for a path, given
// every value it holds in any version of the object.
func (a *analysis) hides(p fieldpath.Path, values ...any) bool {
	if a.secret {
		return model.HiddenPath(p)
	}
	for _, x := range values {
		if a.in.Redaction.Hides(a.id, p, x) {
			return true
		}
	}
	return false
}

func (a *analysis) setValues(f *model.Finding, v pathValues) {
	show := func(x any, ok bool) any {
		if !ok {
			return nil
		}
		if v.hidden {
			return model.HiddenValue
		}
		return copyValue(x)
	}
	if a.baseline == BaselineSnapshot {
		f.DeployedValue = show(v.deployed, v.deployedOK)
	}
	f.LiveValue = show(v.live, v.liveOK)
	f.DesiredValue = show(v.desired, v.desiredOK)
}

func (a *analysis) newFinding() model.Finding {
	return model.Finding{Category: model.New, Message: "not in the cluster: the deploy creates it" + a.createdByUpdate()}
}

// deletedFinding is the one drift of an object the last deploy left in the
// cluster and someone deleted since. It carries no values: the whole
// object is the value, and for a Secret none may be shown.
func (a *analysis) deletedFinding() model.Finding {
	t := model.NewTransition(true, true, false, true)
	return model.Finding{
		Category:   model.Drift,
		Transition: &t,
		Path:       model.WholeObject,
		Message:    DeletedMessage,
	}
}

// DeletedMessage words an object deleted out of band.
const DeletedMessage = "deleted since the last deploy (the last deploy left it in the cluster, and it is gone); the deploy creates it again"

func (a *analysis) removedFinding() model.Finding {
	msg := model.RemovedMessage
	if a.in.Live == nil {
		msg += " (it is already gone from the cluster)"
	}
	return model.Finding{Category: model.Removed, Message: msg}
}
