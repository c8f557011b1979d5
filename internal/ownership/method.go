package ownership

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// How the deploy's way of applying (Input.Apply) reads in the findings:
// one row per method, so that no rule switches on the method itself.
// A server-side apply owns through its Apply entry, meets another
// manager's field as a conflict (forced: taken) and releases what it stops
// sending to whoever else owns it. A client-side apply and a replace are
// an Update under the deploy's name: nothing conflicts, a field another
// manager changed is reverted silently, and what the deploy stops sending
// is removed or stays as the prediction shows, whoever else owns it
// (docs/deployers-apply.md "The three methods").

// methodRules is one method's row.
type methodRules struct {
	// ownUpdate: the deploy's Update entry on the main resource is its
	// own entry beside its Apply entry (a client-side patch and a PUT are
	// recorded as Update).
	ownUpdate bool
	// takesBack: rows 7, 13 and 15 (another manager changed the field the
	// deploy sends) are a taking naming that manager, never a conflict.
	takesBack bool
	// byPrediction: a released field is removed or stays as the
	// prediction shows, not as its co-owners decide.
	byPrediction bool
	// shares: a field another manager holds with the value the deploy
	// sends becomes shared with it (an apply's co-ownership, the first
	// deploy's adoptions); an Update leaves an unchanged value's owner be.
	shares bool
	// how words the method in messages: "a client-side apply".
	how string
}

var methodTable = map[string]methodRules{
	delivery.ApplyServerSide: {shares: true, how: "a server-side apply"},
	delivery.ApplyClientSide: {ownUpdate: true, takesBack: true, byPrediction: true, how: "a client-side apply"},
	delivery.ApplyReplace:    {ownUpdate: true, takesBack: true, byPrediction: true, how: "a replace"},
}

// rulesOf is m's row; the zero method is the default forced server-side
// apply.
func rulesOf(m delivery.ApplyMethod) methodRules {
	if r, ok := methodTable[m.Method]; ok {
		return r
	}
	return methodTable[delivery.ApplyServerSide]
}

// owns tells whether m is the deploy's own entry under these rules.
func (r methodRules) owns(m model.Manager, fieldManager string) bool {
	if IsApplier(m, fieldManager) {
		return true
	}
	return r.ownUpdate && m.Manager == fieldManager && m.Operation == OperationUpdate && m.Subresource == ""
}

// own is the union of the fields of o's entries that are the deploy's
// own (never nil).
func (r methodRules) own(o Ownership, fieldManager string) *fieldpath.Set {
	out := &fieldpath.Set{}
	for _, e := range o {
		if r.owns(e.Manager, fieldManager) {
			out = out.Union(e.Fields)
		}
	}
	return out
}

// others is every owner of o but the deploy's own entries.
func (r methodRules) others(o Ownership, fieldManager string) Ownership {
	out := make(Ownership, 0, len(o))
	for _, e := range o {
		if !r.owns(e.Manager, fieldManager) {
			out = append(out, e)
		}
	}
	return out
}

// category is how a row's category reads under these rules.
func (r methodRules) category(c model.Category) model.Category {
	if info, _ := model.InfoOf(c); r.takesBack && info.External {
		return model.Taking
	}
	return c
}

// stopsSending tells a field the config sent at the last deploy and no
// longer sends. Under byPrediction such a field is released whether or
// not the deploy's entry still owns it in the prediction: a client-side
// apply leaves a field it did not apply before, still under its own name.
func (a *analysis) stopsSending(p fieldpath.Path) bool {
	if !a.rules.byPrediction || a.baseline != BaselineSnapshot || a.sends(p) {
		return false
	}
	_, ok := a.earlierAt(p)
	return ok
}

