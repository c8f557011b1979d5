package remedy

// The remedies of what the deploy changes: a change the API server refuses
// as immutable, a scale-down.

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/shell"
)

// recreate is the way through an immutable field: delete the object
// (leaving a workload's pods running: --cascade=orphan), then apply as
// the deploy does.
func recreate(id model.ID, c Context) string {
	res := strings.ToLower(id.Kind)
	if id.Group != "" {
		res += "." + id.Group
	}
	del := "kubectl delete " + res + "/" + id.Name
	if id.Namespace != "" {
		del += " -n " + id.Namespace
	}
	switch id.Kind {
	case "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "CronJob":
		del += " --cascade=orphan"
	}
	// The render is what the deploy applies: a kustomized object's own
	// file is not.
	apply := fmt.Sprintf("ownership-check render --show-secrets %s | kubectl apply --server-side --field-manager %s -f -",
		shellWords(c.Paths, "."), shell.Word(nonEmpty(c.FieldManager, "FIELD_MANAGER")))
	return fmt.Sprintf("Delete it, then apply as the deploy does (or let the next deploy create it again):\n\n%s", indent(del+"\n"+apply))
}

// keepPods is the way to keep the live replica count a scale-down would
// lower. Leaving the field to an autoscaler is no way out: the release of
// a field no one else owns is what resets it.
func keepPods(source string, f model.Finding) string {
	n := fmt.Sprint(f.LiveValue)
	return fmt.Sprintf("To keep %s pods, set replicas: %s in %s.", n, n, nonEmpty(source, "the manifest"))
}
