package render

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	chartloader "helm.sh/helm/v3/pkg/chart/loader"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/argocd"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// argoHelmChartsKustomization names the test chart with an entry's own
// apiVersions and kubeVersion, which Argo CD's kustomize replaces with the
// cluster's (or the source's).
const argoHelmChartsKustomization = `helmGlobals:
  chartHome: ../../charts
helmCharts:
  - name: app
    releaseName: web
    namespace: shop
    valuesInline:
      apiKey: k
      replicas: 5
    additionalValuesFiles:
      - values-eu.yaml
    includeCRDs: true
    apiVersions: [monitoring.coreos.com/v1/ServiceMonitor]
    kubeVersion: v1.29.0
`

// argoKustomizeApp is an Application of path apps/web whose installation
// builds kustomizations with opts (as discovery writes them); kustomize is
// its source.kustomize.
func argoKustomizeApp(t *testing.T, opts, from, kustomize string) *delivery.Deployer {
	t.Helper()
	doc := "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\n  namespace: argocd\nspec:\n  project: default\n  destination: {server: https://kubernetes.default.svc, namespace: shop}\n  source:\n    repoURL: https://github.com/example/gitops.git\n    path: apps/web\n"
	if kustomize != "" {
		doc += "    kustomize: " + kustomize + "\n"
	}
	var app map[string]any
	if err := yaml.Unmarshal([]byte(doc), &app); err != nil {
		t.Fatal(err)
	}
	if opts != "" || from != "" {
		app["metadata"].(map[string]any)["annotations"] = map[string]any{delivery.ArgoKustomizeBuildOptionsKey: opts, delivery.ArgoKustomizeBuildOptionsFromKey: from}
	}
	return &delivery.Deployer{Controller: delivery.ControllerArgoCD, Object: app, File: "argocd/web.yaml"}
}

