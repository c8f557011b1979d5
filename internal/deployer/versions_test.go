package deployer

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestArgoNamespace: Argo CD runs where discovery says, else in the
// Application's namespace.
func TestArgoNamespace(t *testing.T) {
	argo := &delivery.Deployer{Controller: delivery.ControllerArgoCD, Object: map[string]any{"metadata": map[string]any{"namespace": "apps"}}}
	if ns := argoNamespace(argo); ns != "apps" {
		t.Errorf("Argo CD's namespace: %q", ns)
	}
	argo.Object["metadata"].(map[string]any)["annotations"] = map[string]any{delivery.ArgoControllerNamespaceKey: "argocd"}
	if ns := argoNamespace(argo); ns != "argocd" {
		t.Errorf("Argo CD's namespace, as discovery wrote it: %q", ns)
	}
	if ns := argoNamespace(nil); ns != "" {
		t.Errorf("no deployer: %q", ns)
	}
}
