package targets

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// TestApplyCarried: each target's apply method reaches its check: the
// config's apply:, a helm target's Helm 4 resolution, and what discovery
// read of the deployer's object.
func TestApplyCarried(t *testing.T) {
	r := monorepo.InitRepo(t, t.TempDir())
	r.Write("charts/app/Chart.yaml", "apiVersion: v2\nname: app\nversion: 1.0.0\n")
	r.Write("apps/web/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n")
	r.Commit("apps")
	t.Chdir(r.Dir)
	argo := delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied, Why: "Argo CD's default sync"}
	defer UseDiscovery(func(context.Context, gitops.Repository, []config.Discover) ([]gitops.Target, error) {
		return []gitops.Target{{Name: "argo", Source: delivery.ControllerArgoCD, Paths: []string{"apps/web"}, FieldManager: "argocd-controller", Apply: argo}}, nil
	})()
	cfg, err := config.Parse("cfg.yaml", []byte(`targets:
  - name: plain
    paths: [apps/web]
  - name: kubectl
    paths: [apps/web]
    apply: {method: client-side}
  - name: chart
    helm: {chart: charts/app, release: app}
discover:
  - argocd: argocd
    clusters: {hub: hub}
`))
	if err != nil {
		t.Fatal(err)
	}
	list, err := List(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]delivery.ApplyMethod{
		"plain":   {},
		"kubectl": cfg.Targets[1].ApplyOf(),
		"chart":   cfg.Targets[2].ApplyOf(),
		"argo":    argo,
	}
	if len(list) != len(want) {
		t.Fatalf("%d targets, want %d", len(list), len(want))
	}
	for _, tg := range list {
		ct, _, err := run{top: r.Dir}.target(context.Background(), check.Target{}, Selected{Target: tg})
		if err != nil {
			t.Fatal(err)
		}
		if ct.Apply != want[tg.Name] {
			t.Errorf("%s: check's apply %+v, want %+v", tg.Name, ct.Apply, want[tg.Name])
		}
	}
	if m := cfg.Targets[2].ApplyOf(); m.Resolve != delivery.ResolveHelm {
		t.Errorf("helm target: %+v, want Helm 4's resolution", m)
	}
}
