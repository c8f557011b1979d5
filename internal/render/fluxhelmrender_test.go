package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// TestFluxHelmReleaseRender: a HelmRelease renders its chart in this
// repository through the chart engine: the values from a Secret land in
// the objects and are carried as hidden values, the chart's defaults are
// replaced by spec.chart.spec.valuesFiles, the objects carry
// helm-controller's labels, and the HelmRelease's file and the values
// files are among what the render read; files the artifact leaves out
// (cloudbuild.yaml, .github/) are not loaded, as the controller never sees
// them.
func TestFluxHelmReleaseRender(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "charts/app/Chart.yaml"), "apiVersion: v2\nname: app\nversion: 1.0.0\n")
	writeFile(t, filepath.Join(root, "charts/app/values.yaml"), "greeting: from-chart\nlevel: debug\n")
	writeFile(t, filepath.Join(root, "envs/prod.yaml"), "greeting: from-valuesFiles\n")
	// Left out of the artifact by source-controller's defaults, as
	// ingress-nginx's chart holds them: the chart loads without them.
	writeFile(t, filepath.Join(root, "charts/app/cloudbuild.yaml"), "steps: []\n")
	writeFile(t, filepath.Join(root, "charts/app/.github/workflows/ci.yaml"), "on: push\n")
	writeFile(t, filepath.Join(root, "charts/app/templates/config.yaml"),
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\ndata:\n  greeting: {{ .Values.greeting }}\n  level: {{ .Values.level | default \"unset\" }}\n  dsn: {{ .Values.db.password | quote }}\n")
	writeFile(t, filepath.Join(root, "clusters/prod/app.yaml"), "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: app, namespace: apps}\nspec:\n"+
		"  chart:\n    spec:\n      chart: ./charts/app\n      valuesFiles: [envs/prod.yaml]\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n"+
		"  valuesFrom: [{kind: Secret, name: db}]\n"+
		"  postRenderers:\n  - kustomize:\n      patches:\n      - target: {kind: ConfigMap}\n        patch: '[{\"op\": \"add\", \"path\": \"/data/patched\", \"value\": \"yes\"}]'\n")
	t.Chdir(root)
	var obj map[string]any
	data, _ := os.ReadFile(filepath.Join(root, "clusters/prod/app.yaml"))
	if err := yaml.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	reads := source.NewReads()
	res, err := RenderAll(context.Background(), []string{"charts/app"}, Options{
		Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux, Object: obj, File: "clusters/prod/app.yaml"},
		Values:   fakeValues{"Secret/apps/db": {"values.yaml": "db: {password: hunter2-pw}\n"}},
		Reads:    reads,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NotRendered) > 0 || len(res.Objects) != 1 {
		t.Fatalf("objects %d, not rendered %v", len(res.Objects), res.NotRendered)
	}
	o := res.Objects[0]
	if o.ID.String() != "ConfigMap/apps/app-config" {
		t.Errorf("object %s, want the release app's ConfigMap in apps", o.ID)
	}
	d, _, _ := unstructured.NestedStringMap(o.Object.Object, "data")
	if d["greeting"] != "from-valuesFiles" || d["level"] != "unset" || d["dsn"] != "hunter2-pw" || d["patched"] != "yes" {
		t.Errorf("data %v, want valuesFiles over (and in place of) the chart's values, the Secret's password, and the post-renderer's patch", d)
	}
	if !o.HiddenValues.Holds("hunter2-pw") {
		t.Errorf("hidden %q, want the Secret's password", o.HiddenValues.List())
	}
	if l := o.Object.GetLabels(); l["helm.toolkit.fluxcd.io/name"] != "app" || l["helm.toolkit.fluxcd.io/namespace"] != "apps" {
		t.Errorf("labels %v, want helm-controller's", l)
	}
	files, _, _ := reads.Relative(root)
	read := strings.Join(files, " ")
	for _, f := range []string{"clusters/prod/app.yaml", "envs/prod.yaml", "charts/app/templates/config.yaml"} {
		if !strings.Contains(read, f) {
			t.Errorf("reads %s, want %s among them", read, f)
		}
	}
}
