package flux

import (
	"context"
	"encoding/json"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// helmValues is a ValueReader of fixed objects, by kind/namespace/name.
type helmValues map[string]map[string]string

func (f helmValues) Values(_ context.Context, kind, namespace, name string, _ *model.StandIns) (map[string]string, string, bool, error) {
	if kind == "Secret" && name == "sops" {
		return nil, "values.yaml", true, &delivery.ValuesWithheld{Reason: "sops is encrypted with SOPS"}
	}
	if name == "in-cluster-only" {
		// Read with no cluster: only the repository was looked in.
		return nil, delivery.ValuesRepositoryOnly, false, nil
	}
	data, ok := f[kind+"/"+namespace+"/"+name]
	if !ok {
		return nil, "", false, nil
	}
	return data, "clusters/values.yaml", true, nil
}

func helmReleaseObject(t *testing.T, spec string) map[string]any {
	t.Helper()
	var obj map[string]any
	doc := "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: podinfo, namespace: apps}\nspec:\n" + spec
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

const gitChart = "  chart:\n    spec:\n      chart: ./charts/podinfo\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n"

// TestFluxHelmValuesLayering: valuesFrom in order, then spec.values, as
// helm-controller's ChartValuesFromReferences layers them.
func TestFluxHelmValuesLayering(t *testing.T) {
	sources := helmValues{
		"ConfigMap/apps/base":     {"values.yaml": "replicas: 1\nimage: {tag: v1, pullPolicy: Always}\nlist: [a, b]\n"},
		"ConfigMap/apps/prod":     {"values.yaml": "replicas: 3\nimage: {tag: v2}\n", "custom.yaml": "env: prod\n", "host": "prod.example.com", "quoted": `"0123"`, "csv": "a,b"},
		"Secret/apps/credentials": {"values.yaml": "auth: {password: s3cret-pw}\n", "token": "tok-123"},
	}
	cases := []struct {
		name   string
		spec   string
		want   string // the values, as YAML
		reason string // the start of the reason it is not rendered
		hidden []string
	}{
		{name: "spec.values alone", spec: "  values: {replicas: 2}\n", want: "replicas: 2"},
		{name: "values from one ConfigMap, then spec.values on top",
			spec: "  valuesFrom: [{kind: ConfigMap, name: base}]\n  values: {image: {tag: v9}}\n",
			want: "replicas: 1\nimage: {tag: v9, pullPolicy: Always}\nlist: [a, b]"},
		{name: "the later source wins key by key, maps merged",
			spec: "  valuesFrom: [{kind: ConfigMap, name: base}, {kind: ConfigMap, name: prod}]\n",
			want: "replicas: 3\nimage: {tag: v2, pullPolicy: Always}\nlist: [a, b]"},
		{name: "a valuesKey other than values.yaml",
			spec: "  valuesFrom: [{kind: ConfigMap, name: prod, valuesKey: custom.yaml}]\n",
			want: "env: prod"},
		{name: "a targetPath sets one value with Helm's --set parser",
			spec: "  valuesFrom: [{kind: ConfigMap, name: base}, {kind: ConfigMap, name: prod, valuesKey: host, targetPath: ingress.host}]\n",
			want: "replicas: 1\nimage: {tag: v1, pullPolicy: Always}\nlist: [a, b]\ningress: {host: prod.example.com}"},
		{name: "a quoted value at a targetPath stays a string",
			spec: "  valuesFrom: [{kind: ConfigMap, name: prod, valuesKey: quoted, targetPath: code}]\n",
			want: "code: \"0123\""},
		{name: "a literal value at a targetPath keeps its commas",
			spec: "  valuesFrom: [{kind: ConfigMap, name: prod, valuesKey: csv, targetPath: list, literal: true}]\n",
			want: "list: a,b"},
		{name: "spec.values wins over a targetPath at the top",
			spec: "  valuesFrom: [{kind: ConfigMap, name: prod, valuesKey: host, targetPath: host}]\n  values: {host: from-spec}\n",
			want: "host: from-spec"},
		{name: "a targetPath under a map only spec.values has lands in it, as the library's shared maps make it",
			spec: "  valuesFrom: [{kind: ConfigMap, name: prod, valuesKey: host, targetPath: ingress.host}]\n  values: {ingress: {host: from-spec, tls: true}}\n",
			want: "ingress: {host: prod.example.com, tls: true}"},
		{name: "a Secret's values are layered and hidden",
			spec: "  valuesFrom: [{kind: Secret, name: credentials}, {kind: Secret, name: credentials, valuesKey: token, targetPath: auth.token}]\n",
			want: "auth: {password: s3cret-pw, token: tok-123}", hidden: []string{"s3cret-pw", "tok-123"}},
		{name: "an optional source that does not exist is skipped",
			spec: "  valuesFrom: [{kind: ConfigMap, name: missing, optional: true}, {kind: ConfigMap, name: base, valuesKey: nokey, optional: true}]\n  values: {a: 1}\n",
			want: "a: 1"},
		{name: "a source that does not exist and is not optional",
			spec: "  valuesFrom: [{kind: ConfigMap, name: missing}]\n", reason: "spec.valuesFrom ConfigMap apps/missing: not found"},
		{name: "a source only the cluster could have, and no cluster read",
			spec: "  valuesFrom: [{kind: Secret, name: in-cluster-only}]\n", reason: "spec.valuesFrom Secret apps/in-cluster-only: not in the repository, and no cluster was read for it here"},
		{name: "a key that does not exist and is not optional",
			spec: "  valuesFrom: [{kind: ConfigMap, name: base, valuesKey: nokey}]\n", reason: "spec.valuesFrom ConfigMap apps/base: no key nokey"},
		{name: "an encrypted Secret",
			spec: "  valuesFrom: [{kind: Secret, name: sops}]\n", reason: "spec.valuesFrom Secret apps/sops: sops is encrypted"},
		{name: "a kind helm-controller does not read",
			spec: "  valuesFrom: [{kind: Bucket, name: x}]\n", reason: "spec.valuesFrom Bucket apps/x: unsupported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := helmReleaseObject(t, gitChart+tc.spec)
			r, err := resolveHelmRelease(context.Background(), obj, helmInputs{Chart: source.Chart{Dir: "/repo/charts/podinfo"}, Values: sources})
			if err != nil {
				t.Fatal(err)
			}
			if tc.reason != "" {
				if !strings.HasPrefix(r.Reason, tc.reason) {
					t.Fatalf("reason %q, want one starting %q", r.Reason, tc.reason)
				}
				return
			}
			if r.Reason != "" {
				t.Fatalf("not rendered: %s", r.Reason)
			}
			assertValues(t, r.Release.Values, tc.want)
			for _, h := range tc.hidden {
				if !slices.Contains(r.Hidden.List(), h) {
					t.Errorf("hidden %q, want %q among them", r.Hidden.List(), h)
				}
			}
			if len(tc.hidden) == 0 && r.Hidden.Len() > 0 {
				t.Errorf("hidden %q from ConfigMaps", r.Hidden.List())
			}
		})
	}
}

func assertValues(t *testing.T, got map[string]any, want string) {
	t.Helper()
	var w map[string]any
	if err := yaml.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(w)
	if string(gj) != string(wj) {
		t.Errorf("values\n got %s\nwant %s", gj, wj)
	}
}

// TestFluxHelmChartValues: spec.chart.spec.valuesFiles, read from the
// repository's top and merged in order, replace the chart's values.yaml,
// as source-controller packages the chart.
func TestFluxHelmChartValues(t *testing.T) {
	files := map[string]string{
		"charts/podinfo/values.yaml": "replicas: 1\nimage: {tag: v1, pullPolicy: Always}\n",
		"envs/prod.yaml":             "image: {tag: v2}\n",
	}
	read := func(rel string) ([]byte, error) {
		if d, ok := files[rel]; ok {
			return []byte(d), nil
		}
		return nil, fs.ErrNotExist
	}
	cases := []struct {
		name, files string
		want        string // "" for none: the chart's own
		err         string
	}{
		{name: "none", files: ""},
		{name: "values.yaml alone is none", files: "[values.yaml]"},
		{name: "two files, the later on top", files: "[charts/podinfo/values.yaml, envs/prod.yaml]", want: "replicas: 1\nimage: {tag: v2, pullPolicy: Always}"},
		{name: "one file replaces the chart's defaults whole", files: "[envs/prod.yaml]", want: "image: {tag: v2}"},
		{name: "a missing file", files: "[envs/prod.yaml, envs/missing.yaml]", err: `no values file found at path "envs/missing.yaml"`},
		{name: "a missing file ignored", files: "[envs/prod.yaml, envs/missing.yaml]\n      ignoreMissingValuesFiles: true", want: "image: {tag: v2}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := gitChart
			if tc.files != "" {
				spec += "      valuesFiles: " + tc.files + "\n"
			}
			r, err := resolveHelmRelease(context.Background(), helmReleaseObject(t, spec), helmInputs{Chart: source.Chart{Dir: "/repo/charts/podinfo"}, ReadSource: read})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if r.Release.ChartValues != nil {
					t.Errorf("chart values %v, want the chart's own", r.Release.ChartValues)
				}
				return
			}
			assertValues(t, r.Release.ChartValues, tc.want)
		})
	}
}

