package gitops

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// publicTree is a public GitOps repository of testdata/public, with the
// URLs its config names it by.
func publicTree(t testing.TB, name string) (Repository, []config.Discover) {
	t.Helper()
	root := "../../testdata/public/" + name
	cfg, err := config.Load(root + "/" + config.DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	return Repository{Root: root, URLs: cfg.Repositories, RenderParent: renderParent}, cfg.Discover
}

// TestDiscoverFluxExample: fluxcd/flux2-kustomize-helm-example's
// Kustomizations read ExternalArtifacts its ArtifactGenerators copy from
// the bootstrap GitRepository: each is a target whose path is the folder
// its artifact's path is copied from, and whose render leaves out every
// folder the artifact lacks.
func TestDiscoverFluxExample(t *testing.T) {
	repo, entries := publicTree(t, "flux2-kustomize-helm-example")
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	const flux, kc, hc = "flux", "kustomize-controller", "helm-controller"
	p := func(s ...string) []string { return s }
	// The HelmReleases each cluster's Kustomizations apply, as they apply
	// them; their charts are fetched, which the check never does. Their
	// inputs are what their parent's render read but the files of its
	// other objects (podinfo's Namespace; the other release of the
	// controllers' folder), the .sourceignore files the artifact would
	// honour (there or not) included, and their chart source's file.
	podinfo := func(cluster string) want {
		return want{cluster + "/HelmRelease/podinfo.podinfo", flux, "apps/base/podinfo/release.yaml", p("apps/base/podinfo/release.yaml"), hc, cluster, "chart podinfo from HelmRepository podinfo/podinfo: remote charts are not rendered (no network)",
			p(".sourceignore", "apps/.sourceignore", "apps/base/.sourceignore", "apps/base/podinfo", "apps/base/podinfo/.sourceignore",
				"apps/base/podinfo/kustomization.yaml", "apps/base/podinfo/release.yaml", "apps/base/podinfo/repository.yaml",
				"apps/"+cluster+"/.sourceignore", "apps/"+cluster+"/kustomization.yaml", "apps/"+cluster+"/podinfo-values.yaml", "clusters/"+cluster+"/apps.yaml"), nil}
	}
	controllers := func(release string) []string {
		return p(".sourceignore", "clusters/staging/infrastructure.yaml", "infrastructure/.sourceignore", "infrastructure/controllers/.sourceignore", "infrastructure/controllers/"+release, "infrastructure/controllers/kustomization.yaml")
	}
	certManager := func(cluster string) want {
		return want{cluster + "/HelmRelease/cert-manager.cert-manager", flux, "infrastructure/controllers/cert-manager.yaml", p("infrastructure/controllers/cert-manager.yaml"), hc, cluster, "chart from OCIRepository cert-manager/cert-manager: remote charts are not rendered (no network)", inputsOf(controllers("cert-manager.yaml"), cluster), nil}
	}
	envoy := func(cluster string) want {
		return want{cluster + "/HelmRelease/envoy-gateway.envoy-gateway-system", flux, "infrastructure/controllers/envoy-gateway.yaml", p("infrastructure/controllers/envoy-gateway.yaml"), hc, cluster, "chart from OCIRepository envoy-gateway-system/gateway-helm: remote charts are not rendered (no network)", inputsOf(controllers("envoy-gateway.yaml"), cluster), nil}
	}
	wants := []want{
		certManager("production"),
		envoy("production"),
		podinfo("production"),
		{"production/flux-system/apps", flux, "clusters/production/apps.yaml", p("apps/production"), kc, "production", "", p("clusters/production/apps.yaml"), nil},
		{"production/flux-system/infra-configs", flux, "clusters/production/infrastructure.yaml", p("infrastructure/configs"), kc, "production", "", p("clusters/production/infrastructure.yaml"), nil},
		{"production/flux-system/infra-controllers", flux, "clusters/production/infrastructure.yaml", p("infrastructure/controllers"), kc, "production", "", p("clusters/production/infrastructure.yaml"), nil},
		certManager("staging"),
		envoy("staging"),
		podinfo("staging"),
		{"staging/flux-system/apps", flux, "clusters/staging/apps.yaml", p("apps/staging"), kc, "staging", "", p("clusters/staging/apps.yaml"), nil},
		{"staging/flux-system/infra-configs", flux, "clusters/staging/infrastructure.yaml", p("infrastructure/configs"), kc, "staging", "", p("clusters/staging/infrastructure.yaml"), nil},
		{"staging/flux-system/infra-controllers", flux, "clusters/staging/infrastructure.yaml", p("infrastructure/controllers"), kc, "staging", "", p("clusters/staging/infrastructure.yaml"), nil},
	}
	assertTargets(t, got, wants)
	ignores := map[string]string{
		"staging/flux-system/apps":                 "/*\n!/apps/\n/apps/*\n!/apps/base/\n!/apps/staging/",
		"production/flux-system/apps":              "/*\n!/apps/\n/apps/*\n!/apps/base/\n!/apps/production/",
		"staging/flux-system/infra-configs":        "/*\n!/infrastructure/",
		"production/flux-system/infra-controllers": "/*\n!/infrastructure/",
	}
	for _, g := range got {
		want, ok := ignores[g.Name]
		if !ok {
			continue
		}
		if g.Deployer.SourceIgnore != want {
			t.Errorf("%s: the artifact's folders %q, want %q", g.Name, g.Deployer.SourceIgnore, want)
		}
	}
}

// TestDiscoverArgoCDExample: argoproj/argocd-example-apps' apps/ is a
// chart of Applications. Its Application renders it as Argo CD does, and
// each Application the chart makes is a target named as the chart names
// it, selected by every file of that render: those whose folders the
// trimmed copy has are checked; the others say why not.
func TestDiscoverArgoCDExample(t *testing.T) {
	repo, entries := publicTree(t, "argocd-example-apps")
	repo.URLs = []string{"https://github.com/argoproj/argocd-example-apps.git"}
	repo.RenderParent = renderParent
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	const argo, ac = "argocd", "argocd-controller"
	const tmpl = "apps/templates/applications.yaml"
	p := func(s ...string) []string { return s }
	// The chart's files, which its render read, and the parent's own.
	chart := p("apps/Chart.yaml", "apps/templates/applications.yaml", "apps/values.yaml", "argocd/apps.yaml")
	missing := func(dir string) string { return "path " + dir + ": not in the repository" }
	child := func(name, dir, reason string) want {
		w := want{"example." + name, argo, tmpl, p(dir), ac, "in-cluster", reason, chart, nil}
		return w
	}
	app := func(name string) want {
		return want{name, argo, "argocd/" + name + ".yaml", p(name), ac, "in-cluster", "", p("argocd/" + name + ".yaml"), nil}
	}
	wants := []want{
		app("apps"),
		child("blue-green", "blue-green", missing("blue-green")),
		child("guestbook", "guestbook", ""),
		child("helm-dependency", "helm-dependency", missing("helm-dependency")),
		child("helm-guestbook", "helm-guestbook", ""),
		child("helm-hooks", "helm-hooks", ""),
		child("jsonnet-guestbook", "jsonnet-guestbook", missing("jsonnet-guestbook")),
		child("jsonnet-guestbook-tla", "jsonnet-guestbook-tla", missing("jsonnet-guestbook-tla")),
		child("kustomize-guestbook", "kustomize-guestbook", ""),
		child("plugin-kasane", "plugins/kasane", missing("plugins/kasane")),
		child("plugin-kustomized-helm", "plugins/kustomized-helm", missing("plugins/kustomized-helm")),
		child("plugin-nix", "plugins/nix", missing("plugins/nix")),
		child("pre-post-sync", "pre-post-sync", missing("pre-post-sync")),
		child("sock-shop", "sock-shop", missing("sock-shop")),
		child("sync-waves", "sync-waves", ""),
		app("guestbook"),
		app("helm-guestbook"),
		app("helm-hooks"),
		app("kustomize-guestbook"),
		app("sync-waves"),
	}
	assertTargets(t, got, wants)
}

// inputsOf is the staging cluster's inputs, for cluster.
func inputsOf(staging []string, cluster string) []string {
	out := make([]string, len(staging))
	for i, f := range staging {
		out[i] = strings.ReplaceAll(f, "clusters/staging/", "clusters/"+cluster+"/")
	}
	slices.Sort(out)
	return out
}

// TestDiscoverEveryReleaseListed: in bjw-s-labs/home-ops (January 2025),
// an app folder's kustomization includes the volsync template outside
// it (../../../../templates/volsync): its HelmRelease is a target, found
// in its Kustomization's render. silence-operator's folder includes a
// remote resource, which the render does not fetch: its HelmRelease is
// listed under its Kustomization, naming it and the resource. Without
// the template the render fails, and sonarr's HelmRelease is listed
// under its Kustomization, with the failure: every HelmRelease document
// is listed, one way or the other.
func TestDiscoverEveryReleaseListed(t *testing.T) {
	repo, entries := publicTree(t, "bjw-s-home-ops")
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Target{}
	for _, g := range got {
		byName[g.Name] = g
	}
	if s, ok := byName["HelmRelease/sonarr.downloads"]; !ok || s.Object != "kubernetes/apps/downloads/sonarr/app/helmrelease.yaml" {
		t.Errorf("sonarr's HelmRelease is no target: %+v", s)
	}
	if _, ok := byName["HelmRelease/silence-operator.monitoring"]; ok {
		t.Error("silence-operator's HelmRelease is a target, though its Kustomization's render leaves it out")
	}
	under := byName["monitoring/silence-operator"].NotTargets
	if len(under) != 1 || under[0].Kind != "HelmRelease" || under[0].Name != "silence-operator" ||
		under[0].File != "kubernetes/apps/monitoring/silence-operator/app/helmrelease.yaml" ||
		!strings.Contains(under[0].Reason, "Kustomization monitoring/silence-operator") || !strings.Contains(under[0].Reason, "https://raw.githubusercontent.com/giantswarm/silence-operator") {
		t.Errorf("under monitoring/silence-operator: %+v", under)
	}

	// Without the template the sonarr folder's render fails.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(repo.Root)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "kubernetes/templates/volsync")); err != nil {
		t.Fatal(err)
	}
	repo.Root = dir
	got, err = Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		if g.Name == "HelmRelease/sonarr.downloads" {
			t.Errorf("sonarr's HelmRelease is a target, though its Kustomization does not render: %+v", g)
		}
		if g.Name != "downloads/sonarr" {
			continue
		}
		if n := g.NotTargets; len(n) != 1 || n[0].Name != "sonarr" || n[0].File != "kubernetes/apps/downloads/sonarr/app/helmrelease.yaml" ||
			!strings.Contains(n[0].Reason, "Kustomization downloads/sonarr, which would apply it, does not render") || !strings.Contains(n[0].Reason, "templates/volsync") {
			t.Errorf("under downloads/sonarr: %+v", n)
		}
		return
	}
	t.Error("no target downloads/sonarr")
}

