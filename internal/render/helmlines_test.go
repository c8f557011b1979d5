package render

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// linesChart is written for the Helm lines (its README): a template's
// last document with trailing blank lines a block scalar keeps, and the
// chart's own nulls.
const linesChart = "internal/render/testdata/helm/lines/trailing-nulls"

// lineCharts are the charts of the parity test (public ones with their
// licences, testdata's NOTICE files): ones whose render differs between
// Helm's lines (the nulls of podinfo's and flink's own values, the
// whitespace ending grafana's, pinniped's and grafana-mimir's ConfigMaps,
// linesChart) and ones that do not. The render is asked as `helm
// template` prints it, which trims what it prints last, and held to the
// documents Helm 4 writes (helm4Template): a chart here does not end its
// last printed document in whitespace (pinniped keeps a Service after its
// ConfigMap).
var lineCharts = []struct{ name, chart, values string }{
	{"podinfo", podinfoChart, ""},
	{"podinfo prod", podinfoChart, podinfoChart + "/values-prod.yaml"},
	{"ingress-nginx", ingressNginxChart, ""},
	{"helm-guestbook", "testdata/public/argocd-example-apps/helm-guestbook", ""},
	{"helm-guestbook production", "testdata/public/argocd-example-apps/helm-guestbook", "testdata/public/argocd-example-apps/helm-guestbook/values-production.yaml"},
	{"metrics-server", "internal/testkit/chartserver/testdata/charts/metrics-server", ""},
	{"trailing and nulls", linesChart, ""},
	{"grafana dashboards", grafanaChart, grafanaChart + "/ci/with-dashboard-values.yaml"},
	{"pinniped", "internal/render/testdata/helm/public/pinniped", ""},
	{"flink", "internal/render/testdata/helm/public/flink", ""},
	{"grafana-mimir", "internal/render/testdata/helm/public/grafana-mimir", ""},
	{"grafana", grafanaChart, ""},
	{"loki single binary", lokiChart, lokiChart + "/ci/default-single-binary-filesystem-values.yaml"},
}

const lokiChart = "internal/render/testdata/helm/public/loki"

// grafanaChart's ConfigMap ends in the whitespace Helm 4.2 keeps only
// with dashboards to download (its ci values).
const grafanaChart = "internal/render/testdata/helm/public/grafana"

// lineDeployers are the deployers of each Helm line, by their version.
var lineDeployers = []struct {
	name, controller, version string
	cluster                   helm.Cluster
}{
	{"Flux helm-controller v1.4", delivery.ControllerFlux, "v1.4.0", helm.ClusterLive},
	{"Flux helm-controller v1.5", delivery.ControllerFlux, "v1.5.0", helm.ClusterLive},
	{"Flux helm-controller v1.6.0", delivery.ControllerFlux, "v1.6.0", helm.ClusterLive},
	{"Flux helm-controller v1.6.3", delivery.ControllerFlux, "v1.6.3", helm.ClusterLive},
	{"Argo CD 3.4", delivery.ControllerArgoCD, "v3.4.0", helm.ClusterArgoCD},
	{"Argo CD 3.5", delivery.ControllerArgoCD, "v3.5.0", helm.ClusterArgoCD},
	{"helm target", delivery.ControllerHelm, "", helm.ClusterLive},
}

