package deployers_test

import (
	"bytes"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/cli"
	helmkube "helm.sh/helm/v3/pkg/kube"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

const release = "web"

func chartDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "chart"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// helm3Install installs the chart as Helm 3 does, through its SDK: a
// client-side create of every object, Update entries by "helm" (the CLI's
// manager: its argv[0]).
func (e *env) helm3Install(values map[string]any) {
	e.t.Helper()
	e.helm3InstallAs("helm", chartDir(e.t), values)
}

// helm3InstallAs is helm3Install of a chart under manager (helm-controller
// before Flux 2.8 applies with Helm 3 under its own name).
func (e *env) helm3InstallAs(manager, dir string, values map[string]any) {
	e.t.Helper()
	helmkube.ManagedFieldsManager = manager
	settings := cli.New()
	settings.KubeConfig = e.kubeconfig
	settings.SetNamespace(e.ns)
	cfg := new(action.Configuration)
	if err := cfg.Init(settings.RESTClientGetter(), e.ns, "secret", func(string, ...any) {}); err != nil {
		e.t.Fatal(err)
	}
	chart, err := loader.Load(dir)
	if err != nil {
		e.t.Fatal(err)
	}
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace = release, e.ns
	if _, err := in.Run(chart, values); err != nil {
		e.t.Fatalf("helm 3 install: %v", err)
	}
}

// helm4 runs Helm 4's own binary: bin is "helm", or "helm-controller" to
// apply under helm-controller's manager (Helm names it after argv[0]).
func (e *env) helm4(bin string, args ...string) (string, error) {
	e.t.Helper()
	path := testcluster.Tool(e.t, "helm4/"+bin)
	return e.exec(path, append(args, "--namespace", e.ns)...)
}

// helmRender is what Helm sends for the chart with these values: its
// template, and the label and annotations it adds to every object of a
// release (pkg/action's setMetadataVisitor), written to a file for the
// check to render.
func (e *env) helmRender(name string, set ...string) string {
	e.t.Helper()
	args := []string{"template", release, chartDir(e.t)}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	out, err := e.helm4("helm", args...)
	if err != nil {
		e.t.Fatalf("helm template: %v\n%s", err, out)
	}
	var docs []string
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(out), 4096)
	for {
		var o map[string]any
		if err := dec.Decode(&o); err == io.EOF {
			break
		} else if err != nil {
			e.t.Fatal(err)
		}
		if len(o) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: o}
		labels := u.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels["app.kubernetes.io/managed-by"] = "Helm"
		u.SetLabels(labels)
		annotations := u.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations["meta.helm.sh/release-name"] = release
		annotations["meta.helm.sh/release-namespace"] = e.ns
		u.SetAnnotations(annotations)
		b, err := yaml.Marshal(u.Object)
		if err != nil {
			e.t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	sort.Strings(docs)
	var buf bytes.Buffer
	for _, d := range docs {
		buf.WriteString("---\n" + d)
	}
	return e.file(name, buf.String())
}
