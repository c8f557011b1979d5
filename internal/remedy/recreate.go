package remedy

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// recreate is the way through an immutable field: delete the object
// (leaving a workload's pods running: --cascade=orphan), then apply as
// the deploy does.
func recreate(id model.ID, source string, c Context) string {
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
	apply := fmt.Sprintf("kubectl apply --server-side --field-manager=%s -f %s", nonEmpty(c.FieldManager, "<manager>"), nonEmpty(source, "<manifest>"))
	if len(c.Paths) > 0 {
		// The render is what the deploy applies: a kustomized object's
		// own file is not.
		apply = fmt.Sprintf("ownership-check render %s | kubectl apply --server-side --field-manager=%s -f -",
			strings.Join(c.Paths, " "), nonEmpty(c.FieldManager, "<manager>"))
	}
	return fmt.Sprintf("Delete it, then apply as the deploy does (or let the next deploy create it again):\n\n    %s\n    %s", del, apply)
}
