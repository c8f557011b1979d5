package changes

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// autoscaled tells a replica count the deploy does not send and an
// autoscaler owns (in the prediction, else live): a count that goes down
// is the autoscaler's doing, down to zero with HPAScaleToZero (Kubernetes
// 1.37), not a scale-down by the deploy. A deploy that sends replicas is
// not excused: that is a fight, and its own finding.
func autoscaled(in Input) bool {
	if in.Desired != nil {
		if _, sends := nested(in.Desired.Object, "spec", "replicas"); sends {
			return false
		}
	}
	for _, u := range []*unstructured.Unstructured{in.Predicted, in.Live} {
		if u == nil {
			continue
		}
		if _, ok := nested(u.Object, "spec", "replicas"); !ok {
			continue
		}
		for _, e := range u.GetManagedFields() {
			m := model.Manager{Manager: e.Manager, Operation: string(e.Operation), Subresource: e.Subresource}
			if model.AutoscalerManager(m) && delivery.EntryOwns(e, replicasPath) {
				return true
			}
		}
		return false
	}
	return false
}
