package ownership

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// A Helm 3 release's Deployment, recorded by the snapshot after its
// install: Helm 3's Update entry owns what the chart sent and what the
// server defaulted on its create (strategy). kubectl scaled it since.
// Helm 4's --server-side=true upgrade merges helm's Update into its Apply
// and is refused on the replicas (no prediction): the defaulted strategy
// it never sent is no news, the key the chart stops sending (paused) is
// still said released.
func TestRefusedUpgradeLeavesServerSetFieldsUntold(t *testing.T) {
	dep := func(extra string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n" + extra
	}
	sent := `"f:spec":{"f:selector":{},"f:paused":{}`
	helm := appsEntry("helm", "{"+sent+`,"f:replicas":{},"f:strategy":{"f:type":{}}}}`)
	deployed := withEntries(fromYAML(t, dep("  replicas: 3\n  paused: false\n  strategy: {type: Recreate}\n")), helm)
	scaled := helm
	scaled.FieldsV1 = helm.FieldsV1.DeepCopy()
	scaled.FieldsV1.Raw = []byte("{" + sent + `,"f:strategy":{"f:type":{}}}}`)
	scale := entryOf("kubectl", "Update", "scale", `{"f:spec":{"f:replicas":{}}}`)
	scale.APIVersion = "apps/v1"
	in := Input{
		FieldManager: "helm",
		Apply:        delivery.ApplyMethod{Method: delivery.ApplyServerSide},
		Applied:      fromYAML(t, dep("  replicas: 3\n  paused: false\n")),
		Deployed:     deployed,
		Live:         withEntries(fromYAML(t, dep("  replicas: 5\n  paused: false\n  strategy: {type: Recreate}\n")), scaled, scale),
		Desired:      fromYAML(t, dep("  replicas: 3\n")),
		ClientSide:   ClientSide{Managers: []string{"helm"}, Upgraded: true},
	}
	r := analyze(t, in)
	for _, f := range r.Findings {
		if f.Category == model.Anomaly || f.Path == ".spec.strategy.type" {
			t.Errorf("%s on %s: %s", f.Category, f.Path, f.Message)
		}
	}
	if len(byPath(r, model.Release, ".spec.paused")) != 1 {
		t.Errorf("the key the chart stops sending is not said released:\n%s", dump(t, r))
	}
}
