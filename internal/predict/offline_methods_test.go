package predict

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The offline engine under each method, without a cluster; its agreement
// with the API server is in the tests of each method (clientside_test.go,
// notforced_test.go, replace_test.go).

const image = `.spec.template.spec.containers[name="app"].image`

func TestOfflineClientSide(t *testing.T) {
	live := clientSideLive(t)
	applied, _ := json.Marshal(obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      containers:
      - name: app
        image: web:1
        env:
        - {name: KEEP, value: "1"}
        - {name: OLD, value: "1"}
`).Object.Object)
	live.SetAnnotations(map[string]string{model.LastAppliedAnnotation: string(applied)})
	desired := obj(t, pullRequest)
	e := offlineEngine(t, model.Object{ID: desired.ID, Object: live})
	e.opts.FieldManager = "kubectl-client-side-apply"
	e.opts.Apply = delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}

	r := predictOne(t, e, desired)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := len(envOf(r.Predicted)); n != 1 {
		t.Errorf("%d env vars; OLD, applied before and not sent, is removed", n)
	}
	if !owns(t, r.Predicted, "kubectl-client-side-apply", "Update", image) || owns(t, r.Predicted, "kubectl-edit", "Update", image) {
		t.Errorf("the edited image is not taken back:\n%s", managersOf(t, r.Predicted))
	}
}

func TestOfflineNotForcedConflicts(t *testing.T) {
	desired := obj(t, pullRequest)
	e := offlineEngine(t, model.Object{ID: desired.ID, Object: clientSideLive(t)})
	e.opts.Apply = delivery.ApplyMethod{Method: delivery.ApplyServerSide}

	r := predictOne(t, e, desired)
	if r.Err == nil || r.Err.Reason != string(metav1.StatusReasonConflict) || r.Predicted != nil {
		t.Fatalf("err %v; want the deploy refused", r.Err)
	}
	if want := (Conflict{Path: image, Manager: "kubectl-edit", Operation: "Update"}); !slices.Contains(r.Err.Conflicts, want) {
		t.Errorf("conflicts %+v; want %+v among them", r.Err.Conflicts, want)
	}
}

func TestOfflineReplace(t *testing.T) {
	desired := obj(t, pullRequest)
	e := offlineEngine(t, model.Object{ID: desired.ID, Object: clientSideLive(t)})
	e.opts.Apply = delivery.ApplyMethod{Method: delivery.ApplyReplace}

	r := predictOne(t, e, desired)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if _, ok := r.Predicted.GetAnnotations()[model.LastAppliedAnnotation]; ok || len(envOf(r.Predicted)) != 1 {
		t.Errorf("what the render lacks is not gone: %v", r.Predicted.Object)
	}
	if !owns(t, r.Predicted, "deployer", "Update", image) {
		t.Errorf("managedFields:\n%s", managersOf(t, r.Predicted))
	}
}
