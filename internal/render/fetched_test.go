package render

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/argocd"
	"github.com/ownership-check/ownership-check/internal/render/helm"

	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	chartloader "helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/gitops"
)

// fetchedChart is a trimmed podinfo-like chart (a Deployment, a Service,
// an HPA, helpers), packaged by the tests as a chart repository or a
// registry serves it.
const fetchedChart = "internal/render/testdata/helm/fetched/podinfo"

// packedChart is the chart in dir as `helm package` makes it (its
// version replaced when one is given), with the pin a fetch gives it.
func packedChart(t *testing.T, dir, version, from string) ([]byte, delivery.ChartPin) {
	t.Helper()
	c, err := chartloader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if version != "" {
		c.Metadata.Version = version
	}
	file, err := chartutil.Save(c, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data, delivery.ChartPin{Name: c.Metadata.Name, Version: c.Metadata.Version, Digest: fmt.Sprintf("sha256:%x", sha256.Sum256(data)), From: from}
}

// archiveCharts is a chart locator that answers with archives made in the
// test, by the chart's URL, as the fetching one answers from its cache;
// with reason set, every chart is not rendered with it (an unreachable
// host, a failed login).
type archiveCharts struct {
	// It fetches no schema.
	RepositoryCharts

	mu     sync.Mutex
	byURL  map[string]delivery.LocatedChart
	reason string
	asks   []delivery.ChartRef
}

func (a *archiveCharts) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asks = append(a.asks, ref)
	if ref.InRepository() {
		return delivery.LocatedChart{Dir: ref.Path}, nil
	}
	if a.reason != "" {
		return delivery.LocatedChart{NotRendered: ref.String() + ": " + a.reason}, nil
	}
	if l, ok := a.byURL[ref.URL]; ok {
		return l, nil
	}
	return delivery.LocatedChart{NotRendered: ref.String() + ": not served by the test"}, nil
}

// fetchedCase is one Helm form rendering a fetched chart, and what Helm's
// SDK makes of the same chart, values, release and namespace.
type fetchedCase struct {
	name  string
	files map[string]string
	path  string
	d     *delivery.Deployer
	// namespace is the render's (Options.Namespace).
	namespace string
	// want is Helm's render, as the form applies it.
	want func(t *testing.T, podinfo *chart.Chart) map[string]map[string]any
	// got is the render, made comparable (tracking left out).
	got func(Result) map[string]map[string]any
	// pins are the charts the render names.
	pins func(podinfo delivery.ChartPin) []delivery.ChartPin
}

