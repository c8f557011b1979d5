package check

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestHelmRender: the config's Helm wins over the deployer's version,
// helm-controller's post-rendering stays with it; without a version
// read (offline), each deployer renders with the newest Helm 4; Argo CD
// runs where discovery says, else in the Application's namespace.
func TestHelmRender(t *testing.T) {
	flux := &delivery.Deployer{Controller: delivery.ControllerFlux}
	argo := &delivery.Deployer{Controller: delivery.ControllerArgoCD, Object: map[string]any{"metadata": map[string]any{"namespace": "apps"}}}
	versions := func(controller string) string {
		return map[string]string{delivery.ControllerFlux: "v1.4.2", delivery.ControllerArgoCD: "v3.5.0"}[controller]
	}
	set, err := delivery.SetHelm("4.1", "target prod")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		t           Target
		versions    func(string) string
		want        string
		postRenders bool
	}{
		{"flux", Target{Deployer: flux}, versions, delivery.Helm3, true},
		{"flux offline", Target{Deployer: flux}, nil, delivery.Helm4Newest, true},
		{"flux set", Target{Deployer: flux, HelmSet: &set}, versions, delivery.Helm41, true},
		{"argo", Target{Deployer: argo}, versions, delivery.Helm42, false},
		{"argo set", Target{Deployer: argo, HelmSet: &set}, versions, delivery.Helm41, false},
		{"plain", Target{}, versions, delivery.Helm4Newest, false},
	} {
		got := helmRender(tc.t, tc.versions, nil)
		if got.Version != tc.want || got.PostRenders != tc.postRenders || got.Why == "" {
			t.Errorf("%s: %+v, want %s, post-rendered %v", tc.name, got, tc.want, tc.postRenders)
		}
	}
	if ns := argoNamespace(argo); ns != "apps" {
		t.Errorf("Argo CD's namespace: %q", ns)
	}
	argo.Object["metadata"].(map[string]any)["annotations"] = map[string]any{delivery.ArgoControllerNamespaceKey: "argocd"}
	if ns := argoNamespace(argo); ns != "argocd" {
		t.Errorf("Argo CD's namespace, as discovery wrote it: %q", ns)
	}
}

// TestHelmRenderOffline: offline, the Helm the snapshot recorded at the
// deploy renders, unless the config sets one; a snapshot of no chart
// leaves the newest Helm 4.
func TestHelmRenderOffline(t *testing.T) {
	flux := Target{Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux}}
	recorded := &delivery.HelmRender{Version: delivery.Helm41, Why: "helm-controller v1.5.0 (Flux 2.8) renders with Helm 4.1"}
	if got := helmRender(flux, nil, recorded); got.Version != delivery.Helm41 || !got.PostRenders || got.Why != "as the snapshot recorded at the deploy: "+recorded.Why {
		t.Errorf("recorded: %+v", got)
	}
	if got := helmRender(flux, func(string) string { return "v1.6.0" }, recorded); got.Version != delivery.Helm42 {
		t.Errorf("the cluster's version over the record: %+v", got)
	}
	set, _ := delivery.SetHelm("3", "target prod")
	flux.HelmSet = &set
	if got := helmRender(flux, nil, recorded); got.Version != delivery.Helm3 {
		t.Errorf("the config's over the record: %+v", got)
	}
	if got := helmRender(Target{Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux}}, nil, nil); got.Version != delivery.Helm4Newest {
		t.Errorf("no record: %+v", got)
	}
}
