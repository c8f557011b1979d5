package targets

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestNoteSharedObjects: an object two targets of one cluster render is
// noted on both, naming the other target and its manager; the same object
// for another cluster, or of another group, is not.
func TestNoteSharedObjects(t *testing.T) {
	result := func(name, context, manager string, objs ...report.Object) Result {
		return Result{
			Selected: Selected{Target: Target{Target: config.Target{Name: name, Context: context, FieldManager: manager}}},
			Report:   &report.Report{Objects: objs},
		}
	}
	ns := report.Object{APIVersion: "v1", Kind: "Namespace", Name: "web"}
	dep := report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "web", Name: "frontend"}
	other := report.Object{APIVersion: "example.com/v1", Kind: "Deployment", Namespace: "web", Name: "frontend"}
	out := []Result{
		result("flux-system/apps", "prod", "kustomize-controller", ns, dep),
		result("web/frontend", "prod", "helm-controller", dep),
		result("frontend-staging", "staging", "argocd-controller", ns, dep),
		result("custom", "prod", "kustomize-controller", other),
		{Selected: Selected{Target: Target{Target: config.Target{Name: "not-checked", Context: "prod"}, Reason: "suspended"}}},
	}
	noteSharedObjects(out)
	notes := func(r, o int) string { return strings.Join(out[r].Report.Objects[o].Notes, "\n") }
	if n := notes(0, 1); !strings.Contains(n, "target web/frontend (field manager helm-controller)") || strings.Contains(n, "frontend-staging") {
		t.Errorf("apps' Deployment: %q, want web/frontend named and not the other cluster's target", n)
	}
	if n := notes(1, 0); !strings.Contains(n, "target flux-system/apps (field manager kustomize-controller)") {
		t.Errorf("web/frontend's Deployment: %q", n)
	}
	for _, c := range [][2]int{{0, 0}, {2, 0}, {2, 1}, {3, 0}} {
		if n := notes(c[0], c[1]); n != "" {
			t.Errorf("%s: %s: %q, want no note", out[c[0]].Name, out[c[0]].Report.Objects[c[1]].Kind, n)
		}
	}
}
