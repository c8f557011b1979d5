package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestScenarioRecreateMeetsRatchetedValidation: a Widget deployed while
// its size could be any string; its CustomResourceDefinition now allows 3
// characters. Validation ratcheting lets an update that leaves the size
// alone pass, so a pull request changing replicas is clean. One changing
// the immutable class needs a delete and a create, and the create
// validates the size: the check says so before the deploy, as a dry-run
// error naming the field and the server's words, under the object's own
// name (not the one the engine's create went under).
func TestScenarioRecreateMeetsRatchetedValidation(t *testing.T) {
	s := newScenario(t, "ratchet")
	gvk := schema.GroupVersionKind{Group: "s37r.example.com", Version: "v1", Kind: "Widget"}
	s.deploy("crd", "")
	waitForSchema(t, s, gvk)
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	s.deploy("strict", "")
	waitForCreateRefused(t, s, gvk)

	t.Run("an update leaving the invalid field alone passes", func(t *testing.T) {
		code, rep, stderr := s.check("update")
		if code != 0 {
			t.Fatalf("exit %d, want 0 (ratcheting lets the update pass); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		if fs := findings(rep, "Widget", "w", model.DryRunError); len(fs) != 0 {
			t.Errorf("dry-run errors on an update: %+v", fs)
		}
	})

	t.Run("a recreate is refused on the create", func(t *testing.T) {
		code, rep, stderr := s.check("recreate")
		if code != 1 {
			t.Fatalf("exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		onlyFinding(t, rep, "Widget", "w", model.RecreateRequired, ".spec.class")
		f := onlyFinding(t, rep, "Widget", "w", model.DryRunError, ".spec.size")
		t.Log(f.Message)
		if f.Reason != "Invalid" || !strings.Contains(f.Message, "spec.size: ") || !strings.Contains(f.Message, "3") {
			t.Errorf("the create's refusal: %+v, want Invalid naming spec.size and its limit", f)
		}
		if !strings.Contains(f.Message, "ratcheting") || strings.Contains(f.Message, `"w-`) {
			t.Errorf("the create's refusal does not say why the update passed, or names the generated object: %s", f.Message)
		}
		if strings.Contains(f.Message, "some validation rules were not checked") {
			t.Errorf("the create's refusal keeps the server's note about other rules: %s", f.Message)
		}
	})
}

// waitForCreateRefused waits until the tightened schema is the one the
// API server validates creates with: until then the scenario would pass
// for the wrong reason.
func waitForCreateRefused(t *testing.T, s *scenario, gvk schema.GroupVersionKind) {
	t.Helper()
	res, err := s.client.Resource(gvk, "s37-ratchet")
	if err != nil {
		t.Fatal(err)
	}
	probe := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind,
		"metadata": map[string]any{"generateName": "probe-"},
		"spec":     map[string]any{"size": "large"},
	}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := res.Create(context.Background(), probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the tightened schema never took effect")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
