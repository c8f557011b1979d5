package gitops

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render"
)

// fixture is the GitOps repository of testdata/gitops.
var fixture = Repository{Root: "../../testdata/gitops", URLs: []string{"https://github.com/example/platform.git"}, RenderParent: renderParent}

// renderParent is the parent render the commands give discovery
// (targets' parentRenderer), with the default config.
func renderParent(ctx context.Context, root string, parent Target) (Rendered, error) {
	r, err := render.ForDiscovery(ctx, nil, nil, nil, root, parent.Paths, parent.Deployer)
	if err != nil {
		return Rendered{}, err
	}
	return RenderedOf(r.Objects, r.Files, r.NotRendered), nil
}

func fixtureEntries(t testing.TB) []config.Discover {
	t.Helper()
	cfg, err := config.Load(fixture.Root + "/.ownership-check.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Discover
}

// withExpansion makes ExpandApplicationSet answer with fake for the
// test's duration.
func withExpansion(t testing.TB, fake func(appSet map[string]any) ([]map[string]any, string, error)) {
	t.Helper()
	saved := expandApplicationSet
	expandApplicationSet = func(_ context.Context, _ Repository, appSet map[string]any) ([]map[string]any, string, error) {
		return fake(appSet)
	}
	t.Cleanup(func() { expandApplicationSet = saved })
}

// want is a target as a test asserts it: everything but the Deployer,
// which is checked apart.
type want struct {
	name, source, object string
	paths                []string
	manager, context     string
	reason               string
	inputs               []string
	notes                []string // the start of each note
}

func TestDiscoverFixture(t *testing.T) {
	got, err := Discover(context.Background(), fixture, fixtureEntries(t))
	if err != nil {
		t.Fatal(err)
	}
	const (
		flux, argo = "flux", "argocd"
		kc, ac     = "kustomize-controller", "argocd-controller"
		services   = "argocd/appsets/services.yaml"
		echo       = "argocd/appsets/echo.yaml"
	)
	p := func(s ...string) []string { return s }
	wants := []want{
		// A HelmRelease of a chart in this repository: its valuesFrom
		// ConfigMap's file is an input.
		{"HelmRelease/frontend.web", flux, "clusters/staging/frontend.yaml", p("charts/frontend"), "helm-controller", "staging", "", p("clusters/staging/frontend-values.yaml", "clusters/staging/frontend.yaml"), nil},
		{"HelmRelease/redis.apps", flux, "clusters/staging/redis.yaml", p("clusters/staging/redis.yaml"), "helm-controller", "staging", "chart redis from HelmRepository flux-system/bitnami: remote charts are not rendered (no network)", p("clusters/staging/redis.yaml"), nil},
		{"billing", argo, services, p("apps/services/billing"), ac, "production", "", p(services), nil},
		{"checkout", argo, services, p("apps/services/checkout"), ac, "production", "", p(services), nil},
		// data-platform's path is a kustomization: its render makes
		// data-dag-sync, which every file of that render selects.
		{"data-dag-sync", argo, "teams/data/applications/dag-sync.yaml", p("apps/data/dag-sync"), ac, "production", "", p("argocd/data-platform.yaml", "teams/data/applications/dag-sync.yaml", "teams/data/applications/kustomization.yaml"), nil},
		{"data-platform", argo, "argocd/data-platform.yaml", p("teams/data/applications"), ac, "management", "", p("argocd/data-platform.yaml"), nil},
		{"echo-production", argo, echo, p("apps/echo"), ac, "management", "", p(echo), nil},
		{"echo-staging", argo, echo, p("apps/echo"), ac, "staging", "", p(echo), nil},
		{"external-dns", argo, "argocd/external-dns.yaml", nil, ac, "management", "source https://github.com/kubernetes-sigs/external-dns.git: another repository", p("argocd/external-dns.yaml"), nil},
		{"flux-system/legacy-jobs", flux, "clusters/staging/legacy-jobs.yaml", p("apps/legacy"), kc, "staging", "", p("clusters/staging/legacy-jobs.yaml"), nil},
		{"flux-system/monitoring", flux, "clusters/staging/monitoring.yaml", nil, kc, "staging", "source GitRepository flux-system/observability is https://github.com/example/observability.git: another repository", p("clusters/staging/monitoring.yaml"), nil},
		{"flux-system/reports", flux, "clusters/production/reports.yaml", p("apps/legacy"), kc, "production", "suspended", p("clusters/production/reports.yaml"), nil},
		// A Helm source: its chart is a path of this repository.
		{"frontend-production", argo, "argocd/frontend-production.yaml", p("charts/frontend"), ac, "production", "", p("argocd/frontend-production.yaml"), nil},
		{"guestbook-production", argo, "argocd/guestbook-production.yaml", p("apps/guestbook/overlays/production"), ac, "production", "", p("argocd/guestbook-production.yaml"), nil},
		{"guestbook-staging", argo, "argocd/guestbook-staging.yaml", p("apps/guestbook/overlays/staging"), ac, "staging", "", p("argocd/guestbook-staging.yaml"), nil},
		{"notifications", argo, services, p("apps/services/notifications"), ac, "production", "", p(services), nil},
		// teams is an app of apps: payments is in its folder, and is one
		// too.
		{"payments", argo, "teams/payments.yaml", p("teams/payments/applications"), ac, "management", "", p("teams/payments.yaml"), nil},
		{"payments-api", argo, "teams/payments/applications/payments-api.yaml", p("apps/payments/api"), ac, "production", "", p("teams/payments/applications/payments-api.yaml"), nil},
		{"payments-worker", argo, "teams/payments/applications/payments-worker.yaml", p("apps/payments/worker"), ac, "", "destination edge-eu: no kubeconfig context in discover.clusters", p("teams/payments/applications/payments-worker.yaml"), nil},
		// Both clusters have these: each is named after its cluster.
		{"production/flux-system/apps", flux, "clusters/production/apps.yaml", p("apps/production"), kc, "production", "", p("clusters/production/apps.yaml", "clusters/production/cluster-secrets.sops.yaml", "clusters/production/cluster-vars.yaml"), nil},
		{"production/flux-system/flux-system", flux, "clusters/production/flux-system/gotk-sync.yaml", p("clusters/production"), kc, "production", "", p("clusters/production/flux-system/gotk-sync.yaml"), nil},
		{"production/flux-system/infrastructure", flux, "clusters/production/infrastructure.yaml", p("infrastructure/production"), kc, "production", "", p("clusters/production/infrastructure.yaml"), nil},
		// The staging Secret is optional and not in the repository.
		{"staging/flux-system/apps", flux, "clusters/staging/apps.yaml", p("apps/staging"), kc, "staging", "", p("clusters/staging/apps.yaml", "clusters/staging/cluster-vars.yaml"), nil},
		{"staging/flux-system/flux-system", flux, "clusters/staging/flux-system/gotk-sync.yaml", p("clusters/staging"), kc, "staging", "", p("clusters/staging/flux-system/gotk-sync.yaml"), nil},
		{"staging/flux-system/infrastructure", flux, "clusters/staging/infrastructure.yaml", p("infrastructure/staging"), kc, "staging", "", p("clusters/staging/infrastructure.yaml"), nil},
		{"teams", argo, "argocd/teams.yaml", p("teams"), ac, "management", "", p("argocd/teams.yaml"), nil},
	}
	assertTargets(t, got, wants)
	// The checked Applications without ServerSideApply=true sync
	// client-side.
	clientSide := map[string]bool{"billing": true, "checkout": true, "data-dag-sync": true, "guestbook-production": true, "notifications": true}
	for _, g := range got {
		if g.Source == argo && g.Checked() && clientSide[g.Name] != (g.Apply.Method == delivery.ApplyClientSide) {
			t.Errorf("%s: apply %+v, want client-side %v", g.Name, g.Apply, clientSide[g.Name])
		}
	}
	for _, g := range got {
		d := g.Deployer
		if d == nil || d.Controller != g.Source || d.File != g.Object || d.Object == nil {
			t.Errorf("%s: Deployer %+v, want the %s object of %s", g.Name, d, g.Source, g.Object)
		}
	}
}

// reasonOf is why a target is not checked as a listing of targets says
// it: discovery's reason, else the one render's default chart locator
// gives its charts (render.RepositoryCharts, whose words these are).
func reasonOf(t Target) string {
	if t.Reason != "" || t.Deployer == nil {
		return t.Reason
	}
	for _, c := range t.Deployer.Charts {
		if !c.InRepository() {
			return c.String() + ": remote charts are not rendered (no network)"
		}
	}
	return ""
}

func assertTargets(t *testing.T, got []Target, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		for _, g := range got {
			t.Logf("got %s (%s)", g.Name, g.Object)
		}
		t.Fatalf("%d targets, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		g := got[i]
		g.Reason = reasonOf(g)
		if g.Name != w.name || g.Source != w.source || g.Object != w.object || !slices.Equal(g.Paths, w.paths) ||
			g.FieldManager != w.manager || g.Context != w.context || g.Reason != w.reason || !slices.Equal(g.Inputs, w.inputs) {
			t.Errorf("target %d:\n got %q %q %q %q %q %q %q %q\nwant %q %q %q %q %q %q %q %q", i,
				g.Name, g.Source, g.Object, g.Paths, g.FieldManager, g.Context, g.Reason, g.Inputs,
				w.name, w.source, w.object, w.paths, w.manager, w.context, w.reason, w.inputs)
		}
		if g.Checked() != (w.reason == "") {
			t.Errorf("%s: Checked() = %v with reason %q", g.Name, g.Checked(), g.Reason)
		}
		if g.Reason == "" && g.Paths == nil {
			t.Errorf("%s: checked, with no path", g.Name)
		}
		if len(g.Notes) != len(w.notes) {
			t.Errorf("%s: notes %q, want ones starting %q", g.Name, g.Notes, w.notes)
			continue
		}
		for j, n := range w.notes {
			if !strings.HasPrefix(g.Notes[j], n) {
				t.Errorf("%s: note %q, want one starting %q", g.Name, g.Notes[j], n)
			}
		}
	}
}
