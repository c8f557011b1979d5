package check

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// TestRecreateRefused: the create's refusal names its fields and the
// server's words, leaves out the server's note about rules it did not
// check (a cause without a field), and is said only when the engine's
// create was refused.
func TestRecreateRefused(t *testing.T) {
	in := analysis{Redaction: redaction(nil)}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "w"}}}
	res := predict.Result{Object: model.Object{ID: model.ID{Kind: "ConfigMap", Name: "w"}, Object: obj}}
	if _, ok := in.recreateRefused(res); ok {
		t.Error("a finding without a refused create")
	}
	res.CreateErr = &predict.DryRunError{Reason: "Invalid", Message: `Widget "w" is invalid: …`, Causes: []metav1.StatusCause{
		{Field: "spec.size", Message: "Too long: may not be more than 3 bytes"},
		{Field: "<nil>", Message: "Invalid value: null: some validation rules were not checked because the object was invalid"},
	}}
	f, ok := in.recreateRefused(res)
	if !ok || f.Category != model.DryRunError || f.Reason != "Invalid" || f.Path != ".spec.size" || f.FieldPath == nil {
		t.Fatalf("finding %+v", f)
	}
	if !strings.Contains(f.Message, "spec.size: Too long: may not be more than 3 bytes.") || strings.Contains(f.Message, "not checked") {
		t.Errorf("message %q", f.Message)
	}
}