// takenBackMessage words a field another manager changed that a
// client-side apply or a replace sends: it is theirs no more, and no
// conflict stops the deploy or tells them.
func (a *analysis) takenBackMessage(t model.Transition, v pathValues, others []model.Manager) string {
	msg := "taken back"
	if len(others) > 0 {
		msg += " from " + describeManagers(others)
	} else {
		msg += " (changed outside the deploy)"
	}
	verb := "reverts"
	if t.ConfigChanged {
		verb = "overwrites"
	}
	return msg + ": " + a.rules.how + " meets no conflict and " + verb + " it silently (" +
		change(v.live, v.liveOK, v.target, v.targetOK, v.hidden) + ")"
}

// staysMessage ends a release whose field the prediction keeps: a
// client-side apply removes only what it applied before. "" when the
// field goes, or the method releases to co-owners.
func (a *analysis) staysMessage(p fieldpath.Path, v pathValues) string {
	if !a.rules.byPrediction || !v.liveOK {
		return ""
	}
	kept, ok := valueAt(a.predict, p)
	if !ok {
		return ""
	}
	msg := "; stays"
	if !v.hidden {
		msg += " (" + show(kept, false) + ")"
	}
	return msg + ": " + a.rules.how + " removes only what it applied before, and it is not in " + originalWords(a.in.Apply)
}

// removedMessage words a released field the prediction no longer has.
func (a *analysis) removedMessage(v pathValues) string {
	msg := a.rules.how + " removes it"
	if !v.hidden {
		msg += " (now " + show(v.live, false) + ")"
	}
	if a.in.Apply.Method == delivery.ApplyReplace {
		return msg + ": a replace keeps only what it sends"
	}
	return msg + ": it was in " + originalWords(a.in.Apply) + ", and the config no longer sends it"
}

// removedWholeMessage words a unit the prediction no longer has although
// other managers own fields of it (owners names them): the deploy takes
// theirs away with its own.
func (a *analysis) removedWholeMessage(owners string) string {
	msg := a.rules.how + " removes it whole, with the fields other managers set in it (" + owners + ")"
	if a.in.Apply.Method == delivery.ApplyReplace {
		return msg + ": a replace keeps only what it sends"
	}
	return msg + ": it was in " + originalWords(a.in.Apply) + ", the config no longer sends it, and the three-way merge deletes it whole, whoever owns its fields"
}

// originalWords names what a client-side apply merges from.
func originalWords(m delivery.ApplyMethod) string {
	if m.Original == delivery.OriginalPreviousManifest {
		return "the previous release manifest"
	}
	if m.Method == delivery.ApplyReplace {
		return "what it sends"
	}
	return "the last-applied annotation"
}

// createdByUpdate ends the message of an object a Helm release upgraded
// client-side creates: Helm creates it with a plain POST, which records an
// Update entry, not an Apply (helm/helm#31516), so the release's next
// server-side upgrade, which does not force, conflicts on its fields.
func (a *analysis) createdByUpdate() string {
	m := a.in.Apply
	if m.Method != delivery.ApplyClientSide || m.Original != delivery.OriginalPreviousManifest {
		return ""
	}
	return "; Helm creates it with a plain create, recorded as an Update by " + a.in.FieldManager +
		" (helm/helm#31516): the release's first server-side upgrade (--server-side=true, or once it was last applied server-side) conflicts on its fields unless it runs with --force-conflicts"
}

// configField tells whether the deploy's entry owning p is the config's
// doing. An Update entry also owns what the server set on its writes (a
// create's defaults), and loses a field to whoever writes it next: such
// a field the config neither sends nor sent is no more the deploy's than
// anyone's, and no row holds it. A field the prediction removes was sent
// before (the merge removes only that).
func (a *analysis) configField(p fieldpath.Path) bool {
	if !a.rules.ownUpdate || a.sends(p) {
		return true
	}
	if a.baseline == BaselineSnapshot {
		if _, ok := a.earlierAt(p); ok {
			return true
		}
	} else if a.in.Live != nil {
		if a.sentBefore == nil {
			a.sentBefore = a.sentClientSide()
		}
		if Covers(a.sentBefore, p) {
			return true
		}
	}
	_, live := valueAt(a.live, p)
	_, after := valueAt(a.predict, p)
	return live && !after && a.in.Predicted != nil
}