// TestFluxHelmReleaseNameAndLabels: the release's name and namespace as
// helm-controller names them, and the labels its post-renderers add.
func TestFluxHelmReleaseNameAndLabels(t *testing.T) {
	long := strings.Repeat("a", 30)
	cases := []struct {
		name, spec, release, namespace string
	}{
		{"its own name", "", "podinfo", "apps"},
		{"the target namespace first", "  targetNamespace: web\n", "web-podinfo", "web"},
		{"releaseName as given", "  releaseName: front\n  targetNamespace: web\n  storageNamespace: helm\n", "front", "web"},
		// 30+1+30 = 61 characters: 40 of them, a hyphen and the first 12
		// hex digits of their SHA-256.
		{"a long name shortened", "  releaseName: " + long + "-" + long + "\n", long + "-" + long[:9] + "-9fc7f9602247", "apps"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := resolveHelmRelease(context.Background(), helmReleaseObject(t, gitChart+tc.spec), helmInputs{Chart: source.Chart{Dir: "/c"}})
			if err != nil {
				t.Fatal(err)
			}
			got := r.Release
			if got.Name != tc.release || got.Namespace != tc.namespace || got.Cluster != helm.ClusterLive {
				t.Errorf("release %q in %q (%v), want %q in %q", got.Name, got.Namespace, got.Cluster, tc.release, tc.namespace)
			}
			want := map[string]string{"helm.toolkit.fluxcd.io/name": "podinfo", "helm.toolkit.fluxcd.io/namespace": "apps"}
			if !reflect.DeepEqual(got.Labels, want) {
				t.Errorf("labels %v, want %v", got.Labels, want)
			}
		})
	}
	if got := shortenReleaseName(long + "-" + long); len(got) != 53 || !strings.HasPrefix(got, long+"-"+long[:9]+"-") {
		t.Errorf("shortened %q", got)
	}

	r, err := resolveHelmRelease(context.Background(), helmReleaseObject(t, gitChart+"  commonMetadata:\n    labels: {team: web, helm.toolkit.fluxcd.io/name: other}\n    annotations: {owner: web}\n"), helmInputs{Chart: source.Chart{Dir: "/c"}})
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Release.Labels; l["team"] != "web" || l["helm.toolkit.fluxcd.io/name"] != "podinfo" || r.Release.Annotations["owner"] != "web" {
		t.Errorf("common metadata: labels %v annotations %v; want team=web, the origin label winning, owner=web", l, r.Release.Annotations)
	}
}

