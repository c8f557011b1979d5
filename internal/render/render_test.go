package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/config"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// multiPaths mixes the three input forms: two kustomize overlays, a
// directory of YAML and JSON files, and a single multi-document file.
var multiPaths = []string{
	"testdata/render/kustomize/overlays/prod",
	"testdata/render/kustomize/overlays/staging",
	"testdata/render/plain",
	"testdata/render/single.yaml",
}

func loadTestConfig(t *testing.T) *config.Config {
	t.Helper()
	cfg, err := config.Load("testdata/render/ownership-check.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestRenderGolden(t *testing.T) {
	inRepoRoot(t)
	opts := Options{Namespace: "apps", Config: loadTestConfig(t)}
	objs, err := Render(context.Background(), multiPaths, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Encode(&out, objs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/render/golden/render/multi.yaml", out.Bytes(), "TestRenderGolden")

	// Any order of the same paths gives the same bytes.
	reversed := []string{multiPaths[3], multiPaths[2], multiPaths[1], multiPaths[0]}
	objs2, err := Render(context.Background(), reversed, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out2 bytes.Buffer
	if err := Encode(&out2, objs2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), out2.Bytes()) {
		t.Error("output depends on the order of the paths")
	}
	for i := 1; i < len(objs); i++ {
		if !objs[i-1].ID.Less(objs[i].ID) {
			t.Errorf("not sorted: %s before %s", objs[i-1].ID, objs[i].ID)
		}
	}
}

func find(t *testing.T, objs []model.Object, id string) model.Object {
	t.Helper()
	for _, o := range objs {
		if o.ID.String() == id {
			return o
		}
	}
	t.Fatalf("%s not rendered", id)
	return model.Object{}
}

func TestRenderSemantics(t *testing.T) {
	inRepoRoot(t)
	objs, err := Render(context.Background(), multiPaths, Options{Namespace: "apps", Config: loadTestConfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	// Sources and lines, for annotations on the pull request.
	for id, want := range map[string]string{
		"Deployment.apps/prod/prod-web":                           "testdata/render/kustomize/base/deployment.yaml:1",
		"Service/staging/web-staging":                             "testdata/render/kustomize/base/service.yaml:2",
		"ServiceAccount/prod/prod-web":                            "testdata/render/kustomize/base/service.yaml:13",
		"ConfigMap/prod/prod-web-config-9tbh48kmkt":               "testdata/render/kustomize/base/kustomization.yaml:11",
		"Secret/prod/prod-web-tls-ddbc979t2b":                     "testdata/render/kustomize/overlays/prod/kustomization.yaml:32",
		"ServiceMonitor.monitoring.coreos.com/prod/prod-web":      "testdata/render/kustomize/components/monitoring/servicemonitor.yaml:1",
		"CronJob.batch/staging/cleanup-staging":                   "testdata/render/kustomize/overlays/staging/cronjob.yaml:1",
		"Deployment.apps/apps/api":                                "testdata/render/plain/web.yaml:2",
		"Service/apps/api":                                        "testdata/render/plain/web.yaml:32",
		"Namespace/tools":                                         "testdata/render/single.yaml:1",
		"ClusterRoleBinding.rbac.authorization.k8s.io/api-reader": "testdata/render/single.yaml:6",
	} {
		o := find(t, objs, id)
		if got := o.Source + ":" + strconv.Itoa(o.Line); got != want {
			t.Errorf("%s: source %s, want %s", id, got, want)
		}
	}
	// Namespaces: --namespace for namespaced objects without one, none for
	// cluster-scoped ones (even when the manifest sets one: Widget's CRD
	// in the same render says Cluster).
	find(t, objs, "ConfigMap/apps/api-limits")
	find(t, objs, "ConfigMap/tools/api-flags")
	find(t, objs, "Widget.example.com/blue")
	find(t, objs, "ClusterRole.rbac.authorization.k8s.io/prod-web-reader")
	// Ignore rules are applied.
	d := find(t, objs, "Deployment.apps/apps/api").Object.Object
	if _, found := d["spec"].(map[string]any)["replicas"]; found {
		t.Error(".spec.replicas should be ignored")
	}
	for _, c := range d["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any) {
		if _, found := c.(map[string]any)["resources"]; found {
			t.Error("container limits should be ignored (and resources, left empty, removed)")
		}
	}
	if find(t, objs, "Deployment.apps/prod/prod-web").Object.GetAnnotations() != nil {
		t.Error("kustomize's origin annotation should be stripped")
	}
	if _, found := find(t, objs, "Deployment.apps/staging/web-staging").Object.GetAnnotations()["team"]; found {
		t.Error("team annotation should be ignored in staging")
	}
	if _, found := find(t, objs, "Deployment.apps/apps/api").Object.GetAnnotations()["team"]; !found {
		t.Error("team annotation is only ignored in staging")
	}
}

// stubScope answers like discovery would; the API server's own answers are
// tested against a real cluster in scope_test.go.
type stubScope map[schema.GroupKind]bool

func (s stubScope) IsNamespaced(gvk schema.GroupVersionKind) (bool, error) {
	if ns, ok := s[gvk.GroupKind()]; ok {
		return ns, nil
	}
	return false, &meta.NoKindMatchError{GroupKind: gvk.GroupKind()}
}

type brokenScope struct{}

func (brokenScope) IsNamespaced(schema.GroupVersionKind) (bool, error) {
	return false, errors.New("connection refused")
}

func TestScopeFallbacks(t *testing.T) {
	inRepoRoot(t)
	// Discovery says Widget is namespaced, overriding the render's CRD;
	// ConfigMap is unknown to it (NoMatch) and falls back to namespaced.
	objs, err := Render(context.Background(), []string{"testdata/render/plain"}, Options{
		Scope: stubScope{{Group: "example.com", Kind: "Widget"}: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	find(t, objs, "Widget.example.com/ignored-for-cluster-scoped/blue")
	find(t, objs, "ConfigMap/default/api-limits")
	find(t, objs, "CustomResourceDefinition.apiextensions.k8s.io/widgets.example.com")

	_, err = Render(context.Background(), []string{"testdata/render/plain"}, Options{Scope: brokenScope{}})
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "testdata/render/plain/") {
		t.Errorf("a discovery failure must fail the render, naming the file: %v", err)
	}
}

// refusedCases are inputs Render must refuse, with what the message must
// contain: the file at fault and what to do.
var refusedCases = []struct {
	name  string
	paths []string
	want  []string
}{
	{"escape kustomization root", []string{"testdata/render/refused/escape-root/app"},
		[]string{"testdata/render/refused/escape-root/app/kustomization.yaml", `"../secret.txt"`, "allowLoadOutsideRoot"}},
	{"escape repository", []string{"testdata/render/refused/escape-repo"},
		[]string{"testdata/render/refused/escape-repo/kustomization.yaml", "/etc/passwd", "outside the repository"}},
	{"exec plugin", []string{"testdata/render/refused/exec-plugin"},
		[]string{"testdata/render/refused/exec-plugin/kustomization.yaml", "SedTransformer", "allowExecPlugins"}},
	{"KRM function", []string{"testdata/render/refused/krm-function"},
		[]string{"testdata/render/refused/krm-function/kustomization.yaml", "Stealer", "allowExecPlugins"}},
	{"helm chart", []string{"testdata/render/refused/helm"},
		[]string{"testdata/render/refused/helm/kustomization.yaml", "helmCharts", "allowHelm"}},
	{"remote base", []string{"testdata/render/refused/remote-base"},
		[]string{"testdata/render/refused/remote-base/kustomization.yaml", "github.com/kubernetes-sigs/kustomize", "allowRemote"}},
	{"remote file", []string{"testdata/render/refused/remote-file"},
		[]string{"testdata/render/refused/remote-file/kustomization.yaml", "https://raw.githubusercontent.com", "allowRemote"}},
	{"remote patch", []string{"testdata/render/refused/remote-patch"},
		[]string{"testdata/render/refused/remote-patch/kustomization.yaml", "patches[0].path", "allowRemote"}},
	{"remote in a component", []string{"testdata/render/refused/remote-nested/overlay"},
		[]string{"testdata/render/refused/remote-nested/component/kustomization.yaml", "git@github.com", "allowRemote"}},
	{"malformed YAML in kustomize", []string{"testdata/render/refused/malformed-kustomize"},
		[]string{"testdata/render/refused/malformed-kustomize/deployment.yaml:7", "malformed YAML"}},
	{"malformed YAML file", []string{"testdata/render/refused/malformed-plain/manifests.yaml"},
		[]string{"testdata/render/refused/malformed-plain/manifests.yaml:12", "malformed YAML"}},
	{"duplicate objects", []string{"testdata/render/refused/duplicate"},
		[]string{"ConfigMap/default/settings", "testdata/render/refused/duplicate/a.yaml:1", "testdata/render/refused/duplicate/b.yaml:6"}},
	{"duplicate across paths", []string{"testdata/render/refused/duplicate/a.yaml", "testdata/render/refused/duplicate/a.yaml"},
		[]string{"ConfigMap/default/settings", "defined twice"}},
	{"missing name", []string{"testdata/render/refused/missing-name"},
		[]string{"testdata/render/refused/missing-name/configmap.yaml:1", "without metadata.name"}},
	{"generateName", []string{"testdata/render/refused/generate-name/job.yaml"},
		[]string{"testdata/render/refused/generate-name/job.yaml:1", `generateName "migrate-"`}},
	{"billion laughs", []string{"testdata/render/refused/bomb"},
		[]string{"testdata/render/refused/bomb/laughs.yaml:1", "aliases"}},
	{"billion laughs file", []string{"testdata/render/refused/bomb/laughs.yaml"},
		[]string{"testdata/render/refused/bomb/laughs.yaml:1", "aliases"}},
	{"duplicate keys", []string{"testdata/render/refused/dup-keys"},
		[]string{"testdata/render/refused/dup-keys/configmap.yaml:5", `duplicate key "name"`}},
	{"duplicate keys file", []string{"testdata/render/refused/dup-keys/configmap.yaml"},
		[]string{"testdata/render/refused/dup-keys/configmap.yaml:5", `duplicate key "name"`}},
	{"missing path", []string{"testdata/render/nope"},
		[]string{"testdata/render/nope", "no such file"}},
}

func TestRefused(t *testing.T) {
	inRepoRoot(t)
	for _, c := range refusedCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(context.Background(), c.paths, Options{})
			if err == nil {
				t.Fatal("rendered; want an error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestAllowLoadOutsideRoot(t *testing.T) {
	inRepoRoot(t)
	cfg := &config.Config{Kustomize: config.KustomizeOptions{AllowLoadOutsideRoot: true}}
	objs, err := Render(context.Background(), []string{"testdata/render/refused/escape-root/app"}, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 || !strings.HasPrefix(objs[0].ID.Name, "stolen-") {
		t.Fatalf("got %v", objs)
	}
	// The repository boundary holds whatever the config says.
	_, err = Render(context.Background(), []string{"testdata/render/refused/escape-repo"}, Options{Config: cfg})
	if err == nil || !strings.Contains(err.Error(), "outside the repository") {
		t.Fatalf("want the boundary to hold, got %v", err)
	}
}

func TestAllowExecPluginsReachesKustomize(t *testing.T) {
	inRepoRoot(t)
	cfg := &config.Config{Kustomize: config.KustomizeOptions{AllowExecPlugins: true}}
	// The plugin does not exist: kustomize itself now looks for it.
	_, err := Render(context.Background(), []string{"testdata/render/refused/exec-plugin"}, Options{Config: cfg})
	if err == nil || strings.Contains(err.Error(), "allowExecPlugins") {
		t.Fatalf("want kustomize's own plugin error, got %v", err)
	}
}

func TestSymlinkOutOfRepository(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	writeFile(t, outside, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stolen\n")
	writeFile(t, "app/kustomization.yaml", "resources:\n  - link.yaml\n")
	if err := os.Symlink(outside, "app/link.yaml"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, "plain/ok.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n")
	if err := os.Symlink(outside, "plain/link.yaml"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"app", "plain"} {
		_, err := Render(context.Background(), []string{p}, Options{})
		if err == nil || !strings.Contains(err.Error(), p+"/") || !strings.Contains(err.Error(), "link.yaml") || !strings.Contains(err.Error(), "outside") {
			t.Errorf("%s: want a refusal naming the symlink, got %v", p, err)
		}
	}
	// A symlink within the repository is fine.
	if err := os.Remove("plain/link.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ok.yaml", "plain/link.yaml"); err != nil {
		t.Fatal(err)
	}
	if _, err := Render(context.Background(), []string{"plain/link.yaml"}, Options{}); err != nil {
		t.Error(err)
	}
}

func TestFileTooLarge(t *testing.T) {
	t.Chdir(t.TempDir())
	big := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: \"" + strings.Repeat("a", source.MaxFileSize) + "\"\n"
	writeFile(t, "plain/big.yaml", big)
	writeFile(t, "app/kustomization.yaml", "resources:\n  - ../plain/big.yaml\n")
	writeFile(t, "gen/kustomization.yaml", "configMapGenerator:\n  - name: big\n    files:\n      - big.txt\n")
	writeFile(t, "gen/big.txt", strings.Repeat("a", source.MaxFileSize+1))
	for _, c := range []struct{ path, file string }{{"plain/big.yaml", "plain/big.yaml"}, {"gen", "gen/big.txt"}} {
		_, err := Render(context.Background(), []string{c.path}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), "larger than the limit") {
			t.Errorf("%s: want a size error naming %s, got %v", c.path, c.file, err)
		}
	}
}

func TestKustomizationFileGiven(t *testing.T) {
	inRepoRoot(t)
	a, err := Render(context.Background(), []string{"testdata/render/kustomize/base/kustomization.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(context.Background(), []string{"testdata/render/kustomize/base"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) != 5 {
		t.Errorf("kustomization file and its directory differ: %d vs %d objects", len(a), len(b))
	}
}

func TestRenderNoPath(t *testing.T) {
	if _, err := Render(context.Background(), nil, Options{}); err == nil {
		t.Error("want an error without paths")
	}
}

func TestRenderCancelled(t *testing.T) {
	inRepoRoot(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Render(ctx, []string{"testdata/render/plain"}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("want context.Canceled, got %v", err)
	}
}

// TestExponentialKustomization: twenty small kustomizations, each naming
// the one below twice, would make kustomize build a million objects.
func TestExponentialKustomization(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "l0/kustomization.yaml", "resources: [cm.yaml]\n")
	writeFile(t, "l0/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
	for i := 1; i <= 20; i++ {
		for _, side := range []string{"a", "b"} {
			writeFile(t, filepath.Join("l"+strconv.Itoa(i), side, "kustomization.yaml"),
				"namePrefix: "+side+"-\nresources: [../../l"+strconv.Itoa(i-1)+"]\n")
		}
		writeFile(t, filepath.Join("l"+strconv.Itoa(i), "kustomization.yaml"), "resources: [a, b]\n")
	}
	_, err := Render(context.Background(), []string{"l20"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Fatalf("want the object limit, got %v", err)
	}
}

// TestPluginConfigsChecked: plugin configs are checked wherever they come
// from (inline, a file, a kustomization directory), and builtin ones for
// remote files.
func TestPluginConfigsChecked(t *testing.T) {
	t.Chdir(t.TempDir())
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"
	writeFile(t, "dir/kustomization.yaml", "resources: [cm.yaml]\ntransformers: [plugins]\n")
	writeFile(t, "dir/cm.yaml", cm)
	writeFile(t, "dir/plugins/kustomization.yaml", "resources: [exec.yaml]\n")
	writeFile(t, "dir/plugins/exec.yaml", "apiVersion: example.com/v1\nkind: Runner\nmetadata:\n  name: r\n")
	writeFile(t, "file/kustomization.yaml", "resources: [cm.yaml]\ntransformers: [patch.yaml]\n")
	writeFile(t, "file/cm.yaml", cm)
	writeFile(t, "file/patch.yaml", "apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: p\npath: https://example.com/p.yaml\ntarget:\n  kind: ConfigMap\n")
	writeFile(t, "inline/kustomization.yaml", "resources: [cm.yaml]\ngenerators:\n  - |\n    apiVersion: builtin\n    kind: ConfigMapGenerator\n    metadata:\n      name: g\n    files: [key=https://example.com/x]\n")
	writeFile(t, "inline/cm.yaml", cm)
	writeFile(t, "helmrepo/kustomization.yaml", "helmCharts:\n  - name: c\n    repo: https://charts.example.com\n")
	writeFile(t, "helmplugin/kustomization.yaml", "generators:\n  - |\n    apiVersion: builtin\n    kind: HelmChartInflationGenerator\n    metadata:\n      name: h\n    name: c\n")
	cases := []struct {
		path string
		cfg  config.KustomizeOptions
		want []string
	}{
		{"dir", config.KustomizeOptions{}, []string{"dir/kustomization.yaml", "transformers[0]", "Runner", "allowExecPlugins"}},
		{"file", config.KustomizeOptions{}, []string{"file/kustomization.yaml", "PatchTransformer", "https://example.com/p.yaml", "allowRemote"}},
		{"inline", config.KustomizeOptions{}, []string{"inline/kustomization.yaml", "generators[0]", "https://example.com/x", "allowRemote"}},
		{"helmrepo", config.KustomizeOptions{AllowHelm: true}, []string{"helmrepo/kustomization.yaml", "helmCharts[0].repo", "allowRemote"}},
		{"helmplugin", config.KustomizeOptions{}, []string{"helmplugin/kustomization.yaml", "HelmChartInflationGenerator", "allowHelm"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			_, err := Render(context.Background(), []string{c.path}, Options{Config: &config.Config{Kustomize: c.cfg}})
			if err == nil {
				t.Fatal("rendered; want a refusal")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
}

// TestBackstopExplainsKustomizeRefusal: what the scan lets through,
// kustomize's own restrictions still refuse, with the same advice.
func TestBackstopExplainsKustomizeRefusal(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "secret.txt", "s3cr3t\n")
	// A patch file reached through a plugin config is not a field the
	// scan checks for the load restrictions; kustomize's loader refuses it.
	writeFile(t, "app/kustomization.yaml", "resources: [cm.yaml]\ngenerators:\n  - |\n    apiVersion: builtin\n    kind: ConfigMapGenerator\n    metadata:\n      name: g\n    files: [../secret.txt]\n")
	writeFile(t, "app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
	_, err := Render(context.Background(), []string{"app"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "allowLoadOutsideRoot") || strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("want kustomize's refusal with advice, got %v", err)
	}
}

// TestMissingResourceNamed: a resource that is not there is said in one
// line, the kustomization's file, the entry and the name, not in
// kustomize's nested accumulation errors.
func TestMissingResourceNamed(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "app/kustomization.yaml", "resources: [cm.yaml, missing.yaml]\n")
	writeFile(t, "app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
	_, err := Render(context.Background(), []string{"app"}, Options{})
	want := "app/kustomization.yaml: resources[1]: missing.yaml: no such file or directory"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