// argoHelmChartsRepo is a repository with the test chart vendored under
// charts/ and apps/web naming it (kustomization given).
func argoHelmChartsRepo(t *testing.T, kustomization string) string {
	t.Helper()
	chart := realPath(t, helmApp)
	eu, err := os.ReadFile(filepath.Join(filepath.Dir(chart), "kustomize/plain/values-eu.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	if err := os.CopyFS(filepath.Join(root, "charts/app"), os.DirFS(chart)); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "apps/web/kustomization.yaml"), kustomization)
	writeFile(t, filepath.Join(root, "apps/web/values-eu.yaml"), string(eu))
	writeFile(t, filepath.Join(root, "argocd/web.yaml"), "# the Application\n")
	return root
}

// withoutNamespaceAndTracking is the render by kind/name, without
// namespaces (the CRD has none) and Argo CD's tracking annotation.
func withoutNamespaceAndTracking(r Result) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, obj := range withoutTracking(r) {
		unstructuredNoNamespace(obj)
		out[kindName(obj)] = obj
	}
	return out
}

// TestArgoCDKustomizeHelmCharts: with --enable-helm in the installation's
// kustomize.buildOptions, a kustomize source's helmCharts render in
// process as Argo CD's kustomize runs `helm template`: the chart's objects
// are Helm's for the same values, release and namespace (its hooks Argo
// CD's, not applied with the resources), with the cluster's version and API versions (or the source's kustomize.kubeVersion
// and apiVersions) in place of the entry's own. No helm binary runs.
func TestArgoCDKustomizeHelmCharts(t *testing.T) {
	inRepoRoot(t)
	t.Setenv("PATH", "")
	chart := realPath(t, helmApp)
	vals := map[string]any{"apiKey": "k", "replicas": 5, "image": map[string]any{"repository": "eu.example.com/app"}, "db": map[string]any{"storage": "5Gi"}}
	clusterAPIs, _ := fakeChartCluster{}.APIVersions(context.Background())
	for _, tc := range []struct {
		name, kustomize string
		cluster         source.ChartCluster
		oracle          oracleOptions
		// monitor is the object the chart's .Capabilities branch makes.
		monitor string
	}{
		{name: "no cluster: Helm's defaults, not the entry's", oracle: oracleOptions{includeCRDs: true}, monitor: "ConfigMap//web-app-scrape"},
		{name: "the cluster's versions", cluster: fakeChartCluster{}, oracle: oracleOptions{includeCRDs: true, apiVersions: clusterAPIs, kubeVersion: "v1.33.4"}, monitor: "ServiceMonitor//web-app"},
		{name: "the source's kubeVersion", kustomize: "{kubeVersion: v1.30.2}", oracle: oracleOptions{includeCRDs: true, kubeVersion: "v1.30.2"}, monitor: "ConfigMap//web-app-scrape"},
		{name: "the source's apiVersions", kustomize: "{apiVersions: [monitoring.coreos.com/v1/ServiceMonitor]}", oracle: oracleOptions{includeCRDs: true, apiVersions: []string{"monitoring.coreos.com/v1/ServiceMonitor"}}, monitor: "ServiceMonitor//web-app"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := helmTemplate(t, chart, "web", "shop", vals, tc.oracle)
			noNS := map[string]map[string]any{}
			for _, obj := range want {
				unstructuredNoNamespace(obj)
				noNS[kindName(obj)] = obj
			}
			root := argoHelmChartsRepo(t, argoHelmChartsKustomization)
			t.Chdir(root)
			reads := source.NewReads()
			d := argoKustomizeApp(t, "--enable-helm --load-restrictor LoadRestrictionsNone", "argocd-cm in argocd/install/argocd-cm.yaml", tc.kustomize)
			r, err := RenderAll(context.Background(), []string{"apps/web"}, Options{Deployer: d, Reads: reads, ChartCluster: tc.cluster})
			if err != nil {
				t.Fatal(err)
			}
			// Helm's hooks in kustomize's output are Argo CD's hooks,
			// which a sync runs apart from its resources.
			var hooks []string
			for _, n := range r.NotRendered {
				hooks = append(hooks, n.Source)
			}
			if !slices.Equal(hooks, []string{"charts/app/templates/migrate.yaml", "charts/app/templates/tests/ping.yaml"}) {
				t.Fatalf("not rendered: %v, want the chart's two hooks", r.NotRendered)
			}
			delete(noNS, "Job//web-app-migrate")
			delete(noNS, "Pod//web-app-ping")
			got := withoutNamespaceAndTracking(r)
			sameObjects(t, got, noNS)
			if _, ok := got[tc.monitor]; !ok {
				t.Errorf("no %s: the capabilities are not %v", tc.monitor, tc.oracle)
			}
			for _, o := range r.Objects {
				if o.Object.GetAnnotations()[argocd.TrackingIDAnnotation] == "" && o.Object.GetKind() != "CustomResourceDefinition" {
					t.Errorf("%s: no tracking annotation", o.ID)
				}
				if !strings.HasPrefix(o.Source, "charts/app/") {
					t.Errorf("%s: source %q, want the chart's template", o.ID, o.Source)
				}
			}
			files, _, _ := reads.Relative(root)
			for _, f := range []string{"apps/web/kustomization.yaml", "apps/web/values-eu.yaml", "charts/app/templates/deployment.yaml"} {
				if !slices.Contains(files, f) {
					t.Errorf("%s not read: %v", f, files)
				}
			}
		})
	}
}

