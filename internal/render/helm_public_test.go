package render

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"

	"github.com/ownership-check/ownership-check/internal/render/helm"

	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"
)

// The public charts, as their repositories publish them (testdata's
// NOTICE.md): podinfo's and ingress-nginx's.
const (
	podinfoChart      = "internal/render/testdata/helm/public/podinfo"
	ingressNginxChart = "internal/render/testdata/helm/public/ingress-nginx"
)

var publicCharts = []struct {
	name, chart, values string
}{
	{"podinfo", podinfoChart, ""},
	{"podinfo prod", podinfoChart, podinfoChart + "/values-prod.yaml"},
	{"ingress-nginx", ingressNginxChart, ""},
}

func valuesOf(t *testing.T, file string) map[string]any {
	t.Helper()
	if file == "" {
		return map[string]any{}
	}
	v, err := chartutil.ReadValuesFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPublicChartsAreHelmTemplate: on podinfo's and ingress-nginx's
// charts, a template render is what Helm's SDK prints, object for object
// (their test hooks have random names, so they are left out).
func TestPublicChartsAreHelmTemplate(t *testing.T) {
	inRepoRoot(t)
	for _, c := range publicCharts {
		t.Run(c.name, func(t *testing.T) {
			vals := valuesOf(t, c.values)
			out, err := helm.RenderChart(context.Background(), chartInput(t, nil, nil, c.chart), helm.Release{
				Chart: source.Chart{Dir: realPath(t, c.chart)}, Name: "edge", Namespace: "web", Values: maps.Clone(vals),
				Cluster: helm.ClusterNone, Source: "kustomization.yaml", Template: &helm.Template{IncludeCRDs: true, SkipTests: true},
			})
			if err != nil {
				t.Fatal(err)
			}
			want := helmTemplate(t, c.chart, "edge", "web", vals, oracleOptions{includeCRDs: true, noTests: true})
			if len(want) < 2 {
				t.Fatalf("Helm renders %d objects", len(want))
			}
			sameObjects(t, renderedByKindName(t, out), want)
		})
	}
}

// TestPublicChartsHelmTarget: on the public charts, the config's helm
// target renders what Helm's upgrade applies: Helm's objects (hooks and
// tests left out), each in the release namespace unless cluster-scoped,
// with Helm's release label and annotations.
func TestPublicChartsHelmTarget(t *testing.T) {
	inRepoRoot(t)
	for _, c := range publicCharts {
		t.Run(c.name, func(t *testing.T) {
			obj := map[string]any{"chart": c.chart, "release": "edge", "namespace": "web"}
			if c.values != "" {
				obj["values"] = []any{c.values}
			}
			r, err := RenderAll(context.Background(), []string{c.chart}, Options{Deployer: &delivery.Deployer{Controller: delivery.ControllerHelm, File: ".ownership-check.yaml", Object: obj}})
			if err != nil {
				t.Fatal(err)
			}
			want := helmTemplate(t, c.chart, "edge", "web", valuesOf(t, c.values), oracleOptions{upgrade: true, noHooks: true})
			got := map[string]map[string]any{}
			for _, o := range r.Objects {
				u := o.Object.DeepCopy()
				if u.GetNamespace() != "" && u.GetNamespace() != "web" {
					t.Errorf("%s: namespace %s, want the release's", o.ID, u.GetNamespace())
				}
				if u.GetLabels()["app.kubernetes.io/managed-by"] != "Helm" || u.GetAnnotations()["meta.helm.sh/release-name"] != "edge" || u.GetAnnotations()["meta.helm.sh/release-namespace"] != "web" {
					t.Errorf("%s: no Helm release metadata: %v %v", o.ID, u.GetLabels(), u.GetAnnotations())
				}
				unstructuredNoNamespace(u.Object)
				got[kindName(u.Object)] = u.Object
				if !strings.HasPrefix(o.Source, c.chart+"/templates/") {
					t.Errorf("%s: source %s", o.ID, o.Source)
				}
			}
			for _, w := range want {
				unstructuredNoNamespace(w)
				meta := w["metadata"].(map[string]any)
				labels, _ := meta["labels"].(map[string]any)
				if labels == nil {
					labels = map[string]any{}
				}
				labels["app.kubernetes.io/managed-by"] = "Helm"
				meta["labels"] = labels
				annotations, _ := meta["annotations"].(map[string]any)
				if annotations == nil {
					annotations = map[string]any{}
				}
				annotations["meta.helm.sh/release-name"] = "edge"
				annotations["meta.helm.sh/release-namespace"] = "web"
				meta["annotations"] = annotations
			}
			wantNoNS := map[string]map[string]any{}
			for _, w := range want {
				wantNoNS[kindName(w)] = w
			}
			sameObjects(t, got, wantNoNS)
		})
	}
}

// TestPublicChartsKustomizeHelmCharts: kustomize's helmCharts of the
// public charts render as Helm's SDK prints them.
func TestPublicChartsKustomizeHelmCharts(t *testing.T) {
	inRepoRoot(t)
	t.Setenv("PATH", "")
	for _, c := range publicCharts {
		t.Run(c.name, func(t *testing.T) {
			vals := valuesOf(t, c.values)
			dir := t.TempDir()
			name := filepath.Base(c.chart)
			if err := os.CopyFS(filepath.Join(dir, "charts", name), os.DirFS(c.chart)); err != nil {
				t.Fatal(err)
			}
			k := "helmCharts:\n  - name: " + name + "\n    releaseName: edge\n    namespace: web\n    skipTests: true\n"
			if c.values != "" {
				k += "    valuesFile: charts/" + name + "/" + filepath.Base(c.values) + "\n"
			}
			if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
				t.Fatal(err)
			}
			want := helmTemplate(t, c.chart, "edge", "web", vals, oracleOptions{noTests: true})
			t.Chdir(dir)
			r, err := RenderAll(context.Background(), []string{"."}, Options{Namespace: "web"})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]map[string]any{}
			for _, o := range r.Objects {
				u := o.Object.DeepCopy()
				unstructuredNoNamespace(u.Object)
				got[kindName(u.Object)] = u.Object
			}
			wantNoNS := map[string]map[string]any{}
			for _, w := range want {
				unstructuredNoNamespace(w)
				// kustomize drops the null fields below the top level of
				// what it reads, as it would from helm's output.
				for _, e := range w {
					dropNulls(e)
				}
				wantNoNS[kindName(w)] = w
			}
			sameObjects(t, got, wantNoNS)
		})
	}
}

func dropNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			dropNulls(e)
		}
	case []any:
		for _, e := range t {
			dropNulls(e)
		}
	}
}