// TestFetchedChartsAreHelms: a chart a locator fetched renders through
// every Helm form (a Flux HelmRelease from a HelmRepository, an Argo CD
// chart source single and multi-source with $values, the config's helm
// target with oci://…:tag, kustomize's helmCharts with a repo, and a
// chart whose dependency is not vendored) as Helm's own install renders
// it, names the chart it released (Result.Charts), and with a locator that
// cannot fetch, is not rendered with the locator's reason.
func TestFetchedChartsAreHelms(t *testing.T) {
	inRepoRoot(t)
	podinfoDir, appDir := realPath(t, fetchedChart), realPath(t, filepath.Join(filepath.Dir(fetchedChart), "app"))
	archive, pin := packedChart(t, podinfoDir, "", "https://charts.example.com")
	ociPin := pin
	ociPin.From = "oci://registry.example.com/charts/podinfo"
	charts := &archiveCharts{byURL: map[string]delivery.LocatedChart{
		"https://charts.example.com":                {Archive: archive, Pin: pin},
		"oci://registry.example.com/charts/podinfo": {Archive: archive, Pin: ociPin},
	}}
	podinfoValues := func(t *testing.T, files ...string) map[string]any {
		vals := map[string]any{}
		for _, f := range files {
			vals = helm.MergeValues(vals, valuesOf(t, filepath.Join(podinfoDir, f)))
		}
		return vals
	}
	prodValues := "replicaCount: 3\nhpa:\n  maxReplicas: 10\n"
	flux := map[string]any{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease",
		"metadata": map[string]any{"name": "podinfo", "namespace": "web"},
		"spec": map[string]any{
			"chart": map[string]any{"spec": map[string]any{"chart": "podinfo", "version": "6.x",
				"sourceRef":   map[string]any{"kind": "HelmRepository", "name": "podinfo"},
				"valuesFiles": []any{"values.yaml", "values-prod.yaml"}}},
			"values": map[string]any{"image": map[string]any{"tag": "6.7.2"}}}}
	application := func(spec string) map[string]any {
		var app map[string]any
		doc := "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: podinfo, namespace: argocd}\nspec:\n  project: default\n  destination: {server: https://kubernetes.default.svc, namespace: web}\n" + spec
		if err := yaml.Unmarshal([]byte(doc), &app); err != nil {
			t.Fatal(err)
		}
		return app
	}
	single := application("  source:\n    repoURL: https://charts.example.com\n    chart: podinfo\n    targetRevision: 6.7.1\n    helm:\n      releaseName: edge\n      valueFiles: [values-prod.yaml]\n      values: |\n        image:\n          tag: 6.7.2\n")
	multi := application("  sources:\n  - repoURL: oci://registry.example.com/charts\n    chart: podinfo\n    targetRevision: 6.7.1\n    helm:\n      valueFiles: [$values/env/prod.yaml]\n  - repoURL: https://github.com/example/repo.git\n    targetRevision: main\n    ref: values\n")
	deployer := func(controller, file string, obj map[string]any, refs ...delivery.ChartRef) *delivery.Deployer {
		return &delivery.Deployer{Controller: controller, File: file, Object: obj, Charts: refs}
	}
	helmRef := delivery.ChartRef{Kind: delivery.ChartInHelmRepository, URL: "https://charts.example.com", Chart: "podinfo", Version: "6.x",
		Source: &delivery.ObjectRef{Kind: "HelmRepository", Namespace: "web", Name: "podinfo"}}
	ociChart := "oci://registry.example.com/charts/podinfo:6.7.1"
	onlyPodinfo := func(p delivery.ChartPin) []delivery.ChartPin { return []delivery.ChartPin{p} }
	for _, tc := range []fetchedCase{
		{
			name: "flux HelmRelease", path: "apps/podinfo.yaml",
			files: map[string]string{"apps/podinfo.yaml": "# the HelmRelease\n"},
			d:     deployer(delivery.ControllerFlux, "apps/podinfo.yaml", flux, helmRef),
			want: func(t *testing.T, c *chart.Chart) map[string]map[string]any {
				vals := helm.MergeValues(podinfoValues(t, "values.yaml", "values-prod.yaml"), map[string]any{"image": map[string]any{"tag": "6.7.2"}})
				return released(helmTemplateOf(t, c, "podinfo", "web", vals, oracleOptions{upgrade: true, noHooks: true}), "podinfo", "web",
					map[string]any{"helm.toolkit.fluxcd.io/name": "podinfo", "helm.toolkit.fluxcd.io/namespace": "web"})
			},
			got: byKindNameOf, pins: onlyPodinfo,
		},
		{
			name: "argo cd chart source", path: "argocd/podinfo.yaml",
			files: map[string]string{"argocd/podinfo.yaml": "# the Application\n"},
			d:     deployer(delivery.ControllerArgoCD, "argocd/podinfo.yaml", single, delivery.ChartFromRepository("https://charts.example.com", "podinfo", "6.7.1")),
			want: func(t *testing.T, c *chart.Chart) map[string]map[string]any {
				vals := helm.MergeValues(podinfoValues(t, "values-prod.yaml"), map[string]any{"image": map[string]any{"tag": "6.7.2"}})
				return inNamespace(helmTemplateOf(t, c, "edge", "web", vals, oracleOptions{includeCRDs: true}), "web")
			},
			got: withoutTracking, pins: onlyPodinfo,
		},
		{
			name: "argo cd multi-source with $values", path: "argocd/podinfo.yaml",
			files: map[string]string{"argocd/podinfo.yaml": "# the Application\n", "env/prod.yaml": prodValues},
			d:     deployer(delivery.ControllerArgoCD, "argocd/podinfo.yaml", multi, delivery.ChartFromRepository("oci://registry.example.com/charts", "podinfo", "6.7.1")),
			want: func(t *testing.T, c *chart.Chart) map[string]map[string]any {
				return inNamespace(helmTemplateOf(t, c, "podinfo", "web", podinfoValues(t, "values-prod.yaml"), oracleOptions{includeCRDs: true}), "web")
			},
			got: withoutTracking, pins: func(delivery.ChartPin) []delivery.ChartPin { return []delivery.ChartPin{ociPin} },
		},
		{
			name: "helm target oci", path: ".ownership-check.yaml",
			files: map[string]string{".ownership-check.yaml": "targets: []\n", "env/prod.yaml": prodValues},
			d: deployer(delivery.ControllerHelm, ".ownership-check.yaml", map[string]any{"chart": ociChart, "release": "edge", "namespace": "web", "values": []any{"env/prod.yaml"}},
				delivery.ChartFromReference(ociChart)),
			want: func(t *testing.T, c *chart.Chart) map[string]map[string]any {
				return released(helmTemplateOf(t, c, "edge", "web", podinfoValues(t, "values-prod.yaml"), oracleOptions{upgrade: true, noHooks: true}), "edge", "web", nil)
			},
			got: byKindNameOf, pins: func(delivery.ChartPin) []delivery.ChartPin { return []delivery.ChartPin{ociPin} },
		},
		{
			name: "kustomize helmCharts with a repo", path: "kust", namespace: "web",
			files: map[string]string{"kust/kustomization.yaml": "helmCharts:\n- name: podinfo\n  repo: https://charts.example.com\n  version: 6.7.1\n  releaseName: edge\n  namespace: web\n  valuesInline:\n    replicaCount: 2\n"},
			want: func(t *testing.T, c *chart.Chart) map[string]map[string]any {
				want := helmTemplateOf(t, c, "edge", "web", map[string]any{"replicaCount": 2}, oracleOptions{})
				for _, w := range want {
					for _, e := range w {
						dropNulls(e)
					}
				}
				return inNamespace(want, "web")
			},
			got: byKindNameOf, pins: onlyPodinfo,
		},
		{
			name: "unvendored dependency", path: "charts/app",
			d: deployer(delivery.ControllerHelm, ".ownership-check.yaml", map[string]any{"chart": "charts/app", "release": "edge", "namespace": "web"},
				delivery.ChartFromReference("charts/app")),
			want: func(t *testing.T, c *chart.Chart) map[string]map[string]any {
				app, err := chartloader.Load(appDir)
				if err != nil {
					t.Fatal(err)
				}
				app.AddDependency(c)
				return released(helmTemplateOf(t, app, "edge", "web", nil, oracleOptions{upgrade: true, noHooks: true}), "edge", "web", nil)
			},
			got: byKindNameOf,
			pins: func(delivery.ChartPin) []delivery.ChartPin {
				return []delivery.ChartPin{{Name: "app", Version: "1.0.0"}}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
			for name, data := range tc.files {
				writeFile(t, filepath.Join(root, name), data)
			}
			if err := os.CopyFS(filepath.Join(root, "charts/app"), os.DirFS(appDir)); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			r, err := RenderAll(context.Background(), []string{tc.path}, Options{Deployer: tc.d, Charts: charts, Namespace: tc.namespace})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.NotRendered) != 0 {
				t.Fatalf("not rendered: %v", r.NotRendered)
			}
			c, err := chartloader.LoadArchive(bytes.NewReader(archive))
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want(t, c)
			if len(want) < 3 {
				t.Fatalf("Helm renders %d objects", len(want))
			}
			sameObjects(t, tc.got(r), want)
			if !reflect.DeepEqual(r.Charts, tc.pins(pin)) {
				t.Errorf("charts %v, want %v", r.Charts, tc.pins(pin))
			}
			for _, o := range r.Objects {
				// A fetched dependency's templates are named inside the
				// chart, as a vendored archive's are.
				if tc.d != nil && o.Source != tc.d.File && !strings.HasPrefix(o.Source, "charts/app/") {
					t.Errorf("%s: source %s, want the file that names the chart", o.ID, o.Source)
				}
			}

			down := &archiveCharts{reason: "host charts.example.com: connection refused"}
			r, err = RenderAll(context.Background(), []string{tc.path}, Options{Deployer: tc.d, Charts: down, Namespace: tc.namespace})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Objects) != 0 || len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, down.reason) || len(r.Charts) != 0 {
				t.Errorf("locator down: objects %d, not rendered %v, charts %v", len(r.Objects), r.NotRendered, r.Charts)
			}
		})
	}
}

