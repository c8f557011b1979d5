package render

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	fluxkustomize "github.com/fluxcd/pkg/kustomize"
	"github.com/fluxcd/pkg/sourceignore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/flux"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// The Flux fixtures: a repository's Kustomizations (clusters/prod) over
// an overlay, a base, a component and a folder without a kustomization.
const fluxFixtures = "testdata/flux"

// fluxKustomizationsFile is the fixtures' Kustomizations' file, relative
// to the repository's top, as delivery.Deployer.File is.
const fluxKustomizationsFile = "internal/render/testdata/flux/clusters/prod/apps.yaml"

// The values the fixtures' substituteFrom sources hold. secretToken is a
// Secret's value: it must never be shown.
const secretToken = "s3cr3t-t0ken-4f9a"

var fluxValues = fakeValues{
	"ConfigMap/flux-system/cluster-vars": {"REGION": "us-east-1", "FEATURE": "enabled"},
	"Secret/flux-system/cluster-secrets": {"API_TOKEN": secretToken},
}

// fakeValues is a ValueReader over fixed ConfigMaps and Secrets: the
// ConfigMap cluster-vars is the repository's (clusters/prod/vars.yaml),
// the rest the cluster's.
type fakeValues map[string]map[string]string

func (f fakeValues) Values(_ context.Context, kind, namespace, name string, _ *model.StandIns) (map[string]string, string, bool, error) {
	data, ok := f[kind+"/"+namespace+"/"+name]
	if kind == "ConfigMap" && name == "cluster-vars" {
		return data, "internal/render/testdata/flux/clusters/prod/vars.yaml", ok, nil
	}
	return data, "cluster", ok, nil
}

// fluxKustomizations reads the fixtures' Flux Kustomizations by name.
func fluxKustomizations(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fluxFixtures, "clusters/prod/apps.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			break
		}
		out[(&unstructured.Unstructured{Object: m}).GetName()] = m
	}
	return out
}

// fluxCases: each fixture Kustomization and the folder its spec.path names
// (below the fixtures).
var fluxCases = []struct{ name, dir string }{
	{"apps", "apps/prod"},
	{"plain", "plain"},
	{"generated", "apps/generated"},
}

