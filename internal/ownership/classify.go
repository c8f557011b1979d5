package ownership

// row computes the table row of ownership-model.md:
// 8*prevOwned + 4*nowOwned + 2*configChanged + externalChanged.
func (t Transition) row() int {
	r := 0
	if t.PrevOwned {
		r += 8
	}
	if t.NowOwned {
		r += 4
	}
	if t.ConfigChanged {
		r += 2
	}
	if t.ExternalChanged {
		r++
	}
	return r
}

// NewTransition returns the transition for the four answers, row filled in.
func NewTransition(prevOwned, nowOwned, configChanged, externalChanged bool) Transition {
	t := Transition{PrevOwned: prevOwned, NowOwned: nowOwned, ConfigChanged: configChanged, ExternalChanged: externalChanged}
	t.Row = t.row()
	return t
}

// Classify gives the category a transition is reported under, and false for
// the silent rows (unmanaged 0-3, hold 12, update 14). The impossible rows
// 4, 5, 8 and 9 are Anomaly: they are reported, never dropped.
func Classify(t Transition) (Category, bool) {
	switch t.row() {
	case 4, 5, 8, 9:
		return Anomaly, true
	case 6:
		return Taking, true
	case 7:
		return TakingConflict, true
	case 10, 11:
		return Release, true
	case 13:
		return Drift, true
	case 15:
		return UpdateConflict, true
	}
	return "", false
}