// TestFluxHelmCRDPolicy: the release is predicted as an upgrade, so
// spec.upgrade.crds says what happens to crds/.
func TestFluxHelmCRDPolicy(t *testing.T) {
	for _, tc := range []struct {
		spec           string
		skip, upgraded bool
	}{
		{"", false, false},
		{"  upgrade: {crds: Create}\n", false, false},
		{"  upgrade: {crds: Skip}\n", true, false},
		{"  upgrade: {crds: CreateReplace}\n", false, true},
	} {
		r, err := resolveHelmRelease(context.Background(), helmReleaseObject(t, gitChart+tc.spec), helmInputs{Chart: source.Chart{Dir: "/c"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Release.SkipCRDs != tc.skip || r.Release.CRDsUpgraded != tc.upgraded {
			t.Errorf("%q: skip %v, upgraded %v; want %v, %v", tc.spec, r.Release.SkipCRDs, r.Release.CRDsUpgraded, tc.skip, tc.upgraded)
		}
	}
}

// TestFluxHelmNotRendered: what helm-controller would release elsewhere,
// or change as the check cannot, is not rendered, with the reason; what
// it would fetch is the chart locator's to say (locator_test.go).
func TestFluxHelmNotRendered(t *testing.T) {
	cases := map[string]string{
		gitChart + "  kubeConfig: {secretRef: {name: remote}}\n":                                     "spec.kubeConfig",
		gitChart + "  postRenderers: [{kustomize: {patchesStrategicMerge: [{kind: Deployment}]}}]\n": "spec.postRenderers[0].kustomize: patchesStrategicMerge",
	}
	for spec, want := range cases {
		r, err := resolveHelmRelease(context.Background(), helmReleaseObject(t, spec), helmInputs{Chart: source.Chart{Dir: "/c"}})
		if err != nil || !strings.HasPrefix(r.Reason, want) {
			t.Errorf("%s: reason %q (%v), want %q", spec, r.Reason, err, want)
		}
	}
}
