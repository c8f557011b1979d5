package changes

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestRecreateRefused: the create's refusal names its fields and the
// server's words, and leaves out the server's note about rules it did not
// check (a cause without a field).
func TestRecreateRefused(t *testing.T) {
	f := RecreateRefused("Invalid", `Widget "w" is invalid: …`, []metav1.StatusCause{
		{Field: "spec.size", Message: "Too long: may not be more than 3 bytes"},
		{Field: "<nil>", Message: "Invalid value: null: some validation rules were not checked because the object was invalid"},
	})
	if f.Category != model.DryRunError || f.Reason != "Invalid" || f.Path != ".spec.size" || f.FieldPath == nil {
		t.Fatalf("finding %+v", f)
	}
	if !strings.Contains(f.Message, "spec.size: Too long: may not be more than 3 bytes.") || strings.Contains(f.Message, "not checked") {
		t.Errorf("message %q", f.Message)
	}
	if f := RecreateRefused("Invalid", "the whole object is invalid", nil); f.Path != "" || !strings.Contains(f.Message, "refuses that create: the whole object is invalid. The cluster keeps a field") {
		t.Errorf("without causes: %+v", f)
	}
}