// released is Helm's manifests as an upgrade applies them: in the
// release's namespace, with Helm's release label and annotations, and
// the deployer's own labels.
func released(want map[string]map[string]any, release, namespace string, labels map[string]any) map[string]map[string]any {
	for _, w := range want {
		meta := w["metadata"].(map[string]any)
		l, _ := meta["labels"].(map[string]any)
		if l == nil {
			l = map[string]any{}
		}
		l["app.kubernetes.io/managed-by"] = "Helm"
		for k, v := range labels {
			l[k] = v
		}
		meta["labels"] = l
		a, _ := meta["annotations"].(map[string]any)
		if a == nil {
			a = map[string]any{}
		}
		a["meta.helm.sh/release-name"] = release
		a["meta.helm.sh/release-namespace"] = namespace
		meta["annotations"] = a
	}
	return inNamespace(want, namespace)
}

// inNamespace is want with the namespace given to objects without one,
// by kind/namespace/name again.
func inNamespace(want map[string]map[string]any, namespace string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, w := range want {
		meta := w["metadata"].(map[string]any)
		if _, ok := meta["namespace"]; !ok {
			meta["namespace"] = namespace
		}
		out[kindName(w)] = w
	}
	return out
}

func byKindNameOf(r Result) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, o := range r.Objects {
		out[kindName(o.Object.Object)] = o.Object.DeepCopy().Object
	}
	return out
}

