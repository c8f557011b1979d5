package render

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"

	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/version"
)

const helmApp = "internal/render/testdata/helm/app"

// chartInput is an Input for renderChart over the repository, as Render
// makes one.
func chartInput(t *testing.T, reads *source.Reads, cl source.ChartCluster, paths ...string) *source.Input {
	t.Helper()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	b, err := source.NewBoundary(cwd, "", paths)
	if err != nil {
		t.Fatal(err)
	}
	fs := source.NewGuardFS(b)
	fs.Reads = reads
	return &source.Input{Fs: fs, Cfg: config.Default(), ChartCluster: cl, Helm: helm.NewEngine(), Namespace: "default"}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func renderedByKindName(t *testing.T, out source.Output) map[string]map[string]any {
	t.Helper()
	got := map[string]map[string]any{}
	for _, o := range out.Objects {
		k := kindName(o.Object.Object)
		if _, dup := got[k]; dup {
			t.Fatalf("%s rendered twice", k)
		}
		got[k] = o.Object.Object
	}
	return got
}

func sameObjects(t *testing.T, got, want map[string]map[string]any) {
	t.Helper()
	for k, w := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("%s: Helm renders it, we do not", k)
		} else if !reflect.DeepEqual(g, w) {
			t.Errorf("%s differs:\n got %v\nwant %v", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: we render it, Helm does not", k)
		}
	}
}

var appValues = map[string]any{"apiKey": "k", "image": map[string]any{"tag": "9"}}

// TestRenderChartIsHelmTemplate: a template render (kustomize's
// helmCharts) is what Helm's SDK prints for `helm template`, object for
// object, on a chart with include, tpl, required, range, a vendored
// subchart (folder and .tgz), .Capabilities branches and a guarded lookup.
func TestRenderChartIsHelmTemplate(t *testing.T) {
	inRepoRoot(t)
	for name, tc := range map[string]struct {
		tmpl helm.Template
		o    oracleOptions
		api  []string
		kube string
	}{
		"defaults":       {tmpl: helm.Template{}, o: oracleOptions{}},
		"crds, no tests": {tmpl: helm.Template{IncludeCRDs: true, SkipTests: true}, o: oracleOptions{includeCRDs: true, noTests: true}},
		"api versions":   {tmpl: helm.Template{}, api: []string{"monitoring.coreos.com/v1/ServiceMonitor"}, kube: "v1.31.2", o: oracleOptions{apiVersions: []string{"monitoring.coreos.com/v1/ServiceMonitor"}, kubeVersion: "v1.31.2"}},
		"db off":         {tmpl: helm.Template{}, o: oracleOptions{}},
	} {
		t.Run(name, func(t *testing.T) {
			vals := appValues
			if name == "db off" {
				vals = map[string]any{"apiKey": "k", "db": map[string]any{"enabled": false}}
			}
			in := chartInput(t, nil, nil, helmApp)
			tmpl := tc.tmpl
			out, err := helm.RenderChart(context.Background(), in, helm.Release{
				Chart: source.Chart{Dir: realPath(t, helmApp)}, Name: "web", Namespace: "shop", Values: vals,
				Cluster: helm.ClusterNone, Source: "kustomization.yaml", Template: &tmpl,
				APIVersions: tc.api, KubeVersion: tc.kube,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.NotRendered) > 0 {
				t.Fatalf("not rendered: %v", out.NotRendered)
			}
			sameObjects(t, renderedByKindName(t, out), helmTemplate(t, helmApp, "web", "shop", vals, tc.o))
		})
	}
}

// fakeChartCluster is a cluster of version 1.33 that serves
// ServiceMonitors and has one ConfigMap.
type fakeChartCluster struct{ lookups *[]string }

func (fakeChartCluster) ServerVersion(context.Context) (*version.Info, error) {
	return &version.Info{Major: "1", Minor: "33", GitVersion: "v1.33.4"}, nil
}

func (fakeChartCluster) APIVersions(context.Context) ([]string, error) {
	return []string{"v1", "apps/v1", "apps/v1/Deployment", "monitoring.coreos.com/v1", "monitoring.coreos.com/v1/ServiceMonitor"}, nil
}

func (f fakeChartCluster) Lookup(_ context.Context, apiVersion, kind, namespace, name string) (map[string]any, bool, error) {
	if f.lookups != nil {
		*f.lookups = append(*f.lookups, strings.Join([]string{apiVersion, kind, namespace, name}, " "))
	}
	if kind == "Secret" && namespace == "shop" && name == "app-db" {
		return map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "app-db", "namespace": "shop"}, "data": map[string]any{"password": "aHVudGVyMg=="}}, true, nil
	}
	if kind == "ConfigMap" && namespace == "shop" && name == "app-token" {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "app-token", "namespace": "shop"}, "data": map[string]any{"token": "live"}}, true, nil
	}
	return nil, false, nil
}

