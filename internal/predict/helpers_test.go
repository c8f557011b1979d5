package predict

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/render"
)

// obj parses one YAML document into a rendered object.
func obj(t testing.TB, doc string) render.Object {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
		t.Fatalf("bad test YAML: %v\n%s", err, doc)
	}
	return render.Object{ID: render.IDOf(u), Object: u}
}
