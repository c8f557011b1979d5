package helm

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

var _ Engine = Helm4{}

// linesChart has what Helm's lines render differently: a template's last
// document with trailing whitespace (a block scalar that keeps it) and
// nulls among the chart's own values.
const linesChart = "../testdata/helm/lines/trailing-nulls"

// renderLine renders linesChart with e as `helm template` does, each
// ConfigMap's data by its name.
func renderLine(t *testing.T, e Engine) map[string]map[string]any {
	t.Helper()
	in := chartInput(t, nil, nil, linesChart)
	in.Helm = e
	out, err := RenderChart(context.Background(), in, Release{
		Chart: source.Chart{Dir: realPath(t, linesChart)}, Name: "x", Namespace: "default",
		Cluster: ClusterNone, Source: "kustomization.yaml", Template: &Template{},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, o := range out.Objects {
		got[o.Object.GetName()], _ = o.Object.Object["data"].(map[string]any)
	}
	return got
}

// TestHelm4Lines: each Helm 4 line renders the chart as its release does
// (docs/helm.md "What differs"), as measured with each release's install
// action (client-only, with and without a post-renderer): 4.1 as Helm 3,
// 4.2 keeping only a template's last document's trailing whitespace and
// dropping the chart's nulls, and post-rendered losing the line break
// that ends a document before another; 4.2.4 and the newest keeping every
// document's.
func TestHelm4Lines(t *testing.T) {
	helm3 := renderLine(t, Helm3{})
	for _, tc := range []struct {
		line                 string
		postRenders          bool
		first                string
		middle, last, nested string
		hasTop               string
	}{
		{Helm41, false, "a=1\n", "a=1\n", "a=1\n", `{"keep":null,"x":1}`, "true"},
		{Helm41, true, "a=1\n", "a=1\n", "a=1\n", `{"keep":null,"x":1}`, "true"},
		{Helm42, false, "a=1\n", "a=1\n", "a=1\n\n\n\n", `{"x":1}`, "false"},
		{Helm42, true, "a=1", "a=1", "a=1\n\n\n\n", `{"x":1}`, "false"},
		{Helm424, true, "a=1\n", "a=1\n\n\n", "a=1\n\n\n\n", `{"x":1}`, "false"},
		{"", false, "a=1\n", "a=1\n\n\n", "a=1\n\n\n\n", `{"x":1}`, "false"},
		{"", true, "a=1\n", "a=1\n\n\n", "a=1\n\n\n\n", `{"x":1}`, "false"},
	} {
		name := tc.line
		if tc.postRenders {
			name += " post-rendered"
		}
		t.Run(name, func(t *testing.T) {
			e := Helm4{Line: tc.line, PostRenders: tc.postRenders}
			got := renderLine(t, e)
			if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, []string{"clip", "keep-first", "keep-last", "nulls"}) {
				t.Fatalf("rendered %v", names)
			}
			if g := got["keep-first"]["conf"]; g != tc.first {
				t.Errorf("a template's first document: %q, want %q", g, tc.first)
			}
			// A document before another, with blank lines, sorted.
			_, ms, err := e.Sort(map[string]string{"t/cm.yaml": middle})
			if err != nil || len(ms) != 2 || ms[1].Name != "t/cm.yaml" {
				t.Fatalf("sorted %v %v", ms, err)
			}
			if g := parsed(t, ms[1].Content+"\n"); g != tc.middle {
				t.Errorf("a document before another: %q, want %q", g, tc.middle)
			}
			if g := got["keep-last"]["conf"]; g != tc.last {
				t.Errorf("a template's last document: %q, want %q", g, tc.last)
			}
			if g := got["clip"]["conf"]; g != "a=1\n" {
				t.Errorf("a clipped block scalar: %q", g)
			}
			if g := got["nulls"]["nested"]; g != tc.nested {
				t.Errorf("a chart's nested null: %v, want %v", g, tc.nested)
			}
			if g := got["nulls"]["hasTop"]; g != tc.hasTop {
				t.Errorf("hasKey of a chart's null: %v, want %v", g, tc.hasTop)
			}
			if tc.line == Helm41 && !maps.EqualFunc(got, helm3, func(a, b map[string]any) bool { return maps.Equal(a, b) }) {
				t.Errorf("4.1 renders %v, Helm 3 %v", got, helm3)
			}
		})
	}
}

// middle is a template of two documents, the first ending in blank lines.
const middle = "kind: ConfigMap\ndata:\n  conf: |+\n    a=1\n\n---\nkind: Secret\n"

// TestHelm4LineSplits: the lines' splits find the SDK's documents, and
// differ from them only in the whitespace around each.
func TestHelm4LineSplits(t *testing.T) {
	file := "\n\n---\na: |+\n  x\n\n---   \n\nb: 1   \n---\n---\nc: |\n  y\n \n"
	for _, tc := range []struct {
		name  string
		split func(string) []string
		want  []string
	}{
		// A separator takes the line break before the next one with it,
		// which is then no separator: the document starts with it.
		{"4.1", splitTrimmed, []string{"a: |+\n  x", "b: 1", "---\nc: |\n  y"}},
		{"4.2", splitKeepingLast, []string{"a: |+\n  x", "b: 1", "---\nc: |\n  y\n \n"}},
	} {
		if got := tc.split(file); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	sdk := func(string) []string { return []string{"a: |+\n  x\n\n", "b: 1   \n", "c: |\n  y\n \n"} }
	doc := lineDocuments(map[string]string{"t.yaml": file, "u.yaml": "d: 1\n\n"}, splitTrimmed, sdk)
	if got := doc("t.yaml", "b: 1   \n"); got != "b: 1" {
		t.Errorf("mapped %q", got)
	}
	// A file whose documents the line counts otherwise is left as the
	// SDK splits it.
	if got := doc("u.yaml", "d: 1\n\n"); got != "d: 1\n\n" {
		t.Errorf("unmapped %q", got)
	}
}

// parsed is data.conf of a document.
func parsed(t *testing.T, doc string) string {
	t.Helper()
	objs, err := source.ParseManifests("t/cm.yaml", []byte(doc))
	if err != nil || len(objs) != 1 {
		t.Fatalf("%q: %v", doc, err)
	}
	conf, _, _ := unstructured.NestedString(objs[0].Obj, "data", "conf")
	return conf
}

// TestPostRenderChanges: a document post-rendering leaves as it is is not
// parsed again; one it may change is.
func TestPostRenderChanges(t *testing.T) {
	newest, helm42 := lineOf(""), lineOf(Helm42)
	for _, tc := range []struct {
		line helm4Line
		docs []string
		want bool
	}{
		{newest, []string{"kind: A\nmetadata:\n  name: a\n"}, false},
		{newest, []string{"kind: A\nmetadata:\n  annotations:\n    a: b\n"}, false},
		{newest, []string{"kind: A\nmetadata:\n  annotations:\n  # none\n\n  name: a\n"}, true},
		{newest, []string{"kind: A\nmetadata:\n  annotations: {}\n"}, true},
		{newest, []string{"kind: A\nmetadata:\n  annotations: null\n"}, true},
		{newest, []string{"kind: A\nmetadata:\n  annotations:"}, true},
		{newest, []string{"kind: A\nmetadata:\n  annotations:\n    {}\n"}, true},
		{newest, []string{"kind: A\nmetadata:\n  annotations:\n    null\n"}, true},
		{newest, []string{"data:\n  a: |\n    x\n", "kind: B\n"}, false},
		{newest, []string{"data:\n  a: |+\n    x\n"}, true},
		{newest, []string{"data:\n  a: >2+ # kept\n    x\n"}, true},
		{helm42, []string{"data:\n  a: |\n    x", "kind: B\n"}, true},
		{helm42, []string{"kind: B", "data:\n  a: |\n    x\n"}, false},
	} {
		if got := postRenderChanges(tc.line, tc.docs); got != tc.want {
			t.Errorf("%s %q: %v, want %v", tc.line.version, tc.docs, got, tc.want)
		}
	}
}

// TestTemplatePrintsTrimmed: what `helm template` prints ends trimmed, so
// the last manifest loses the trailing blank lines Helm 4 keeps in it: a
// deployer that reads the printed output (Argo CD, kustomize's
// helmCharts) sees them trimmed, an install keeps them.
func TestTemplatePrintsTrimmed(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Chart.yaml"), "apiVersion: v2\nname: last\nversion: 0.1.0\n")
	writeFile(t, filepath.Join(dir, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: last\ndata:\n  conf: |+\n    a=1\n\n\n")
	t.Chdir(dir)
	for _, tc := range []struct {
		name     string
		cluster  Cluster
		template *Template
		want     string
	}{
		{"install", ClusterLive, nil, "a=1\n\n\n\n"},
		{"argo cd", ClusterArgoCD, nil, "a=1\n"},
		{"helm template", ClusterNone, &Template{}, "a=1\n"},
	} {
		in := chartInput(t, nil, nil, ".")
		in.Helm = Helm4{}
		out, err := RenderChart(context.Background(), in, Release{
			Chart: source.Chart{Dir: realPath(t, ".")}, Name: "x", Namespace: "default",
			Cluster: tc.cluster, Source: "kustomization.yaml", Template: tc.template,
		})
		if err != nil || len(out.Objects) != 1 {
			t.Fatalf("%s: %v %v", tc.name, out.Objects, err)
		}
		if got, _, _ := unstructured.NestedString(out.Objects[0].Object.Object, "data", "conf"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