// TestRenderChartPerDeployer: .Capabilities and lookup answer as each
// deployer's Helm does, and what the deployer adds is on the objects.
func TestRenderChartPerDeployer(t *testing.T) {
	inRepoRoot(t)
	var lookups []string
	cl := fakeChartCluster{lookups: &lookups}
	render := func(t *testing.T, mode helm.Cluster, cl source.ChartCluster) source.Output {
		t.Helper()
		out, err := helm.RenderChart(context.Background(), chartInput(t, nil, cl, helmApp), helm.Release{
			Chart: source.Chart{Dir: realPath(t, helmApp)}, Name: "web", Namespace: "shop", Values: appValues,
			Cluster: mode, Source: ".ownership-check.yaml", Labels: map[string]string{"team": "a"},
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("live", func(t *testing.T) {
		lookups = nil
		out := render(t, helm.ClusterLive, cl)
		got := renderedByKindName(t, out)
		token := got["ConfigMap/shop/web-app-token"]
		if token == nil || token["data"].(map[string]any)["token"] != "live" {
			t.Errorf("lookup did not read the live object: %v (lookups %v)", token, lookups)
		}
		if got["ServiceMonitor/shop/web-app"] == nil {
			t.Errorf(".Capabilities.APIVersions is not the cluster's: %v", slices.Collect(mapsKeys(got)))
		}
		// What lookup read from a Secret is hidden wherever the chart
		// puts it.
		if token["data"].(map[string]any)["dbPassword"] != "hunter2" {
			t.Errorf("lookup of a Secret: %v", token)
		}
		for _, o := range out.Objects {
			if !o.HiddenValues.Holds("hunter2") {
				t.Errorf("%s %s: the Secret's value is not hidden: %v", o.Object.GetKind(), o.Object.GetName(), o.HiddenValues.List())
			}
		}
		var buf bytes.Buffer
		if err := Encode(&buf, out.Objects); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), "hunter2") {
			t.Errorf("render prints what lookup read from a Secret:\n%s", buf.String())
		}
		dep := got["Deployment/shop/web-app"]
		meta := dep["metadata"].(map[string]any)
		if a := meta["annotations"].(map[string]any); a["release-state"] != "upgrade" || a["meta.helm.sh/release-name"] != "web" || a["meta.helm.sh/release-namespace"] != "shop" {
			t.Errorf("annotations: %v", a)
		}
		if l := meta["labels"].(map[string]any); l["app.kubernetes.io/managed-by"] != "Helm" || l["team"] != "a" {
			t.Errorf("labels: %v", l)
		}
		if got["Pod/shop/web-app-ping"] != nil {
			t.Error("a test hook is applied")
		}
		if got["Job/shop/web-app-migrate"] != nil {
			t.Error("a hook is applied")
		}
		if len(out.NotRendered) != 1 || !strings.Contains(out.NotRendered[0].Reason, "pre-upgrade") || out.NotRendered[0].Source != helmApp+"/templates/migrate.yaml" {
			t.Errorf("hooks: %v", out.NotRendered)
		}
		for _, o := range out.Objects {
			switch o.Object.GetKind() {
			case "CustomResourceDefinition":
				if !slices.Contains(o.Notes, helm.CRDNote) || o.Object.GetLabels()["app.kubernetes.io/managed-by"] != "" {
					t.Errorf("crds/: notes %v, labels %v", o.Notes, o.Object.GetLabels())
				}
				if o.Source != helmApp+"/crds/widgets.yaml" {
					t.Errorf("crd source %s", o.Source)
				}
			case "StatefulSet":
				if o.Source != helmApp+"/charts/db/templates/statefulset.yaml" {
					t.Errorf("subchart source %s", o.Source)
				}
			}
		}
	})
	t.Run("live without a cluster", func(t *testing.T) {
		got := renderedByKindName(t, render(t, helm.ClusterLive, nil))
		if got["ConfigMap/shop/web-app-token"]["data"].(map[string]any)["token"] != "generated" || got["ConfigMap/shop/web-app-scrape"] == nil {
			t.Errorf("without a cluster, lookup is empty and the capabilities Helm's defaults: %v", slices.Collect(mapsKeys(got)))
		}
	})
	t.Run("argocd", func(t *testing.T) {
		lookups = nil
		out := render(t, helm.ClusterArgoCD, cl)
		got := renderedByKindName(t, out)
		if got["ConfigMap/shop/web-app-token"]["data"].(map[string]any)["token"] != "generated" || len(lookups) > 0 {
			t.Errorf("Argo CD's lookup finds nothing: %v", lookups)
		}
		if got["ServiceMonitor/shop/web-app"] == nil {
			t.Error("Argo CD passes the cluster's API versions")
		}
		dep := got["Deployment/shop/web-app"]["metadata"].(map[string]any)
		if dep["annotations"].(map[string]any)["release-state"] != "install" || dep["labels"].(map[string]any)["app.kubernetes.io/managed-by"] != nil {
			t.Errorf("Argo CD renders an install with helm template, without Helm's metadata: %v", dep)
		}
	})
	t.Run("none", func(t *testing.T) {
		got := renderedByKindName(t, render(t, helm.ClusterNone, cl))
		cm := got["ConfigMap/shop/web-app-scrape"]
		if cm == nil || cm["data"].(map[string]any)["kube"] != "v1.33.0" {
			t.Errorf("helm template's defaults: %v", cm)
		}
	})
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestRenderChartMissingDependency: a dependency that is not vendored is
// not rendered, with the reason, and nothing is fetched.
func TestRenderChartMissingDependency(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Chart.yaml", "apiVersion: v2\nname: c\nversion: 1.0.0\ndependencies:\n  - name: redis\n    version: 1.x\n    repository: https://charts.example.com\n")
	write("templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
	t.Chdir(dir)
	out, err := helm.RenderChart(context.Background(), chartInput(t, nil, nil, "."), helm.Release{Chart: source.Chart{Dir: realPath(t, ".")}, Name: "c", Namespace: "x", Source: "cfg"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Objects) != 0 || len(out.NotRendered) != 1 || !strings.Contains(out.NotRendered[0].Reason, "redis") {
		t.Fatalf("%+v", out)
	}
}

// TestHelmTargetRender: the config's helm target renders its chart as
// `helm upgrade -f a -f b` does, and its render reads the chart's files
// and the values files.
func TestHelmTargetRender(t *testing.T) {
	inRepoRoot(t)
	reads := source.NewReads()
	d := &delivery.Deployer{Controller: delivery.ControllerHelm, File: ".ownership-check.yaml", Object: map[string]any{
		"chart": helmApp, "release": "web", "namespace": "shop",
		"values": []any{"internal/render/testdata/helm/values/values-prod.yaml", "internal/render/testdata/helm/values/values-eu.yaml"},
	}}
	r, err := RenderAll(context.Background(), []string{helmApp}, Options{Deployer: d, Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Object{}
	for _, o := range r.Objects {
		got[kindName(o.Object.Object)] = o
	}
	dep := got["Deployment/shop/web-app"].Object
	if dep == nil {
		t.Fatalf("no deployment: %v", slices.Collect(mapsKeys(got)))
	}
	spec := dep.Object["spec"].(map[string]any)
	image := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"]
	if spec["replicas"] != int64(3) || image != "eu.example.com/app:4.6" {
		t.Errorf("values not layered: replicas %v, image %v", spec["replicas"], image)
	}
	sts := got["StatefulSet/shop/web-db"].Object
	if sts == nil {
		t.Fatal("no subchart")
	}
	if crd := got["CustomResourceDefinition//widgets.example.com"]; crd.Object == nil {
		t.Error("the CRD is not rendered, or keeps the release namespace")
	}
	cwd, _ := os.Getwd()
	files, dirs, _ := reads.Relative(cwd)
	for _, f := range []string{helmApp + "/Chart.yaml", helmApp + "/templates/deployment.yaml", helmApp + "/charts/cache-0.2.0.tgz", helmApp + "/charts/db/values.yaml", "internal/render/testdata/helm/values/values-eu.yaml"} {
		if !slices.Contains(files, f) {
			t.Errorf("%s not among the reads %v", f, files)
		}
	}
	if slices.Contains(files, helmApp+"/README.md") {
		t.Error(".helmignore'd README read")
	}
	if !slices.Contains(dirs, helmApp+"/templates") {
		t.Errorf("dirs %v", dirs)
	}
	if len(r.NotRendered) != 1 {
		t.Errorf("not rendered: %v", r.NotRendered)
	}
}

// TestKustomizeHelmChartsIsHelmTemplate: kustomize's helmCharts render in
// process, with no helm binary, as `helm template` prints them: the
// chart's objects are Helm's (values file, valuesInline and
// additionalValuesFiles layered as kustomize layers them; hooks and
// tests included, crds/ as includeCRDs says).
func TestKustomizeHelmChartsIsHelmTemplate(t *testing.T) {
	inRepoRoot(t)
	t.Setenv("PATH", "")
	reads := source.NewReads()
	r, err := RenderAll(context.Background(), []string{"internal/render/testdata/helm/kustomize/plain"}, Options{Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NotRendered) > 0 {
		t.Fatalf("not rendered: %v", r.NotRendered)
	}
	got := map[string]map[string]any{}
	for _, o := range r.Objects {
		obj := o.Object.DeepCopy().Object
		unstructuredNoNamespace(obj)
		got[kindName(obj)] = obj
		if o.Source == "" || !strings.HasPrefix(o.Source, helmApp+"/") {
			t.Errorf("%s: source %q, want the chart's template", o.ID, o.Source)
		}
	}
	vals := map[string]any{"apiKey": "k", "replicas": 5, "image": map[string]any{"repository": "eu.example.com/app"}, "db": map[string]any{"storage": "5Gi"}}
	want := helmTemplate(t, helmApp, "web", "shop", vals, oracleOptions{includeCRDs: true})
	for _, obj := range want {
		unstructuredNoNamespace(obj)
	}
	noNS := map[string]map[string]any{}
	for _, obj := range want {
		noNS[kindName(obj)] = obj
	}
	sameObjects(t, got, noNS)
	cwd, _ := os.Getwd()
	files, _, _ := reads.Relative(cwd)
	for _, f := range []string{helmApp + "/templates/service.yaml", "internal/render/testdata/helm/kustomize/plain/values-eu.yaml"} {
		if !slices.Contains(files, f) {
			t.Errorf("%s not read: %v", f, files)
		}
	}
}

func unstructuredNoNamespace(obj map[string]any) {
	if meta, ok := obj["metadata"].(map[string]any); ok {
		delete(meta, "namespace")
	}
}

// TestKustomizeHelmChartsTransformed: kustomize's own transformers apply
// to the charts' objects as to its resources.
func TestKustomizeHelmChartsTransformed(t *testing.T) {
	inRepoRoot(t)
	r, err := RenderAll(context.Background(), []string{"internal/render/testdata/helm/kustomize/overlay"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]model.Object{}
	for _, o := range r.Objects {
		byID[o.ID.String()] = o
	}
	dep, ok := byID["Deployment.apps/shop/eu-web-app"]
	if !ok {
		t.Fatalf("no Deployment shop/eu-web-app: %v", slices.Collect(mapsKeys(byID)))
	}
	if dep.Object.GetLabels()["env"] != "prod" || dep.Object.Object["spec"].(map[string]any)["replicas"] != int64(7) {
		t.Errorf("transformers not applied: %v", dep.Object.Object)
	}
	if dep.Source != helmApp+"/templates/deployment.yaml" {
		t.Errorf("source %s", dep.Source)
	}
	if _, ok := byID["ConfigMap/shop/eu-extra"]; !ok {
		t.Error("the kustomization's own resource is gone")
	}
	if _, ok := byID["Pod/shop/eu-web-app-ping"]; ok {
		t.Error("skipTests ignored")
	}
	if _, ok := byID["Job.batch/shop/eu-web-app-migrate"]; !ok {
		t.Error("helm template prints hooks: kustomize applies them")
	}
	if _, ok := byID["CustomResourceDefinition.apiextensions.k8s.io//widgets.example.com"]; ok {
		t.Error("crds/ without includeCRDs")
	}
}

// dialFails is a transport that fails the test if anything is fetched.
type dialFails struct{ t *testing.T }

func (d dialFails) RoundTrip(r *http.Request) (*http.Response, error) {
	d.t.Errorf("fetched %s", r.URL)
	return nil, errors.New("no network in a render")
}

// TestRemoteChartsNotFetched: a chart kustomize would pull (a repo or OCI
// URL, not under chartHome) and a helm target's remote chart are not
// rendered, with the source named, and nothing is fetched.
func TestRemoteChartsNotFetched(t *testing.T) {
	inRepoRoot(t)
	t.Setenv("PATH", "")
	old := http.DefaultTransport
	http.DefaultTransport = dialFails{t}
	t.Cleanup(func() { http.DefaultTransport = old })
	r, err := RenderAll(context.Background(), []string{"testdata/render/refused/helm"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, "https://itzg.github.io/minecraft-server-charts") || r.NotRendered[0].Source != "testdata/render/refused/helm/kustomization.yaml" {
		t.Errorf("not rendered: %v", r.NotRendered)
	}
	d := &delivery.Deployer{Controller: delivery.ControllerHelm, File: ".ownership-check.yaml", Object: map[string]any{"chart": "oci://registry.example.com/app", "release": "x"},
		Charts: []delivery.ChartRef{delivery.ChartFromReference("oci://registry.example.com/app")}}
	r, err = RenderAll(context.Background(), []string{helmApp}, Options{Deployer: d})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, "oci://registry.example.com/app") {
		t.Errorf("not rendered: %v", r.NotRendered)
	}
}

// TestRenderChartErrors: a template's failure (required) is an error
// naming the release's source, the chart and the template.
func TestRenderChartErrors(t *testing.T) {
	inRepoRoot(t)
	_, err := helm.RenderChart(context.Background(), chartInput(t, nil, nil, helmApp), helm.Release{
		Chart: source.Chart{Dir: realPath(t, helmApp)}, Name: "web", Namespace: "shop", Cluster: helm.ClusterNone, Source: ".ownership-check.yaml",
	})
	if err == nil || !strings.Contains(err.Error(), ".ownership-check.yaml: chart "+helmApp) || !strings.Contains(err.Error(), "apiKey is required") || !strings.Contains(err.Error(), "deployment.yaml") {
		t.Errorf("error %v", err)
	}
}

// TestRenderChartStaysInTheRepository: a chart's file that is a symlink
// out of the repository is refused, never read.
func TestRenderChartStaysInTheRepository(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stolen\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "templates"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Chart.yaml"), []byte("apiVersion: v2\nname: c\nversion: 1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "templates", "cm.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, err := helm.RenderChart(context.Background(), chartInput(t, nil, nil, "."), helm.Release{Chart: source.Chart{Dir: realPath(t, ".")}, Name: "c", Namespace: "x", Source: "cfg"})
	if err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("error %v, want the symlink refused", err)
	}
}
