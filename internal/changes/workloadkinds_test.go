package changes

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestWorkloadKindsAgree: the kinds whose rollout is read here are those
// the coverage line counts as workloads (model.IsWorkload).
func TestWorkloadKindsAgree(t *testing.T) {
	for id := range workloads {
		if !model.IsWorkload(id) {
			t.Errorf("%s/%s has a rollout here but model.IsWorkload says no", id.Group, id.Kind)
		}
	}
	for _, id := range []model.ID{{Kind: "Pod"}, {Kind: "Service"}, {Group: "apps", Kind: "ControllerRevision"}} {
		if model.IsWorkload(id) {
			t.Errorf("%s is no workload", id.Kind)
		}
	}
}
