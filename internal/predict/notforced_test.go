package predict

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func TestConflictsOf(t *testing.T) {
	causes := []metav1.StatusCause{
		{Type: metav1.CauseTypeFieldManagerConflict, Field: ".data.mode", Message: `conflict with "kubectl-edit" using v1`},
		{Type: metav1.CauseTypeFieldManagerConflict, Field: ".spec.replicas", Message: `conflict with "kubectl" with subresource "scale" using apps/v1 at 2026-01-02T03:04:05Z`},
		{Type: metav1.CauseTypeFieldManagerConflict, Field: ".data.a", Message: `conflict with "other \"one\""`},
		{Type: metav1.CauseTypeFieldValueInvalid, Field: ".data.b", Message: "invalid"},
	}
	want := []Conflict{
		{Path: ".data.mode", Manager: "kubectl-edit", Operation: "Update"},
		{Path: ".spec.replicas", Manager: "kubectl", Operation: "Update", Subresource: "scale"},
		{Path: ".data.a", Manager: `other "one"`, Operation: "Apply"},
	}
	if got := conflictsOf(causes); !slices.Equal(got, want) {
		t.Errorf("conflictsOf =\n%+v\nwant\n%+v", got, want)
	}
}

func modeConfigMap(t *testing.T, ns, mode string) model.Object {
	return obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: settings, namespace: `+ns+`}, data: {mode: `+mode+`, size: "1"}}`)
}

// unforcedConflict checks the answer to an unforced apply of a field
// kubectl-edit owns: the deploy fails, with the field and its manager.
func unforcedConflict(t *testing.T, r Result) {
	t.Helper()
	if r.Err == nil || r.Predicted != nil || r.Live == nil {
		t.Fatalf("err %v, predicted %v, live %v; want the deploy refused, live beside it", r.Err, r.Predicted != nil, r.Live != nil)
	}
	want := []Conflict{{Path: ".data.mode", Manager: "kubectl-edit", Operation: "Update"}}
	if r.Err.Reason != string(metav1.StatusReasonConflict) || !slices.Equal(r.Err.Conflicts, want) {
		t.Errorf("reason %s, conflicts %+v; want Conflict with %+v", r.Err.Reason, r.Err.Conflicts, want)
	}
}

// Helm 4's install and upgrade of a server-side release: no force, so a
// drifted field the chart sends fails the deploy, as the real apply
// does.
func TestNotForcedConflictFails(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "helm", Apply: delivery.ApplyMethod{Method: delivery.ApplyServerSide}}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	apply(t, kc, "helm", modeConfigMap(t, ns, "a"))
	desired := modeConfigMap(t, ns, "b")
	edit(t, kc, desired, func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "edited", "data", "mode")
	})

	r := predict(t, e, desired)[0]
	unforcedConflict(t, r)
	unforcedConflict(t, offlineOn(t, e.opts, r.Live, desired))

	ri, _ := kc.Resource(desired.Object.GroupVersionKind(), ns)
	_, err := ri.Apply(context.Background(), "settings", desired.Object, metav1.ApplyOptions{FieldManager: "helm"})
	var st apierrors.APIStatus
	if !errors.As(err, &st) || !slices.Equal(conflictsOf(st.Status().Details.Causes), r.Err.Conflicts) {
		t.Errorf("the real apply: %v; want the predicted conflicts", err)
	}

	// Without the drift nothing conflicts: the answer is the apply's.
	fresh := modeConfigMap(t, ns, "b")
	fresh.Object.SetName("other")
	fresh.ID = model.IDOf(fresh.Object)
	if r := predict(t, e, fresh)[0]; r.Err != nil || !owns(t, r.Predicted, "helm", "Apply", ".data.mode") {
		t.Errorf("no conflict: err %v", r.Err)
	}
}

// Helm 4's --server-side=true upgrade of a release Helm 3 made: the
// client-side managers are upgraded first, so their fields do not
// conflict; another manager's still does.
func TestNotForcedAfterTheClientSideUpgrade(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "helm", Apply: delivery.ApplyMethod{Method: delivery.ApplyServerSide}, UpgradesClientSide: true}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	desired := modeConfigMap(t, ns, "b")

	create(t, kc, "helm", modeConfigMap(t, ns, "a"))
	r := predict(t, e, desired)[0]
	if r.Err != nil || r.Predicted == nil {
		t.Fatalf("helm's own Update entry is upgraded, not a conflict: %v", r.Err)
	}
	if !owns(t, r.Predicted, "helm", "Apply", ".data.mode") || owns(t, r.Predicted, "helm", "Update", ".data.mode") {
		t.Errorf("managedFields %v", r.Predicted.GetManagedFields())
	}
	off := offlineOn(t, e.opts, r.Live, desired)
	if off.Err != nil {
		t.Fatal(off.Err)
	}
	sameWrite(t, "offline and cluster", off.Predicted, r.Predicted)
	sameWrite(t, "dry-run and the real upgrade and apply", r.Predicted, upgradeThenApply(t, kc, desired))

	// The real upgrade above made helm's entry an Apply: another object
	// as Helm 3 left it, with kubectl-edit's field beside it.
	other := modeConfigMap(t, ns, "a")
	other.Object.SetName("edited")
	other.ID = model.IDOf(other.Object)
	create(t, kc, "helm", other)
	edit(t, kc, other, func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "edited", "data", "mode")
	})
	want := modeConfigMap(t, ns, "b")
	want.Object.SetName("edited")
	want.ID = other.ID
	r = predict(t, e, want)[0]
	unforcedConflict(t, r)
	unforcedConflict(t, offlineOn(t, e.opts, r.Live, want))
}

// upgradeThenApply is what the deployer does for real: csaupgrade of
// live's managedFields, written, then an unforced apply.
func upgradeThenApply(t *testing.T, kc *kube.Client, desired model.Object) *unstructured.Unstructured {
	t.Helper()
	live, err := get(t, kc, desired)
	if err != nil {
		t.Fatal(err)
	}
	if err := csaupgrade.UpgradeManagedFields(live, sets.New(delivery.ClientSideManagers(live.GetManagedFields(), "helm")...), "helm"); err != nil {
		t.Fatal(err)
	}
	ri, _ := kc.Resource(desired.Object.GroupVersionKind(), desired.Object.GetNamespace())
	if _, err := ri.Update(context.Background(), live, metav1.UpdateOptions{FieldManager: "helm"}); err != nil {
		t.Fatal(err)
	}
	out, err := ri.Apply(context.Background(), desired.Object.GetName(), desired.Object, metav1.ApplyOptions{FieldManager: "helm"})
	if err != nil {
		t.Fatalf("the real unforced apply: %v", err)
	}
	return out
}
