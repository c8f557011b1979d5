package delivery

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestClientSideManagers(t *testing.T) {
	lastApplied := &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:data":{"f:a":{}}}`)}
	plain := &metav1.FieldsV1{Raw: []byte(`{"f:data":{"f:b":{}}}`)}
	entries := []metav1.ManagedFieldsEntry{
		{Manager: "kubectl-client-side-apply", Operation: "Update", FieldsV1: lastApplied},
		{Manager: "helm", Operation: "Update", FieldsV1: plain},
		{Manager: "helm", Operation: "Apply", FieldsV1: plain},
		{Manager: "kubectl-edit", Operation: "Update", FieldsV1: plain},
		{Manager: "kubectl-scale", Operation: "Update", Subresource: "scale", FieldsV1: plain},
		{Manager: "helm", Operation: "Update", Subresource: "status", FieldsV1: plain},
		{Manager: "old-kubectl", Operation: "Update", FieldsV1: lastApplied},
		{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v2", FieldsV1: lastApplied},
	}
	got := ClientSideManagers(entries, "helm")
	want := []string{"kubectl-client-side-apply", "helm", "old-kubectl"}
	if !slices.Equal(got, want) {
		t.Errorf("ClientSideManagers = %q, want %q", got, want)
	}
	if got := ClientSideManagers(entries[3:6], "helm"); got != nil {
		t.Errorf("hand edits, subresources and status are not client-side deploys: %q", got)
	}
}

func TestFirstServerSideDeploy(t *testing.T) {
	update := metav1.ManagedFieldsEntry{Manager: "helm", Operation: "Update"}
	status := metav1.ManagedFieldsEntry{Manager: "helm", Operation: "Apply", Subresource: "status"}
	apply := metav1.ManagedFieldsEntry{Manager: "helm", Operation: "Apply"}
	if !FirstServerSideDeploy([]metav1.ManagedFieldsEntry{update, status}, "helm") {
		t.Error("Helm 3's Update alone: the first server-side deploy")
	}
	if FirstServerSideDeploy([]metav1.ManagedFieldsEntry{update, apply}, "helm") {
		t.Error("helm has applied before: not the first")
	}
}
