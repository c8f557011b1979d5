package ownership

import (
	"github.com/ownership-check/ownership-check/internal/model"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// transition answers the four questions for p.
func (a *analysis) transition(p fieldpath.Path) model.Transition {
	// A field the deploy stops sending is released under byPrediction
	// whoever's name it carries: a client-side merge removes what the
	// deployer sent before.
	stops := a.stopsSending(p)
	mine := a.configField(p)
	prev := Covers(a.prevM, p) && mine || stops
	now := a.sends(p) || Covers(a.predictedM, p) && mine && !stops

	dv, dok := valueAt(a.desired, p)
	if a.baseline == BaselineLive && dok {
		// Against live, compare like with like: the server's form of what
		// the deploy sends (the prediction: defaults filled in, as in an
		// atomic fieldRef's apiVersion) with the server's form of live.
		if pv, ok := valueAt(a.predict, p); ok {
			dv = pv
		}
	}
	ev, eok := a.earlierAt(p)
	config := differ(dv, dok, ev, eok)

	var external bool
	lv, lok := valueAt(a.live, p)
	if a.baseline == BaselineSnapshot {
		bv, bok := valueAt(a.deployed, p)
		external = differ(lv, lok, bv, bok) && !a.setByAdmission(p)
	} else {
		// With nothing recorded, a value another manager holds that the
		// deploy replaces is the external change: it is what an
		// autoscaler or a hand edit leaves behind.
		external = dok && lok && !model.EqualValues(lv, dv) && len(a.liveOthers.OwnersOf(p)) > 0
	}
	return model.NewTransition(prev, now, config, external)
}

// sends tells whether the deploy sends p: desired has it, a part of it, or
// an atomic value that holds it (a list the converter could not split into
// items although the server does, as for a CRD without a schema here).
func (a *analysis) sends(p fieldpath.Path) bool {
	if Covers(a.desiredSet, p) {
		return true
	}
	if !atomicAncestor(a.desiredSet, p) {
		return false
	}
	_, ok := valueAt(a.desired, p)
	return ok
}

// atomicAncestor tells whether s has a leaf above p.
func atomicAncestor(s *fieldpath.Set, p fieldpath.Path) bool {
	node := s
	for _, pe := range p[:max(len(p)-1, 0)] {
		child, ok := node.Children.Get(pe)
		if node.Members.Has(pe) && (!ok || child.Empty()) {
			return true
		}
		if !ok {
			return false
		}
		node = child
	}
	return false
}

func differ(a any, aok bool, b any, bok bool) bool {
	if aok != bok {
		return true
	}
	return aok && !model.EqualValues(a, b)
}

// valueAt reads a value. A null counts as absent: an apply of null unsets
// the field, and the server stores nothing. The sets paths come from are
// validated, so an error cannot occur and would only mean "absent".
func valueAt(obj map[string]any, p fieldpath.Path) (any, bool) {
	if obj == nil {
		return nil, false
	}
	v, ok, err := model.ValueAt(obj, p)
	if err != nil || v == nil {
		return nil, false
	}
	return v, ok
}
