package ownership

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestAdmissionRewriteIsNotDrift: live differs from the last deploy at a
// field only the deploy owns. When the deploy's own dry-run holds live's
// value, admission wrote it (a MutatingAdmissionPolicy's value has no
// manager) and the deploy cannot revert it: no finding. When the dry-run
// puts the deploy's value back, it is drift as ever.
func TestAdmissionRewriteIsNotDrift(t *testing.T) {
	deployed := captured(t, "configmap-edited.predicted")
	live := with(t, deployed, "gold", "data", "b")
	for _, tc := range []struct {
		name      string
		predicted string
		drift     bool
	}{
		{"admission sets it on the deploy's apply too", "gold", false},
		{"the deploy puts its value back", "2", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, Input{Desired: manifest(t, "configmap"), Applied: manifest(t, "configmap"),
				Deployed: deployed, Live: live, Predicted: with(t, deployed, tc.predicted, "data", "b")})
			drift := byPath(r, model.Drift, ".data.b")
			if (len(drift) == 1) != tc.drift || len(r.Findings) != len(drift) {
				t.Errorf("findings:\n%s\nwant drift: %v", dump(t, r), tc.drift)
			}
		})
	}
}