// TestHelmLinesParity: each chart renders, for each deployer, with that
// deployer's Helm (delivery.HelmOf), as that Helm renders it, object by
// object, .Capabilities from the API server: Helm 3.18's SDK for the
// Helm 3 deployers, the real Helm 4 (tools/helm4, 4.3) for the others,
// with a post-renderer where the deployer has one (helm-controller
// always: its labels), which Helm 4 hands every document to. An older
// Helm 4 line is held to 4.3 on the charts it renders as 4.3 does; on the
// others (heldElsewhere) render/helm's TestHelm4Lines holds it to what
// that release's own install was measured to apply.
func TestHelmLinesParity(t *testing.T) {
	testcluster.Require(t, cluster)
	helm4 := testcluster.Tool(t, "helm4/helm")
	inRepoRoot(t)
	ctx := context.Background()
	cl, err := kube.New(cluster.Config(), "", 1)
	if err != nil {
		t.Fatal(err)
	}
	server, err := cl.ServerVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	apis, err := cl.APIVersions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Where a line renders a chart otherwise than 4.3: 4.1 keeps the
	// chart's nulls and trims every document; 4.2 before 4.2.4, post-
	// rendered, drops the line break that ends a document before another.
	heldElsewhere := map[[2]string]bool{
		{"podinfo", delivery.Helm41}:            true,
		{"trailing and nulls", delivery.Helm41}: true,
		{"trailing and nulls", delivery.Helm42}: true,
		{"grafana dashboards", delivery.Helm41}: true,
		{"pinniped", delivery.Helm41}:           true,
		{"flink", delivery.Helm41}:              true,
		{"grafana-mimir", delivery.Helm41}:      true,
	}
	differ := map[string]bool{}
	for _, c := range lineCharts {
		vals := valuesOf(t, c.values)
		helm3 := helmTemplate(t, c.chart, "edge", "web", vals, oracleOptions{includeCRDs: true, noTests: true, kubeVersion: server.GitVersion, apiVersions: apis})
		helm4s := map[bool]map[string]map[string]any{
			false: helm4Template(t, helm4, c.chart, c.values, server.GitVersion, apis, false),
			true:  helm4Template(t, helm4, c.chart, c.values, server.GitVersion, apis, true),
		}
		differ[c.name] = !sameObjectsAs(helm3, helm4s[false])
		for _, d := range lineDeployers {
			h := delivery.HelmOf(d.controller, d.version)
			t.Run(c.name+"/"+d.name+" (Helm "+h.Version+")", func(t *testing.T) {
				postRenders := h.PostRenders && h.Version != delivery.Helm3
				if heldElsewhere[[2]string{c.name, h.Version}] && (postRenders || h.Version == delivery.Helm41) {
					t.Skipf("Helm %s renders %s otherwise than 4.3: render/helm's TestHelm4Lines holds it", h.Version, c.name)
				}
				in := chartInput(t, nil, cl, c.chart)
				in.Helm = HelmEngineFor(h)
				out, err := helm.RenderChart(ctx, in, helm.Release{
					Chart: source.Chart{Dir: realPath(t, c.chart)}, Name: "edge", Namespace: "web", Values: maps.Clone(vals),
					Cluster: d.cluster, Source: "kustomization.yaml", Template: &helm.Template{IncludeCRDs: true, SkipTests: true},
				})
				if err != nil {
					t.Fatal(err)
				}
				want := helm4s[postRenders]
				if h.Version == delivery.Helm3 {
					want = helm3
				}
				sameObjects(t, renderedByKindName(t, out), want)
			})
		}
	}
	// The charts that differ between the lines do, the others do not:
	// the test holds each line to its own Helm.
	for name, want := range map[string]bool{"podinfo": true, "podinfo prod": false, "ingress-nginx": false,
		"helm-guestbook": false, "helm-guestbook production": false, "metrics-server": false, "trailing and nulls": true,
		"grafana dashboards": true, "pinniped": true, "flink": true, "grafana-mimir": true, "grafana": false, "loki single binary": false} {
		if differ[name] != want {
			t.Errorf("%s: Helm 3 and Helm 4 render it differently: %v, want %v", name, differ[name], want)
		}
	}
}

// helm4Template is the real Helm 4's client-only install of a chart, as
// `helm template --output-dir` writes it: each document as the install
// applies it (without the output dir, helm template trims the end of
// what it prints, which the last document's block scalar would lose),
// test hooks left out, .Capabilities as given; postRender: through a
// post-renderer that changes nothing (a plugin running cat), as
// helm-controller's labels are.
func helm4Template(t *testing.T, bin, chart, values, kubeVersion string, apis []string, postRender bool) map[string]map[string]any {
	t.Helper()
	dir, plugins := t.TempDir(), t.TempDir()
	args := []string{"template", "edge", chart, "--namespace", "web", "--include-crds", "--skip-tests", "--output-dir", dir,
		"--kube-version", kubeVersion, "--api-versions", strings.Join(apis, ",")}
	if values != "" {
		args = append(args, "--values", values)
	}
	if postRender {
		writeFile(t, filepath.Join(plugins, "identity", "plugin.yaml"), "name: identity\nversion: 0.1.0\ntype: postrenderer/v1\napiVersion: v1\nruntime: subprocess\nruntimeConfig:\n  platformCommand:\n    - command: cat\n")
		args = append(args, "--post-renderer", "identity")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+t.TempDir(), "HELM_CONFIG_HOME="+t.TempDir(), "HELM_DATA_HOME="+t.TempDir(), "HELM_PLUGINS="+plugins)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helm template: %v\n%s", err, out)
	}
	out := map[string]map[string]any{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		maps.Copy(out, byKindName(t, path, string(data)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 2 {
		t.Fatalf("helm template wrote %v", slices.Collect(maps.Keys(out)))
	}
	return out
}

func sameObjectsAs(a, b map[string]map[string]any) bool {
	return maps.EqualFunc(a, b, func(x, y map[string]any) bool { return reflect.DeepEqual(x, y) })
}
