package changes

import (
	"encoding/json"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
)

// BenchmarkOfUnchangedDeployment is the common case of a check: a
// workload the deploy leaves as it is, live against the dry-run's answer.
func BenchmarkOfUnchangedDeployment(b *testing.B) {
	raw, err := os.ReadFile("../../testdata/managedfields/deploy-shared.live.json")
	if err != nil {
		b.Fatal(err)
	}
	var live, pred map[string]any
	if err := json.Unmarshal(raw, &live); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(raw, &pred); err != nil {
		b.Fatal(err)
	}
	pred["metadata"].(map[string]any)["resourceVersion"] = "999"
	id := model.ID{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"}
	in := Input{ID: id, Live: &unstructured.Unstructured{Object: live}, Predicted: &unstructured.Unstructured{Object: pred}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if r := Of(in); r.Change != model.ChangeNone {
			b.Fatalf("change %q: %+v", r.Change, r.Diff)
		}
	}
}
