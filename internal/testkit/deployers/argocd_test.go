package deployers_test

import (
	"fmt"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// An Argo CD application as Argo CD syncs it by default: kubectl's
// client-side apply under argocd-controller, the three-way merge from the
// last-applied annotation.
const argoManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: app
          image: %s
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
%s`

// Argo CD's default sync after a hand edit: the edited field it sends is
// taken back silently, the key it stops sending (in last-applied) is
// removed, the key added by hand (never in last-applied) stays.
func TestArgoCDClientSideSyncOverHandEdit(t *testing.T) {
	e := newEnv(t, "argocd-csa")
	v1 := e.file("v1.yaml", fmt.Sprintf(argoManifest, "registry.example/web:1", "  level: info\n"))
	e.kubectl("apply", "--field-manager=argocd-controller", "-f", v1)
	e.patch("ConfigMap", "settings", `{"data":{"mode":"slow","extra":"by hand"}}`, "kubectl-edit")
	v2 := e.file("v2.yaml", fmt.Sprintf(argoManifest, "registry.example/web:2", ""))
	p := e.predict(v2, "argocd-controller", delivery.ApplyMethod{Method: delivery.ApplyClientSide,
		Original: delivery.OriginalLastApplied, Why: "Argo CD's default sync"}, "")

	e.kubectl("apply", "--field-manager=argocd-controller", "-f", v2)
	cm := e.get("ConfigMap", "settings")
	expectMergedSettings(t, cm, "argocd-controller")
	dep := e.get("Deployment", "web")
	t.Run("prediction", func(t *testing.T) {
		expectArgoCDPrediction(t, p)
		expectAsApplied(t, p, "kubectl's client-side apply", dep, cm)
	})
}

// expectArgoCDPrediction: the hand edit named as a taking; the dropped key
// removed; nothing fails.
func expectArgoCDPrediction(t *testing.T, p prediction) {
	t.Helper()
	if a := p.report.Apply; a == nil || a.Method != delivery.ApplyClientSide {
		t.Errorf("the report's apply: %+v, want client-side", a)
	}
	want := []finding{{"ConfigMap/settings", ".data.mode", model.Taking, "kubectl-edit"}}
	if got := findingsOf(p.report, model.Taking); !slices.Equal(got, want) {
		t.Errorf("takings %v, want %v", got, want)
	}
	if got := findingsOf(p.report, model.TakingConflict, model.UpdateConflict, model.DryRunError); len(got) > 0 || p.report.Failed {
		t.Errorf("a client-side sync cannot fail on a conflict; predicted %v (failed %v)", got, p.report.Failed)
	}
}

// expectMergedSettings: after a client-side three-way merge over the hand
// edit, the edited mode is the deployer's again, the level it stopped
// sending (in its original) is gone, the key added by hand stays the
// hand's.
func expectMergedSettings(t *testing.T, cm *unstructured.Unstructured, deployer string) {
	t.Helper()
	data := cm.Object["data"].(map[string]any)
	if data["mode"] != "fast" || data["extra"] != "by hand" || data["level"] != nil {
		t.Errorf("ConfigMap data after %s: %v, want mode taken back, extra kept, level removed", deployer, data)
	}
	if got := ownerOf(cm, "f:data", "f:mode"); !slices.Equal(got, []string{deployer + "/Update"}) {
		t.Errorf(".data.mode owned by %v after %s, want %s/Update", got, deployer, deployer)
	}
	if got := ownerOf(cm, "f:data", "f:extra"); !slices.Equal(got, []string{"kubectl-edit/Update"}) {
		t.Errorf(".data.extra owned by %v after %s, want kubectl-edit/Update", got, deployer)
	}
}