// TestDiscoverOwnChartSources: in onedr0p/home-ops each app's
// Kustomization takes components from outside its folder and its
// HelmRelease takes app-template from an OCIRepository of its own beside
// it: each release is a target whose chart names its own OCIRepository,
// and a bump of one selects that release alone (its inputs are its own
// files and its source's, not its siblings').
func TestDiscoverOwnChartSources(t *testing.T) {
	repo, entries := publicTree(t, "onedr0p-home-ops")
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	releases := 0
	for _, g := range got {
		app, ok := strings.CutPrefix(g.Name, "HelmRelease/")
		if !ok {
			if len(g.NotTargets) > 0 {
				t.Errorf("%s: objects listed under it: %+v", g.Name, g.NotTargets)
			}
			continue
		}
		releases++
		app = strings.TrimSuffix(app, ".default")
		ocirepository := "kubernetes/apps/default/" + app + "/app/ocirepository.yaml"
		if len(g.Deployer.Charts) != 1 || g.Deployer.Charts[0].Source == nil || g.Deployer.Charts[0].Source.String() != "OCIRepository default/"+app {
			t.Errorf("%s: charts %+v, want its own OCIRepository default/%s", g.Name, g.Deployer.Charts, app)
		}
		if !slices.Contains(g.Inputs, ocirepository) {
			t.Errorf("%s: inputs %v lack %s", g.Name, g.Inputs, ocirepository)
		}
		for _, in := range g.Inputs {
			// A .sourceignore anywhere in the artifact may leave files out.
			if strings.HasPrefix(in, "kubernetes/apps/default/") && !strings.HasPrefix(in, "kubernetes/apps/default/"+app+"/") &&
				in != "kubernetes/apps/default/kustomization.yaml" && path.Base(in) != ".sourceignore" {
				t.Errorf("%s: input %s is another app's", g.Name, in)
			}
		}
	}
	if releases != 2 {
		t.Errorf("%d HelmReleases listed as targets, want agregarr's and atuin's", releases)
	}
}
