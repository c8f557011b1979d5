package argocd

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// TestArgoHelmValuesLayering: a Helm source's values as the `helm
// template` command line of Argo CD's repo server gives them to Helm:
// valueFiles in order, then values or valuesObject, then parameters.
func TestArgoHelmValuesLayering(t *testing.T) {
	root := filepath.FromSlash("/repo")
	files := map[string]string{
		"/repo/charts/web/values-base.yaml": "replicas: 1\nimage: {tag: v1, pullPolicy: Always}\n",
		"/repo/charts/web/values-prod.yaml": "replicas: 3\nimage: {tag: v2}\n",
		"/repo/envs/prod/web.yaml":          "env: prod\n",
		"/repo/charts/web/motd.txt":         "hello, world\n",
	}
	read := func(abs string) ([]byte, error) {
		if d, ok := files[filepath.ToSlash(abs)]; ok {
			return []byte(d), nil
		}
		return nil, fs.ErrNotExist
	}
	cases := []struct {
		name, helm string
		sources    string // spec.sources beside the chart's, when the test needs them
		want       string
		release    string
		namespace  string
		reason     string
		err        string
	}{
		{name: "no helm: the Application's name and destination", want: "{}", release: "web", namespace: "web-prod"},
		{name: "valueFiles in order, relative to the chart", helm: "valueFiles: [values-base.yaml, values-prod.yaml]",
			want: "replicas: 3\nimage: {tag: v2, pullPolicy: Always}"},
		{name: "an absolute valueFile is from the repository's top", helm: "valueFiles: [/envs/prod/web.yaml]", want: "env: prod"},
		{name: "values on top of the files", helm: "valueFiles: [values-base.yaml]\nvalues: |\n  replicas: 5\n",
			want: "replicas: 5\nimage: {tag: v1, pullPolicy: Always}"},
		{name: "valuesObject wins over values", helm: "values: 'replicas: 5'\nvaluesObject: {replicas: 7}", want: "replicas: 7"},
		{name: "parameters on top of everything, forceString as a string",
			helm: "valuesObject: {replicas: 7, image: {tag: v1}}\nparameters: [{name: replicas, value: '9'}, {name: image.tag, value: '0123', forceString: true}]",
			want: "replicas: 9\nimage: {tag: \"0123\"}"},
		{name: "a parameter's commas are escaped, a list's are not",
			helm: "parameters: [{name: csv, value: 'a,b'}, {name: list, value: '{a,b}'}]", want: "csv: a,b\nlist: [a, b]"},
		{name: "the last parameter of a name wins", helm: "parameters: [{name: a, value: '1'}, {name: a, value: '2'}]", want: "a: 2"},
		{name: "a parameter takes the build environment", helm: "parameters: [{name: app, value: $ARGOCD_APP_NAME}]", want: "app: web"},
		{name: "fileParameters set a file's content", helm: "fileParameters: [{name: motd, path: motd.txt}]", want: "motd: \"hello, world\\n\""},
		{name: "releaseName and namespace", helm: "releaseName: front\nnamespace: edge", want: "{}", release: "front", namespace: "edge"},
		{name: "a missing valueFile fails, as helm template does", helm: "valueFiles: [missing.yaml]", err: "missing.yaml: no such file"},
		{name: "a missing valueFile ignored", helm: "valueFiles: [missing.yaml, values-base.yaml]\nignoreMissingValueFiles: true",
			want: "replicas: 1\nimage: {tag: v1, pullPolicy: Always}"},
		{name: "a valueFile outside the repository", helm: "valueFiles: [../../../etc/passwd]", err: "outside repository root"},
		{name: "a valueFile URL is not fetched", helm: "valueFiles: [https://example.com/values.yaml]", reason: "source.helm values file https://example.com/values.yaml: a URL"},
		{name: "a $ref valueFile from this repository's ref source", helm: "valueFiles: [$values/envs/prod/web.yaml]",
			sources: "- repoURL: https://github.com/example/gitops.git\n  ref: values\n", want: "env: prod"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "repoURL: https://github.com/example/gitops.git\npath: charts/web\n"
			if tc.helm != "" {
				src += "helm:\n  " + strings.ReplaceAll(tc.helm, "\n", "\n  ") + "\n"
			}
			doc := "metadata: {name: web, namespace: argocd}\nspec:\n  destination: {namespace: web-prod}\n"
			if tc.sources != "" {
				doc += "  sources:\n  - " + strings.ReplaceAll(strings.TrimSuffix(src, "\n"), "\n", "\n    ") + "\n  " + strings.ReplaceAll(strings.TrimSuffix(tc.sources, "\n"), "\n", "\n  ") + "\n"
			} else {
				doc += "  source:\n    " + strings.ReplaceAll(strings.TrimSuffix(src, "\n"), "\n", "\n    ") + "\n"
			}
			j, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var app Application
			if err := json.Unmarshal(j, &app); err != nil {
				t.Fatal(err)
			}
			appSource := app.Sources()[0]
			in := helmInputs{Chart: source.Chart{Dir: filepath.Join(root, "charts", "web")}, Root: root, Read: read, Env: app.Env(appSource)}
			r, reason, err := resolveHelm(&app, appSource, in)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			case tc.reason != "":
				if !strings.HasPrefix(reason, tc.reason) {
					t.Fatalf("reason %q, want %q", reason, tc.reason)
				}
				return
			case reason != "":
				t.Fatalf("not rendered: %s", reason)
			}
			assertValues(t, r.Values, tc.want)
			release, namespace := source.Or(tc.release, "web"), source.Or(tc.namespace, "web-prod")
			if r.Name != release || r.Namespace != namespace || r.Cluster != helm.ClusterArgoCD || r.Chart != in.Chart {
				t.Errorf("release %q in %q (%v, %v), want %q in %q", r.Name, r.Namespace, r.Cluster, r.Chart, release, namespace)
			}
		})
	}
}

// assertValues: got holds the values want writes as YAML (compared as JSON).
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
