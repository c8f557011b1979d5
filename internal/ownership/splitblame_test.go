package ownership

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestSplitBlame: a refusal is blamed on the split-owned items, each
// owner named once, sorted in the sentence; nothing without a split.
func TestSplitBlame(t *testing.T) {
	edit := model.Manager{Manager: "kubectl-edit", Operation: "Update"}
	hpa := model.Manager{Manager: "hpa", Operation: "Update"}
	findings := []model.Finding{
		{Category: model.Drift, Path: ".spec.replicas"},
		{Category: model.SplitOwnership, Path: `.spec.ports[port=80]`, Owners: []model.FieldOwners{{Manager: edit}, {Manager: hpa}}},
		{Category: model.SplitOwnership, Path: ".spec.x", Owners: []model.FieldOwners{{Manager: edit}}},
	}
	managers, blame := SplitBlame(findings)
	if len(managers) != 2 || managers[0] != edit || managers[1] != hpa {
		t.Errorf("managers %v", managers)
	}
	want := "; likely caused by split ownership of .spec.ports[port=80], .spec.x, owned by " + hpa.String() + ", " + edit.String() + " (see split-ownership)"
	if blame != want {
		t.Errorf("blame %q, want %q", blame, want)
	}
	if managers, blame := SplitBlame(findings[:1]); managers != nil || blame != "" {
		t.Errorf("without a split: %v %q", managers, blame)
	}
}