// TestArgoCDKustomizeHelmChartsDisabled: without --enable-helm, Argo CD's
// kustomize refuses helmCharts and its render fails: so does this one,
// naming the kustomization and the argocd-cm setting, whatever
// kustomize.allowHelm says, and no helm runs.
func TestArgoCDKustomizeHelmChartsDisabled(t *testing.T) {
	inRepoRoot(t)
	t.Setenv("PATH", "")
	for _, tc := range []struct{ name, opts, from, want string }{
		{name: "no argocd-cm found", want: "no argocd-cm with kustomize.buildOptions was found in the repository"},
		{name: "argocd-cm without the flag", opts: "--load-restrictor LoadRestrictionsNone", from: "argocd-cm in argocd/install/argocd-cm.yaml",
			want: `its kustomize.buildOptions are "--load-restrictor LoadRestrictionsNone" (argocd-cm in argocd/install/argocd-cm.yaml)`},
		{name: "argocd-cm settings that disagree", from: delivery.ArgoBuildOptionsAmbiguous + `argocd-cm in a/argocd-cm.yaml says "--enable-helm", in b/argocd-cm.yaml ""`,
			want: `the installation's kustomize.buildOptions are ambiguous: argocd-cm in a/argocd-cm.yaml says "--enable-helm"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := argoHelmChartsRepo(t, argoHelmChartsKustomization)
			t.Chdir(root)
			cfg := config.Default()
			cfg.Kustomize.AllowHelm = true
			_, err := RenderAll(context.Background(), []string{"apps/web"}, Options{Deployer: argoKustomizeApp(t, tc.opts, tc.from, ""), Config: cfg})
			if err == nil {
				t.Fatal("rendered; Argo CD's kustomize fails without --enable-helm")
			}
			for _, want := range []string{"apps/web/kustomization.yaml: helmCharts: Argo CD's kustomize builds without --enable-helm, which refuses helmCharts", tc.want, "Add --enable-helm to argocd-cm's kustomize.buildOptions, or give the discover entry's kustomizeBuildOptions"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\nwant %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "allowHelm") {
				t.Errorf("error %q walks through allowHelm; Argo CD's setting is argocd-cm's", err)
			}
		})
	}
}

// TestArgoCDKustomizeHelmChartsFetched: a helmCharts entry with a repo
// that is not vendored is fetched through the chart locator, renders as
// Helm renders the fetched chart and names it among the charts released;
// with the locator unable to fetch it, the target is not rendered with
// the locator's reason, never sent to kustomize's helm.
func TestArgoCDKustomizeHelmChartsFetched(t *testing.T) {
	inRepoRoot(t)
	archive, pin := packedChart(t, realPath(t, fetchedChart), "", "https://charts.example.com")
	c, err := chartloader.LoadArchive(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	want := helmTemplateOf(t, c, "edge", "web", map[string]any{"replicaCount": 2}, oracleOptions{})
	for _, w := range want {
		for _, e := range w {
			dropNulls(e)
		}
	}
	// `helm template` leaves the namespace out; Argo CD gives the
	// destination's to objects without one.
	want = inNamespace(want, "shop")
	root := argoHelmChartsRepo(t, "helmCharts:\n- name: podinfo\n  repo: https://charts.example.com\n  version: 6.7.1\n  releaseName: edge\n  namespace: web\n  valuesInline:\n    replicaCount: 2\n")
	t.Chdir(root)
	d := argoKustomizeApp(t, "--enable-helm", "argocd-cm in argocd/install/argocd-cm.yaml", "")
	charts := &archiveCharts{byURL: map[string]delivery.LocatedChart{"https://charts.example.com": {Archive: archive, Pin: pin}}}
	r, err := RenderAll(context.Background(), []string{"apps/web"}, Options{Deployer: d, Charts: charts})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NotRendered) > 0 {
		t.Fatalf("not rendered: %v", r.NotRendered)
	}
	sameObjects(t, withoutTracking(r), want)
	if !reflect.DeepEqual(r.Charts, []delivery.ChartPin{pin}) {
		t.Errorf("charts %v, want %v", r.Charts, pin)
	}

	cfg := config.Default()
	cfg.Kustomize.AllowHelm, cfg.Kustomize.AllowRemote = true, true
	for name, l := range map[string]delivery.ChartLocator{"no network": nil, "locator down": &archiveCharts{reason: "host charts.example.com: connection refused"}} {
		r, err := RenderAll(context.Background(), []string{"apps/web"}, Options{Deployer: d, Charts: l, Config: cfg})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.Objects) != 0 || len(r.NotRendered) != 1 {
			t.Fatalf("%s: objects %d, not rendered %v", name, len(r.Objects), r.NotRendered)
		}
		n := r.NotRendered[0]
		if n.Source != "apps/web/kustomization.yaml" || !strings.Contains(n.Reason, "helmCharts[0]: chart podinfo is not in apps/web/charts") || strings.Contains(n.Reason, "allowHelm") {
			t.Errorf("%s: %v", name, n)
		}
	}
}

// TestArgoCDKustomizeLoadRestrictor: --load-restrictor LoadRestrictionsNone
// in the installation's build options lets a kustomization load a file
// outside its directory, as Argo CD's kustomize does; the repository
// still bounds it.
func TestArgoCDKustomizeLoadRestrictor(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "shared/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\n")
	writeFile(t, filepath.Join(root, "apps/web/kustomization.yaml"), "resources: [../../shared/cm.yaml]\n")
	t.Chdir(root)
	r, err := RenderAll(context.Background(), []string{"apps/web"}, Options{Deployer: argoKustomizeApp(t, "--load-restrictor=LoadRestrictionsNone", "", "")})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Objects) != 1 || r.Objects[0].ID.String() != "ConfigMap/shop/shared" {
		t.Errorf("objects %v", r.Objects)
	}
	_, err = RenderAll(context.Background(), []string{"apps/web"}, Options{Deployer: argoKustomizeApp(t, "--enable-helm", "", "")})
	if err == nil || !strings.Contains(err.Error(), "outside the kustomization's directory") {
		t.Errorf("root only: %v", err)
	}
}
