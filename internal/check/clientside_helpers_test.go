package check_test

import (
	"context"
	"encoding/json"

	"github.com/ownership-check/ownership-check/internal/delivery"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
)

// upgradeClientSide does for real what the deployer does before its first
// server-side apply: csaupgrade's managedFields patch, pinned to the
// resourceVersion read. It returns the managers it merged.
func (s *scenario) upgradeClientSide(gvk schema.GroupVersionKind, ns, name, manager string) []string {
	s.t.Helper()
	live := s.liveObject(gvk, ns, name)
	names := delivery.ClientSideManagers(live.GetManagedFields(), manager)
	patch, err := csaupgrade.UpgradeManagedFieldsPatch(live, sets.New(names...), manager)
	if err != nil {
		s.t.Fatal(err)
	}
	if patch == nil {
		return nil
	}
	res, err := s.client.Resource(gvk, ns)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := res.Patch(context.Background(), name, types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
		s.t.Fatalf("upgrading %s/%s: %v", ns, name, err)
	}
	return names
}

// serverDryRun asks the API server for the apply of content as manager,
// without persisting it.
func (s *scenario) serverDryRun(content map[string]any, manager string, force bool) (*unstructured.Unstructured, error) {
	s.t.Helper()
	u := &unstructured.Unstructured{Object: content}
	res, err := s.client.Resource(u.GroupVersionKind(), u.GetNamespace())
	if err != nil {
		s.t.Fatal(err)
	}
	body, err := json.Marshal(content)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.Patch(context.Background(), u.GetName(), types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: manager, Force: &force, DryRun: []string{metav1.DryRunAll}})
}
