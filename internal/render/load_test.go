package render

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Paths rendered together give what each gives alone, in any order. The
// apps are large enough for their builds to run side by side; one path is
// the base another path's overlay builds on (each build turns on origin
// annotations in its own kustomization only); one kustomization brings its
// own OpenAPI schema (kustomize keeps it for the whole process), which must
// neither leak into the build beside it nor be lost to it. Run it with
// -race too: go test -race ./internal/render -run TestRenderPathsTogether
func TestRenderPathsTogether(t *testing.T) {
	root := t.TempDir()
	writeBenchKustomizationIn(t, filepath.Join(root, "app1"), 150, "app1")
	writeBenchKustomizationIn(t, filepath.Join(root, "app2"), 150, "app2")
	for _, app := range []struct{ dir, header string }{
		{"custom", "openapi:\n  path: schema.json\n"},
		{"builtin", ""},
	} {
		writeFile(t, filepath.Join(root, app.dir, "kustomization.yaml"), app.header+"namespace: "+app.dir+`
resources: [widget.yaml]
patches:
  - patch: |-
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: w}
      spec:
        parts: [{name: b, size: 2}]
`)
		writeFile(t, filepath.Join(root, app.dir, "widget.yaml"), `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  parts: [{name: a, size: 1}]
`)
	}
	writeFile(t, filepath.Join(root, "custom", "schema.json"), widgetSchema)
	writeFile(t, filepath.Join(root, "plain", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\n")
	t.Chdir(root)

	paths := []string{"app1/overlay", "custom", "app1/base", "plain", "builtin", "app2/overlay"}
	alone := map[model.ID]model.Object{}
	for _, p := range paths {
		objs, err := Render(context.Background(), []string{p}, Options{})
		if err != nil {
			t.Fatalf("%s alone: %v", p, err)
		}
		for _, o := range objs {
			alone[o.ID] = o
		}
	}
	if got := parts(t, alone, "custom"); got != 2 {
		t.Errorf("with its own schema the patch merges parts by name: want 2 parts, got %d", got)
	}
	if got := parts(t, alone, "builtin"); got != 1 {
		t.Errorf("without a schema the patch replaces parts: want 1 part, got %d", got)
	}
	for _, order := range [][]string{paths, reversed(paths)} {
		objs, err := Render(context.Background(), order, Options{})
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if len(objs) != len(alone) {
			t.Fatalf("%v: %d objects, want %d", order, len(objs), len(alone))
		}
		for _, o := range objs {
			want, ok := alone[o.ID]
			if !ok {
				t.Fatalf("%v: %s not rendered alone", order, o.ID)
			}
			if o.Source != want.Source || o.Line != want.Line || !sameJSON(t, o.Object, want.Object) {
				t.Errorf("%v: %s differs from its path rendered alone:\n got %s:%d %v\nwant %s:%d %v",
					order, o.ID, o.Source, o.Line, o.Object.Object, want.Source, want.Line, want.Object.Object)
			}
		}
	}
}

const widgetSchema = `{
  "definitions": {
    "com.example.v1.Widget": {
      "type": "object",
      "x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "Widget", "version": "v1"}],
      "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object"},
        "spec": {
          "type": "object",
          "properties": {
            "parts": {
              "type": "array",
              "x-kubernetes-patch-merge-key": "name",
              "x-kubernetes-patch-strategy": "merge",
              "items": {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}}
            }
          }
        }
      }
    }
  }
}
`

func parts(t *testing.T, objs map[model.ID]model.Object, namespace string) int {
	t.Helper()
	o, ok := objs[model.ID{Group: "example.com", Kind: "Widget", Namespace: namespace, Name: "w"}]
	if !ok {
		t.Fatalf("no Widget w in %s", namespace)
	}
	p, _, _ := unstructured.NestedSlice(o.Object.Object, "spec", "parts")
	return len(p)
}

func sameJSON(t *testing.T, a, b *unstructured.Unstructured) bool {
	t.Helper()
	ja, err := json.Marshal(a.Object)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b.Object)
	if err != nil {
		t.Fatal(err)
	}
	return string(ja) == string(jb)
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}
