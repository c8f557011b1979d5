package ownership

import "github.com/ownership-check/ownership-check/internal/model"

// Classify gives the category a transition is reported under, and false for
// the silent rows (unmanaged 0-3, hold 12, update 14). The impossible rows
// 4, 5, 8 and 9 are Anomaly: they are reported, never dropped.
func Classify(t model.Transition) (model.Category, bool) {
	switch t.TableRow() {
	case 4, 5, 8, 9:
		return model.Anomaly, true
	case 6:
		return model.Taking, true
	case 7:
		return model.TakingConflict, true
	case 10, 11:
		return model.Release, true
	case 13:
		return model.Drift, true
	case 15:
		return model.UpdateConflict, true
	}
	return "", false
}
