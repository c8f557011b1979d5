package judge

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/remedy"
)

// A deploy without force refused on conflicts is its own failure: one
// dry-run-error naming each field and manager in the deployer's words,
// judged on those fields alone, with the remedy for all of them.
func TestConflictRefusal(t *testing.T) {
	web := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop"}}}
	res := predict.Result{Object: model.Object{ID: model.IDOf(web), Object: web}, Live: web,
		Err: &predict.DryRunError{Op: predict.OpDryRun, Reason: "Conflict", Code: 409, Conflicts: []predict.Conflict{
			{Path: ".spec.replicas", Manager: "kubectl-scale"}, {Path: ".spec.paused", Manager: "kubectl-edit"}, {Path: ".spec.minReadySeconds", Manager: "kubectl-edit"}}}}
	in := Input{Check: Check{FieldManager: "helm"}}
	f, ok := in.conflictRefusal(res)
	if !ok {
		t.Fatal("not read as a conflict refusal")
	}
	if want := "the upgrade fails: Helm 4 does not force conflicts: .spec.replicas (kubectl-scale), .spec.paused (kubectl-edit), .spec.minReadySeconds (kubectl-edit)"; f.Message != want {
		t.Errorf("message\n got %q\nwant %q", f.Message, want)
	}
	if f.Reason != model.ReasonConflicts || len(f.Owners) != 2 || len(f.Owners[1].Paths) != 2 {
		t.Errorf("owners %+v", f.Owners)
	}
	told := withoutConflicting([]model.Finding{
		{Category: model.Drift, Path: ".spec.replicas"}, {Category: model.TakingConflict, Path: ".spec.paused"},
		{Category: model.Drift, Path: ".spec.template.spec.containers"}, {Category: model.Release, Path: ".spec.minReadySeconds"},
	}, f)
	if len(told) != 2 || told[0].Path != ".spec.template.spec.containers" || told[1].Category != model.Release {
		t.Errorf("findings beside the refusal: %+v, want the drift of another field and the release", told)
	}
	if unchecked(f) {
		t.Error("a conflict refusal reads as not checked")
	}
	res.Live = nil
	if f, _ := in.conflictRefusal(res); !strings.HasPrefix(f.Message, "the install fails: Helm 4 does not force conflicts") {
		t.Errorf("install: %q", f.Message)
	}
	if f, _ := (Input{Check: Check{FieldManager: "deployer"}}).conflictRefusal(res); !strings.HasPrefix(f.Message, "the apply fails: a Server-Side Apply without --force-conflicts stops at a conflict: ") {
		t.Errorf("pipeline: %q", f.Message)
	}
	if _, ok := in.conflictRefusal(predict.Result{Err: &predict.DryRunError{Reason: "Invalid"}}); ok {
		t.Error("an Invalid refusal read as conflicts")
	}

	rem := remedy.For(res.Object.ID, "", f, remedy.Context{FieldManager: "helm"})
	for _, want := range []string{"run the upgrade with --force-conflicts", "remove it from the chart's templates or values, so that kubectl-scale and kubectl-edit keep them", "A scale by hand (kubectl-scale)", "An edit by hand (kubectl-edit)"} {
		if !strings.Contains(rem, want) {
			t.Errorf("remedy lacks %q:\n%s", want, rem)
		}
	}

	hpa := model.Finding{Category: model.DryRunError, Reason: model.ReasonConflicts,
		Owners: []model.FieldOwners{{Manager: model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}, Paths: []string{".spec.replicas"}}}}
	if rem := remedy.For(res.Object.ID, "", hpa, remedy.Context{FieldManager: "helm"}); !strings.Contains(rem, "An autoscaler (kube-controller-manager (Update, scale))") {
		t.Errorf("an autoscaler's conflict is advised as a scale by hand:\n%s", rem)
	}

	obj := func(replicas int64, image string) map[string]any {
		return map[string]any{"spec": map[string]any{"replicas": replicas, "template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "image": image}}}}}}
	}
	applied := obj(3, "web:1")
	on := model.Finding{Category: model.DryRunError, Reason: model.ReasonConflicts,
		Owners: []model.FieldOwners{{Manager: model.Manager{Manager: "kubectl-scale"}, Paths: []string{".spec.replicas"}}}}
	for _, tc := range []struct {
		name       string
		head, base map[string]any
		want       model.Cause
	}{
		{"the pull request changes another field", obj(3, "web:2"), obj(3, "web:1"), model.CauseCluster},
		{"the pull request changes the field", obj(4, "web:1"), obj(3, "web:1"), model.CausePullRequest},
		{"the object is the pull request's", obj(3, "web:1"), nil, model.CausePullRequest},
	} {
		s := states{head: tc.head, base: tc.base, baseKnown: true, applied: &applied}
		if got := s.causeOf(on); got != tc.want {
			t.Errorf("%s: cause %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A refusal's owners are the managers as the server named them, operation
// and subresource with the name: helm's own Update (helm/helm#31516) is
// told from an operator, and its remedy merges it.
func TestConflictRefusalOwnUpdate(t *testing.T) {
	cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "shop"}}}
	res := predict.Result{Object: model.Object{ID: model.IDOf(cm), Object: cm}, Live: cm,
		Err: &predict.DryRunError{Op: predict.OpDryRun, Reason: "Conflict", Code: 409, Conflicts: []predict.Conflict{
			{Path: ".data.mode", Manager: "helm", Operation: "Update"}, {Path: ".data.level", Manager: "helm", Operation: "Apply"}}}}
	f, ok := (Input{Check: Check{FieldManager: "helm"}}).conflictRefusal(res)
	if !ok || len(f.Owners) != 2 {
		t.Fatalf("owners %+v, want helm (Update) and helm (Apply) apart", f.Owners)
	}
	if m := f.Owners[0].Manager; m.Manager != "helm" || m.Operation != "Update" {
		t.Errorf("first owner %+v, want helm (Update)", m)
	}
}
