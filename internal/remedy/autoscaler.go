package remedy

// The remedy of replicas an autoscaler owns: pinning a count in the
// manifest (the scale-down's usual fix) would make every deploy fight the
// autoscaler, which scales back each time.

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/model"
)

// autoscalerOf names the autoscaler that owns the object's replicas, from
// its findings on them (a fight with it, or the field taken from its
// manager), "" when none does.
func autoscalerOf(findings []model.Finding) string {
	for _, f := range findings {
		if f.Path == model.ReplicasPath && f.Category == model.Fight && f.Controller != nil && f.Controller.Autoscales() {
			return f.Controller.String()
		}
	}
	for _, f := range findings {
		if f.Path != model.ReplicasPath {
			continue
		}
		for _, m := range f.Managers {
			if model.AutoscalerManager(m) {
				return m.String()
			}
		}
	}
	return ""
}

// leaveReplicas tells to stop sending replicas, so that the autoscaler
// alone owns the count: in the deployer's words (deployer.go's scaled),
// else by removing it from the manifest.
func leaveReplicas(id model.ID, source, scaler string, c Context) string {
	if r := deployerRow(c); r.scaled != nil {
		return r.scaled(id, source, scaler, c)
	}
	return fmt.Sprintf("Remove replicas from %s, so that %s alone owns the replica count: a manifest that sets it overwrites the autoscaler's count on every deploy, and the autoscaler scales back each time.",
		nonEmpty(source, "the manifest"), scaler)
}
