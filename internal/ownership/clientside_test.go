package ownership

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// A ConfigMap client-side `kubectl apply` made; the pull request drops
// its key old at the environment's first check (no snapshot).
func clientSideConfigMap(t *testing.T, upgraded bool) Input {
	t.Helper()
	live := fromYAML(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"shop"},"data":{"a":"1","old":"x"}}'
data: {a: "1", old: "x"}
`)
	csa := metav1.ManagedFieldsEntry{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v1", FieldsType: "FieldsV1",
		FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{".":{},"f:a":{},"f:old":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}`)}}
	live.SetManagedFields([]metav1.ManagedFieldsEntry{csa})
	desired := fromYAML(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {a: "1"}
`)
	mine := metav1.ManagedFieldsEntry{Manager: "deployer", Operation: "Apply", APIVersion: "v1", FieldsType: "FieldsV1",
		FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{"f:a":{}}}`)}}
	var predicted *unstructured.Unstructured
	if upgraded {
		// After the upgrade, the apply removes what only the deploy owned
		// and no longer sends.
		predicted = desired.DeepCopy()
		predicted.SetManagedFields([]metav1.ManagedFieldsEntry{mine})
	} else {
		predicted = live.DeepCopy()
		predicted.SetManagedFields([]metav1.ManagedFieldsEntry{csa, mine})
	}
	return Input{FieldManager: "deployer", Desired: desired, Live: live, Predicted: predicted,
		ClientSide: ClientSide{Managers: []string{"kubectl-client-side-apply"}, Upgraded: upgraded}}
}

func TestClientSideUpgradedFieldIsRemoved(t *testing.T) {
	res, err := Analyze(clientSideConfigMap(t, true))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Category{}
	for _, f := range res.Findings {
		if f.Category == model.Anomaly {
			t.Errorf("anomaly: %s", f.Message)
		}
		if f.Category == model.Reset {
			got[f.Path] = f.Category
		}
	}
	if got[".data.old"] != model.Reset {
		t.Errorf("the dropped key is not stated removed: %+v", res.Findings)
	}
	if len(res.Adopted) != 0 {
		t.Errorf("the upgraded manager is adopted as a previous tool: %+v", res.Adopted)
	}
}

func TestClientSideNotUpgradedFieldIsKept(t *testing.T) {
	res, err := Analyze(clientSideConfigMap(t, false))
	if err != nil {
		t.Fatal(err)
	}
	var kept []model.Finding
	for _, f := range res.Findings {
		if f.Category == model.Anomaly {
			t.Errorf("anomaly: %s", f.Message)
		}
		if f.Reason == delivery.ReasonClientSideKept {
			kept = append(kept, f)
		}
	}
	if len(kept) != 1 || kept[0].Path != ".data.old" || kept[0].Category != model.Retained {
		t.Fatalf("kept findings %+v, want one retained on .data.old", kept)
	}
	if len(kept[0].Managers) != 1 || kept[0].Managers[0].Manager != "kubectl-client-side-apply" {
		t.Errorf("the owner is not named: %+v", kept[0].Managers)
	}
	if want := "kept: owned by kubectl-client-side-apply (Update)"; len(kept[0].Message) < len(want) || kept[0].Message[:len(want)] != want {
		t.Errorf("message %q", kept[0].Message)
	}
}
