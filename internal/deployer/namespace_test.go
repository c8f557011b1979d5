package deployer

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// TestCreatedNamespace: Argo CD's CreateNamespace=true creates the
// destination namespace, with managedNamespaceMetadata's labels and
// annotations; nothing else does, and a render that holds the Namespace
// applies it as rendered.
func TestCreatedNamespace(t *testing.T) {
	app := func(opts ...any) *delivery.Deployer {
		return &delivery.Deployer{Controller: delivery.ControllerArgoCD, File: "argocd/shop.yaml", Object: map[string]any{"spec": map[string]any{
			"destination": map[string]any{"namespace": "shop"},
			"syncPolicy": map[string]any{"syncOptions": opts,
				"managedNamespaceMetadata": map[string]any{"labels": map[string]any{"team": "shop"}}}}}}
	}
	flux := app("CreateNamespace=true")
	flux.Controller = delivery.ControllerFlux
	for name, tc := range map[string]struct {
		d    *delivery.Deployer
		want bool
	}{
		"CreateNamespace=true":  {app("ServerSideApply=true", "CreateNamespace=true"), true},
		"CreateNamespace=false": {app("CreateNamespace=false"), false},
		"no option":             {app(), false},
		"not Argo CD":           {flux, false},
		"no deployer":           {nil, false},
	} {
		ns, ok := CreatedNamespace(tc.d)
		if ok != tc.want {
			t.Errorf("%s: %v, want %v", name, ok, tc.want)
			continue
		}
		if ok && (ns.ID != (model.ID{Kind: "Namespace", Name: "shop"}) || ns.Object.GetLabels()["team"] != "shop" || ns.Source != "argocd/shop.yaml") {
			t.Errorf("%s: %+v %v, want Namespace shop with the team label, of the Application's file", name, ns.ID, ns.Object.Object)
		}
	}
	rendered := []model.Object{{ID: model.ID{Kind: "Namespace", Name: "shop"}}}
	if objs, _, ok := WithCreatedNamespace(rendered, app("CreateNamespace=true")); ok || len(objs) != 1 {
		t.Errorf("a render holding the Namespace: %d objects, added %v; want it as rendered", len(objs), ok)
	}
}