// withoutTracking is the render without Argo CD's tracking annotation.
func withoutTracking(r Result) map[string]map[string]any {
	out := byKindNameOf(r)
	for _, obj := range out {
		meta := obj["metadata"].(map[string]any)
		ann, _ := meta["annotations"].(map[string]any)
		delete(ann, argocd.TrackingIDAnnotation)
		if len(ann) == 0 {
			delete(meta, "annotations")
		}
	}
	return out
}

// versionedCharts serves a chart's archive by its version, as a chart
// repository's index lists each.
type versionedCharts map[string]delivery.LocatedChart

func (versionedCharts) FetchSchema(ctx context.Context, url string) (delivery.FetchedSchema, error) {
	return RepositoryCharts{}.FetchSchema(ctx, url)
}

func (v versionedCharts) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	if l, ok := v[ref.Version]; ok {
		return l, nil
	}
	return delivery.LocatedChart{NotRendered: ref.String() + ": no such version"}, nil
}

// TestChartBumpPins: a pull request that bumps a fetched chart's version
// renders the base with the base's chart and the head with the head's,
// each named with its digest, so that the report can say
// "podinfo 6.7.1@sha256:… → 6.8.0@sha256:…".
func TestChartBumpPins(t *testing.T) {
	ctx := context.Background()
	inRepoRoot(t)
	dir := t.TempDir()
	oldArchive, oldPin := packedChart(t, realPath(t, fetchedChart), "6.7.1", "https://charts.example.com")
	newArchive, newPin := packedChart(t, realPath(t, fetchedChart), "6.8.0", "https://charts.example.com")
	charts := versionedCharts{"6.7.1": {Archive: oldArchive, Pin: oldPin}, "6.8.0": {Archive: newArchive, Pin: newPin}}
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	kustomization := "helmCharts:\n- name: podinfo\n  repo: https://charts.example.com\n  version: %s\n  releaseName: edge\n"
	git("init", "-q")
	writeFile(t, filepath.Join(dir, "app/kustomization.yaml"), fmt.Sprintf(kustomization, "6.7.1"))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	writeFile(t, filepath.Join(dir, "app/kustomization.yaml"), fmt.Sprintf(kustomization, "6.8.0"))
	paths := []string{filepath.Join(dir, "app")}
	opts := Options{Namespace: "web", Scope: KnownScopes(nil), Charts: charts}
	head, err := RenderAll(ctx, paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	trees := &gitexec.Trees{}
	defer trees.Close()
	base, err := RenderBase(ctx, BaseOf{Rev: "HEAD", Paths: paths, Options: opts, Trees: trees, Head: &Head{Objects: head.Objects, Charts: head.Charts}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(base.Charts, []delivery.ChartPin{oldPin}) || !reflect.DeepEqual(head.Charts, []delivery.ChartPin{newPin}) {
		t.Fatalf("base %v, head %v", base.Charts, head.Charts)
	}
	if got := base.Charts[0].String() + " → " + head.Charts[0].String(); !strings.HasPrefix(got, "podinfo 6.7.1@sha256:") || !strings.Contains(got, " → podinfo 6.8.0@sha256:") {
		t.Errorf("%s", got)
	}
}

// TestDiscoveredFetchedTargets: the targets discovery lists for releases
// of remote charts (HelmReleases of an OCIRepository shared by two, of a
// HelmRepository, of a HelmChart; an Argo CD chart source) render at the
// paths it gives them, each asking the locator for the chart as its
// source object says, and naming the chart it released.
func TestDiscoveredFetchedTargets(t *testing.T) {
	inRepoRoot(t)
	archive, pin := packedChart(t, realPath(t, fetchedChart), "", "")
	charts := &archiveCharts{byURL: map[string]delivery.LocatedChart{
		"https://charts.example.com":                {Archive: archive, Pin: pin},
		"oci://registry.example.com/charts/podinfo": {Archive: archive, Pin: pin},
	}}
	hr := func(name, spec string) string {
		return "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + ", namespace: web}\nspec:\n" + spec
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	for name, data := range map[string]string{
		"clusters/c/sources.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: podinfo, namespace: flux-system}\nspec:\n  url: oci://registry.example.com/charts/podinfo\n  ref: {semver: 6.x}\n" +
			"---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: charts, namespace: flux-system}\nspec:\n  url: https://charts.example.com\n" +
			"---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmChart\nmetadata: {name: podinfo, namespace: flux-system}\nspec:\n  chart: podinfo\n  version: 6.x\n  sourceRef: {kind: HelmRepository, name: charts}\n",
		"clusters/c/a.yaml": hr("a", "  chartRef: {kind: OCIRepository, name: podinfo, namespace: flux-system}\n"),
		"clusters/c/b.yaml": hr("b", "  chartRef: {kind: OCIRepository, name: podinfo, namespace: flux-system}\n  values: {replicaCount: 2}\n"),
		"clusters/c/c.yaml": hr("c", "  chart:\n    spec:\n      chart: podinfo\n      version: '>=6.0.0'\n      sourceRef: {kind: HelmRepository, name: charts, namespace: flux-system}\n"),
		"clusters/c/d.yaml": hr("d", "  chartRef: {kind: HelmChart, name: podinfo, namespace: flux-system}\n"),
		"argocd/app.yaml":   "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: e, namespace: argocd}\nspec:\n  project: default\n  destination: {server: https://kubernetes.default.svc, namespace: web}\n  source:\n    repoURL: registry.example.com/charts\n    chart: podinfo\n    targetRevision: 6.7.1\n",
	} {
		writeFile(t, filepath.Join(root, name), data)
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: root}, []config.Discover{
		{Flux: "clusters/c", Context: "c"},
		{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "c"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 5 {
		t.Fatalf("%d targets", len(found))
	}
	t.Chdir(root)
	for _, g := range found {
		if g.Reason != "" || len(g.Paths) != 1 || g.Paths[0] != g.Object {
			t.Fatalf("%s: reason %q, paths %v", g.Name, g.Reason, g.Paths)
		}
		r, err := RenderAll(context.Background(), g.Paths, Options{Deployer: g.Deployer, Charts: charts, Namespace: "web"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.NotRendered) != 0 || len(r.Objects) != 3 || !reflect.DeepEqual(r.Charts, []delivery.ChartPin{pin}) {
			t.Errorf("%s: %d objects, not rendered %v, charts %v", g.Name, len(r.Objects), r.NotRendered, r.Charts)
		}
	}
	urls := map[string]int{}
	for _, ask := range charts.asks {
		urls[ask.URL+" "+ask.Version]++
	}
	want := map[string]int{"oci://registry.example.com/charts/podinfo 6.x": 2, "https://charts.example.com >=6.0.0": 1, "https://charts.example.com 6.x": 1, "oci://registry.example.com/charts/podinfo 6.7.1": 1}
	if !reflect.DeepEqual(urls, want) {
		t.Errorf("the locator was asked %v, want %v", urls, want)
	}
}

// TestFetchedChartNotAChart: an archive that is no chart, or passes the
// bounds, leaves the target not checked, with the chart and the reason.
func TestFetchedChartNotAChart(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "kust/kustomization.yaml"), "helmCharts:\n- name: podinfo\n  repo: https://charts.example.com\n  version: 6.7.1\n  releaseName: edge\n")
	t.Chdir(root)
	pin := delivery.ChartPin{Name: "podinfo", Version: "6.7.1", Digest: "sha256:0123456789abcdef", From: "https://charts.example.com"}
	charts := &archiveCharts{byURL: map[string]delivery.LocatedChart{"https://charts.example.com": {Archive: []byte("<html>rate limited</html>"), Pin: pin}}}
	r, err := RenderAll(context.Background(), []string{"kust"}, Options{Charts: charts})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, "(podinfo 6.7.1@sha256:0123456789ab): gzip: invalid header") {
		t.Errorf("not rendered %v", r.NotRendered)
	}
}