func renderFlux(t *testing.T, ks map[string]any, dir string, values source.ValueReader, reads *source.Reads) Result {
	t.Helper()
	d := &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: fluxKustomizationsFile}
	res, err := RenderAll(context.Background(), []string{filepath.Join(fluxFixtures, dir)}, Options{Deployer: d, Values: values, Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestFluxRenderIsTheControllersLibrary: render's objects are, object for
// object, what fluxcd/pkg/kustomize's generator, build and substitution
// make of a copy of the source, as kustomize-controller runs them, then
// the controller's apply step (flux.Apply, tested on its own in render/flux).
func TestFluxRenderIsTheControllersLibrary(t *testing.T) {
	kss := fluxKustomizations(t)
	for _, c := range fluxCases {
		t.Run(c.name, func(t *testing.T) {
			ks := kss[c.name]
			got := renderFlux(t, ks, c.dir, fluxValues, nil)
			want, encrypted := libraryRender(t, ks, c.dir)
			sameAsLibrary(t, got, want, encrypted)
		})
	}
}

// sameAsLibrary: render's objects are the library's, object for object,
// and each encrypted Secret is among what render says it did not render.
func sameAsLibrary(t *testing.T, got Result, want map[string]map[string]any, encrypted []string) {
	t.Helper()
	gotByID := map[string]map[string]any{}
	for _, o := range got.Objects {
		gotByID[o.ID.String()] = o.Object.Object
	}
	for id, w := range want {
		g, ok := gotByID[id]
		if !ok {
			t.Errorf("%s: the controller applies it, render has not", id)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			gy, _ := yaml.Marshal(g)
			wy, _ := yaml.Marshal(w)
			t.Errorf("%s: render:\n%s\nthe controller's library:\n%s", id, gy, wy)
		}
	}
	for id := range gotByID {
		if _, ok := want[id]; !ok {
			t.Errorf("%s: rendered, the controller does not apply it", id)
		}
	}
	var notRendered []string
	for _, n := range got.NotRendered {
		notRendered = append(notRendered, n.Reason)
	}
	for _, name := range encrypted {
		if !slices.ContainsFunc(notRendered, func(r string) bool { return strings.HasPrefix(r, "Secret "+name+": encrypted: values not checked") }) {
			t.Errorf("encrypted Secret %s: not among what is not rendered: %q", name, notRendered)
		}
	}
}

// libraryRender is the controller's render of dir through Flux's own
// library, in a temporary copy of the fixtures (the controller's copy of
// the source's artifact): objects by ID, and the SOPS-encrypted Secrets'
// names, which render leaves out.
func libraryRender(t *testing.T, ks map[string]any, dir string) (map[string]map[string]any, []string) {
	t.Helper()
	return libraryRenderIn(t, fluxFixtures, ks, dir, fluxValues)
}

// libraryRenderIn is libraryRender of dir below the source tree src, with
// values the cluster's ConfigMaps and Secrets.
func libraryRenderIn(t *testing.T, src string, ks map[string]any, dir string, values fakeValues) (map[string]map[string]any, []string) {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	sourceControllerArtifact(t, root)
	dirPath := filepath.Join(root, dir)
	u := unstructured.Unstructured{Object: ks}
	if _, err := fluxkustomize.NewGenerator(root, u).WriteFile(dirPath); err != nil {
		t.Fatal(err)
	}
	m, err := fluxkustomize.SecureBuild(root, dirPath, false)
	if err != nil {
		t.Fatal(err)
	}
	var objs []client.Object
	for key, data := range values {
		kind, rest, _ := strings.Cut(key, "/")
		ns, name, _ := strings.Cut(rest, "/")
		meta := metav1.ObjectMeta{Namespace: ns, Name: name}
		if kind == "Secret" {
			bin := map[string][]byte{}
			for k, v := range data {
				bin[k] = []byte(v)
			}
			objs = append(objs, &corev1.Secret{ObjectMeta: meta, Data: bin})
			continue
		}
		objs = append(objs, &corev1.ConfigMap{ObjectMeta: meta, Data: data})
	}
	kube := fake.NewClientBuilder().WithObjects(objs...).Build()
	for _, res := range m.Resources() {
		if _, ok := ks["spec"].(map[string]any)["postBuild"]; !ok {
			continue
		}
		if _, err := fluxkustomize.SubstituteVariables(context.Background(), client.Client(kube), u, res); err != nil {
			t.Fatal(err)
		}
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{}
	var encrypted []string
	for _, obj := range decodeAll(t, out) {
		if flux.SopsEncrypted(obj) {
			encrypted = append(encrypted, source.NameOf(obj))
			continue
		}
		a, err := flux.Apply(u, obj)
		if err != nil {
			t.Fatal(err)
		}
		if a.Skip != "" {
			continue
		}
		o := &unstructured.Unstructured{Object: a.Obj}
		want[model.IDOf(o).String()] = a.Obj
	}
	if len(want) == 0 {
		t.Fatal("the library rendered nothing")
	}
	return want, encrypted
}

// decodeAll reads YAML documents as render reads objects: numbers that
// are integers are int64.
func decodeAll(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := utiljson.Unmarshal(j, &m); err != nil {
			t.Fatal(err)
		}
		if m != nil {
			out = append(out, m)
		}
	}
}

// sourceControllerArtifact removes from root what source-controller leaves
// out of an artifact: its default exclusions and .sourceignore patterns.
func sourceControllerArtifact(t *testing.T, root string) {
	t.Helper()
	ps, err := sourceignore.LoadIgnorePatterns(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := sourceignore.NewDefaultMatcher(ps, nil)
	var gone []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if m.Match(strings.Split(rel, string(filepath.Separator)), d.IsDir()) {
			gone = append(gone, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range gone {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFluxRender(t *testing.T) {
	ks := fluxKustomizations(t)["apps"]
	res := renderFlux(t, ks, "apps/prod", fluxValues, nil)
	web := find(t, res.Objects, "Deployment.apps/shop/prod-web-v1")
	labels := web.Object.GetLabels()
	if labels[flux.NameLabel] != "apps" || labels[flux.NamespaceLabel] != "flux-system" || labels["team"] != "shop" {
		t.Errorf("labels: %v", labels)
	}
	if web.Object.GetAnnotations()["owner"] != "shop-team" || web.Object.GetAnnotations()["overlay"] != "prod" {
		t.Errorf("annotations: %v", web.Object.GetAnnotations())
	}
	// postBuild.substitute wins over substituteFrom; defaults apply where
	// no value is given; YAML typing is the controller's (an unquoted 3 is
	// a number).
	if r, _, _ := unstructured.NestedInt64(web.Object.Object, "spec", "replicas"); r != 3 {
		t.Errorf("replicas: %d", r)
	}
	if h, _, _ := unstructured.NestedInt64(web.Object.Object, "spec", "revisionHistoryLimit"); h != 3 {
		t.Errorf("the Kustomization's patch: revisionHistoryLimit %d", h)
	}
	containers, _, _ := unstructured.NestedSlice(web.Object.Object, "spec", "template", "spec", "containers")
	c := containers[0].(map[string]any)
	if c["image"] != "registry.example.com/web:2.1" {
		t.Errorf("image: %v", c["image"])
	}
	env := map[string]any{}
	for _, e := range c["env"].([]any) {
		env[e.(map[string]any)["name"].(string)] = e.(map[string]any)["value"]
	}
	if env["CLUSTER"] != "prod-eu" || env["REGION"] != "us-east-1" || env["TOKEN"] != secretToken {
		t.Errorf("env: %v", env)
	}
	if !web.HiddenValues.Holds(secretToken) {
		t.Errorf("the Secret's value is not among the object's hidden values: %q", web.HiddenValues.List())
	}
	port := c["ports"].([]any)[0].(map[string]any)
	if port["protocol"] != "TCP" {
		t.Errorf("the controller's normalization: port %v", port)
	}

	script := find(t, res.Objects, "ConfigMap/shop/prod-script-v1")
	if got, _, _ := unstructured.NestedString(script.Object.Object, "data", "run.sh"); got != "echo ${HOME} $${NOT_A_VAR}" {
		t.Errorf("substitution disabled: %q", got)
	}
	if script.HiddenValues.Len() != 0 {
		t.Errorf("nothing substituted, nothing to hide: %q", script.HiddenValues.List())
	}
	settings := find(t, res.Objects, "ConfigMap/shop/prod-settings-v1")
	if got, _, _ := unstructured.NestedStringMap(settings.Object.Object, "data"); got["env"] != "dev" || got["cluster"] != "prod-eu" {
		t.Errorf("settings: %v", got)
	}
	seed := find(t, res.Objects, "ConfigMap/shop/prod-seed-v1")
	if !slices.ContainsFunc(seed.Notes, func(n string) bool { return strings.Contains(n, "IfNotPresent") }) {
		t.Errorf("IfNotPresent: notes %q", seed.Notes)
	}
	for _, o := range res.Objects {
		if strings.Contains(o.ID.String(), "hand-managed") || strings.Contains(o.ID.String(), "prod-db-v1") {
			t.Errorf("%s: rendered", o.ID)
		}
	}
	var reasons []string
	for _, n := range res.NotRendered {
		reasons = append(reasons, n.String())
	}
	all := strings.Join(reasons, "\n")
	for _, want := range []string{
		"testdata/flux/apps/base/ignored.yaml:1: not rendered: ConfigMap prod-hand-managed-v1: kustomize.toolkit.fluxcd.io/ssa: Ignore: kustomize-controller does not apply it",
		"testdata/flux/apps/base/secret.enc.yaml:1: not rendered: Secret prod-db-v1: encrypted: values not checked (SOPS; never decrypted here; keys: password, user)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("not rendered:\n%s\nwant a line:\n%s", all, want)
		}
	}
	if strings.Contains(all, "ENC[") {
		t.Errorf("an encrypted value is shown: %s", all)
	}
	extra := find(t, res.Objects, "ConfigMap/shop/"+configMapNamed(t, res.Objects, "prod-extra-v1"))
	if got, _, _ := unstructured.NestedString(extra.Object.Object, "data", "feature"); got != "enabled" {
		t.Errorf("the component's generated ConfigMap: feature %q", got)
	}
}

// configMapNamed finds a generated ConfigMap's name (with its hash).
func configMapNamed(t *testing.T, objs []model.Object, prefix string) string {
	t.Helper()
	for _, o := range objs {
		if o.ID.Kind == "ConfigMap" && strings.HasPrefix(o.ID.Name, prefix) {
			return o.ID.Name
		}
	}
	t.Fatalf("no ConfigMap %s*", prefix)
	return ""
}

func TestFluxFolderWithoutKustomization(t *testing.T) {
	res := renderFlux(t, fluxKustomizations(t)["plain"], "plain", nil, nil)
	var ids []string
	for _, o := range res.Objects {
		ids = append(ids, o.ID.String())
	}
	want := []string{"ConfigMap/tools/nested-c", "ConfigMap/tools/plain-a", "ServiceAccount/tools/plain-b"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("objects %q, want %q", ids, want)
	}
	a := find(t, res.Objects, "ConfigMap/tools/plain-a")
	if _, ok := a.Object.GetAnnotations()[kustomize.OriginAnnotation]; ok {
		t.Errorf("a generated kustomization lists resources: no origin annotations")
	}
	if a.Source != "testdata/flux/plain/a.yaml" || a.Line != 1 {
		t.Errorf("source %s:%d", a.Source, a.Line)
	}
}

func TestFluxSubstituteFromMissing(t *testing.T) {
	ks := fluxKustomizations(t)["apps"]
	res := renderFlux(t, ks, "apps/prod", fakeValues{}, nil)
	if len(res.Objects) != 0 {
		t.Errorf("rendered %d objects", len(res.Objects))
	}
	want := []source.NotRendered{{Source: "testdata/flux/clusters/prod/apps.yaml", Reason: "postBuild.substituteFrom ConfigMap flux-system/cluster-vars: not found in the repository or the cluster"}}
	if !reflect.DeepEqual(res.NotRendered, want) {
		t.Errorf("not rendered %v, want %v", res.NotRendered, want)
	}
}

// TestFluxSubstituteFromNoCluster: a source neither the repository nor
// (with no cluster to read) anything else has is not called absent from
// the cluster: the reason says no cluster was read.
func TestFluxSubstituteFromNoCluster(t *testing.T) {
	ks := fluxKustomizations(t)["apps"]
	res := renderFlux(t, ks, "apps/prod", repositoryOnlyValues{}, nil)
	want := []source.NotRendered{{Source: "testdata/flux/clusters/prod/apps.yaml", Reason: "postBuild.substituteFrom ConfigMap flux-system/cluster-vars: " + delivery.ValuesNotFound(delivery.ValuesRepositoryOnly)}}
	if len(res.Objects) != 0 || !reflect.DeepEqual(res.NotRendered, want) {
		t.Errorf("rendered %d objects, not rendered %v, want %v", len(res.Objects), res.NotRendered, want)
	}
	if strings.Contains(res.NotRendered[0].Reason, "or the cluster") {
		t.Errorf("the reason says the cluster lacks it: %s", res.NotRendered[0].Reason)
	}
}

// repositoryOnlyValues is a value reader with no cluster whose repository
// has nothing.
type repositoryOnlyValues struct{}

func (repositoryOnlyValues) Values(context.Context, string, string, string, *model.StandIns) (map[string]string, string, bool, error) {
	return nil, delivery.ValuesRepositoryOnly, false, nil
}

// TestFluxReadsRecordedNothingWritten: the render records every file it
// read, the folder whose kustomization is generated included, and leaves
// the source tree as it was.
func TestFluxReadsRecordedNothingWritten(t *testing.T) {
	before := treeSnapshot(t, fluxFixtures)
	kss := fluxKustomizations(t)
	root, err := filepath.Abs(fluxFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range fluxCases {
		reads := source.NewReads()
		renderFlux(t, kss[c.name], c.dir, fluxValues, reads)
		read, dirs, _ := reads.Relative(root)
		// kustomize tries a base's folder as a file first.
		var files []string
		for _, f := range read {
			if info, err := os.Stat(filepath.Join(root, f)); err == nil && !info.IsDir() {
				files = append(files, f)
			}
		}
		var want []string
		switch c.name {
		case "apps":
			want = []string{"apps/base/creds.env", "apps/base/deployment.yaml", "apps/base/ignored.yaml", "apps/base/kustomization.yaml", "apps/base/secret.enc.yaml",
				"apps/base/service.yaml", "apps/base/settings.yaml", "apps/prod/kustomization.yaml", "components/extra/kustomization.yaml"}
		case "generated":
			want = []string{"apps/generated/kustomization.yaml"}
		case "plain":
			want = []string{"plain/.sourceignore", "plain/a.yaml", "plain/nested/c.yaml", "plain/nested/kustomization.yaml", "plain/sub/b.yml"}
			if !slices.Contains(dirs, "plain") || !slices.Contains(dirs, "plain/sub") {
				t.Errorf("%s: the generated kustomization's folders are not recorded: %q", c.name, dirs)
			}
		}
		// The Kustomization's file, and a substitution source's where the
		// repository holds it.
		want = append(want, "clusters/prod/apps.yaml")
		if c.name == "apps" {
			want = append(want, "clusters/prod/vars.yaml")
		}
		slices.Sort(want)
		if !reflect.DeepEqual(files, want) {
			t.Errorf("%s: files read %q, want %q", c.name, files, want)
		}
	}
	if after := treeSnapshot(t, fluxFixtures); !reflect.DeepEqual(before, after) {
		t.Errorf("the source tree changed:\nbefore %v\nafter  %v", before, after)
	}
}

func treeSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFluxOriginAnnotations: where a kustomization lists no resources,
// Flux's generator asks for origin annotations, and the controller applies
// them.
func TestFluxOriginAnnotations(t *testing.T) {
	res := renderFlux(t, fluxKustomizations(t)["generated"], "apps/generated", nil, nil)
	cm := find(t, res.Objects, "ConfigMap/shop/"+configMapNamed(t, res.Objects, "flags"))
	if got := cm.Object.GetAnnotations()[kustomize.OriginAnnotation]; !strings.Contains(got, "configuredIn: kustomization.yaml") {
		t.Errorf("origin annotation %q", got)
	}
}

// TestFluxEncodeHidesSecretValues: render's output never prints a value
// taken from a Secret, unless asked to.
func TestFluxEncodeHidesSecretValues(t *testing.T) {
	res := renderFlux(t, fluxKustomizations(t)["apps"], "apps/prod", fluxValues, nil)
	var out bytes.Buffer
	if err := Encode(&out, res.Objects); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), secretToken) {
		t.Errorf("a Secret's value is printed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "# Values read from a Secret hidden") {
		t.Errorf("no word of what is hidden:\n%s", out.String())
	}
	out.Reset()
	if err := EncodeWith(&out, res.Objects, EncodeOptions{ShowSecrets: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), secretToken) {
		t.Errorf("--show-secrets does not print the value")
	}
}

// TestFluxRemoteBaseNotRendered: a remote base the controller would fetch
// is not fetched without kustomize.allowRemote: the target is not
// rendered, with the reason; and the controller's builtin-only plugins,
// and its kustomize that never inflates helmCharts, are kept whatever the
// config allows.
func TestFluxRemoteBaseNotRendered(t *testing.T) {
	ks := fluxKustomizations(t)["plain"]
	for _, c := range []struct{ kustomization, want string }{
		{"resources:\n  - https://github.com/example/infra//base?ref=v1\n", "a remote base kustomize-controller fetches"},
		{"generators:\n  - |\n    apiVersion: example.com/v1\n    kind: Gen\n    metadata:\n      name: g\n      annotations:\n        config.kubernetes.io/function: |\n          exec:\n            path: ./gen.sh\n", "builtin plugins only"},
		// Never inflated, whatever allowHelm says.
		{"helmCharts:\n  - name: app\n    releaseName: web\n", "helmCharts inflates a helm chart (kustomize would run helm): kustomize-controller never inflates helmCharts"},
	} {
		// A path given is inside the boundary, wherever it is.
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(c.kustomization), 0o644); err != nil {
			t.Fatal(err)
		}
		d := &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: fluxKustomizationsFile}
		cfg := config.Default()
		cfg.Kustomize.AllowExecPlugins = true
		cfg.Kustomize.AllowHelm = true
		res, err := RenderAll(context.Background(), []string{dir}, Options{Deployer: d, Values: fluxValues, Config: cfg})
		var text string
		if err != nil {
			text = err.Error()
		}
		for _, n := range res.NotRendered {
			text += n.String()
		}
		if !strings.Contains(text, c.want) {
			t.Errorf("%q: got %q, want %q", c.kustomization, text, c.want)
		}
	}
}

// TestFluxNamespaceNotSpecified: without targetNamespace, a namespaced
// object without a namespace makes the controller refuse the whole
// Kustomization; render says so rather than placing it.
func TestFluxNamespaceNotSpecified(t *testing.T) {
	ks := map[string]any{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
		"metadata": map[string]any{"name": "plain", "namespace": "flux-system"}, "spec": map[string]any{"path": "./plain"}}
	d := &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: fluxKustomizationsFile}
	_, err := RenderAll(context.Background(), []string{filepath.Join(fluxFixtures, "plain")}, Options{Deployer: d})
	if err == nil || !strings.Contains(err.Error(), "testdata/flux/plain/a.yaml:1: ConfigMap plain-a: namespace not specified: kustomize-controller refuses") {
		t.Errorf("error %v", err)
	}
}
