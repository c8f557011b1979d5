package render

import (
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"

	"context"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A replacement copying a whole annotations map into the pod template
// (testdata/render/replacements): the rendered objects are what kubectl
// kustomize prints, less kustomize's bookkeeping, which appears nowhere
// (a deploy of it would roll the pods whenever a file moves).
func TestRenderCarriesNoBookkeeping(t *testing.T) {
	inRepoRoot(t)
	for _, c := range []struct {
		dir string
		// kubectl: compare with kubectl kustomize's output, from which
		// the bookkeeping it leaks itself is removed first.
		kubectl bool
		source  string
	}{
		{"plain", true, "testdata/render/replacements/plain/deployment.yaml:1"},
		{"prefixed", true, "testdata/render/replacements/prefixed/deployment.yaml:1"},
		{"origins", false, "testdata/render/replacements/origins/deployment.yaml:1"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			dir := "testdata/render/replacements/" + c.dir
			objs, err := Render(context.Background(), []string{dir}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != 1 {
				t.Fatalf("%d objects, want 1", len(objs))
			}
			o := objs[0]
			if key := bookkeepingKey(o.Object.Object); key != "" {
				t.Errorf("output carries %s:\n%v", key, o.Object.Object)
			}
			ann, _, _ := unstructured.NestedMap(o.Object.Object, "spec", "template", "metadata", "annotations")
			if !reflect.DeepEqual(ann, map[string]any{"team": "shop"}) {
				t.Errorf("pod template annotations = %v, want the Deployment's own (team: shop)", ann)
			}
			if got := o.Source + ":" + strconv.Itoa(o.Line); got != c.source {
				t.Errorf("source %s, want %s", got, c.source)
			}
			if !c.kubectl {
				return
			}
			out, err := exec.Command(testcluster.Tool(t, "kubectl"), "kustomize", dir).Output()
			if err != nil {
				t.Fatalf("kubectl kustomize %s: %v", dir, err)
			}
			want, err := source.ParseManifests("kubectl", out)
			if err != nil || len(want) != 1 {
				t.Fatalf("kubectl printed %d objects: %v", len(want), err)
			}
			if leaked := bookkeepingKey(want[0].Obj); (leaked != "") != (c.dir == "prefixed") {
				t.Errorf("kubectl kustomize leaked %q; the fixture expects a leak only with a prefix", leaked)
			}
			kustomize.StripBookkeeping(want[0].Obj)
			if !reflect.DeepEqual(o.Object.Object, want[0].Obj) {
				t.Errorf("render differs from kubectl kustomize\ngot:  %v\nwant: %v", o.Object.Object, want[0].Obj)
			}
		})
	}
}

// bookkeepingKey finds a kustomize bookkeeping key anywhere in v.
func bookkeepingKey(v any) string {
	switch t := v.(type) {
	case map[string]any:
		for k, ch := range t {
			if strings.Contains(k, "config.kubernetes.io/") || strings.HasPrefix(k, "config.k8s.io/") {
				return k
			}
			if key := bookkeepingKey(ch); key != "" {
				return key
			}
		}
	case []any:
		for _, ch := range t {
			if key := bookkeepingKey(ch); key != "" {
				return key
			}
		}
	}
	return ""
}
