package check

import (
	"slices"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestCreatedNamespaces: Argo CD's CreateNamespace=true creates the
// destination namespace; nothing else does.
func TestCreatedNamespaces(t *testing.T) {
	app := func(opts ...any) *model.Deployer {
		return &model.Deployer{Controller: model.ControllerArgoCD, Object: map[string]any{"spec": map[string]any{
			"destination": map[string]any{"namespace": "shop"},
			"syncPolicy":  map[string]any{"syncOptions": opts}}}}
	}
	flux := app("CreateNamespace=true")
	flux.Controller = model.ControllerFlux
	for name, tc := range map[string]struct {
		d    *model.Deployer
		want []string
	}{
		"CreateNamespace=true":  {app("ServerSideApply=true", "CreateNamespace=true"), []string{"shop"}},
		"CreateNamespace=false": {app("CreateNamespace=false"), nil},
		"no option":             {app(), nil},
		"not Argo CD":           {flux, nil},
		"no deployer":           {nil, nil},
	} {
		if got := createdNamespaces(tc.d); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
}
