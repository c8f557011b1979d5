package check_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestScenarioAdmissionMutationsAreNotDrift: a MutatingAdmissionPolicy
// (served as admissionregistration.k8s.io/v1 from 1.36 on, so the test
// runs on the newer API server) sets a label no manifest sets, which no
// manager owns, and overrides one the deploy sets, which the deploy owns
// with the policy's value. Neither is drift nor an anomaly (see
// checkAdmissionMutations).
func TestScenarioAdmissionMutationsAreNotDrift(t *testing.T) {
	s := newScenario(t, "admission-mutation")
	policy := schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"}
	s.client.ResetDiscovery()
	if _, err := s.client.Mapping(policy); err != nil {
		t.Skipf("the API server does not serve %s (GA in 1.36): %v", policy, err)
	}
	checkAdmissionMutations(t, s, "s37-mutated", func() {
		s.deploy("policy", "")
		t.Cleanup(func() {
			deleteObjects(t, s, "s37-mutated-labels",
				schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"}, policy)
		})
	})
}

// checkAdmissionMutations runs the same checks whatever mutates the
// namespace's ConfigMaps (install sets it up): team: platform added,
// tier: gold over the manifest's bronze. Not drift nor an anomaly when the
// objects are new, at the first check of deployed objects (against live),
// or against the snapshot; a deploy of the same manifests changes nothing,
// because the dry-run includes the mutation. Nor is the value rewritten in
// an object deployed before the mutation was set up.
func checkAdmissionMutations(t *testing.T, s *scenario, ns string, install func()) {
	t.Helper()
	s.deploy("later", "")
	s.snapshot("later", "")
	install()
	waitForMutation(t, ns)
	// Anyone's write to the older ConfigMap now passes admission.
	older := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "older", "namespace": ns}}
	s.patch(older, []byte(`{"metadata":{"annotations":{"touched":"yes"}}}`), "application/merge-patch+json", "someone", false, "")
	if got := getConfigMap(t, ns, "older"); got.Labels["tier"] != "gold" {
		t.Fatalf("admission did not rewrite the older ConfigMap: labels %v", got.Labels)
	}

	clean := func(t *testing.T, rep *report.Report, name string, wantChange model.Change) {
		t.Helper()
		for _, o := range rep.Objects {
			if o.Kind != "ConfigMap" || o.Name != name {
				continue
			}
			if o.Change != wantChange {
				t.Errorf("ConfigMap %s: change %q, want %q; diff %+v", o.Name, o.Change, wantChange, o.Diff)
			}
			for _, f := range o.Findings {
				switch f.Category {
				case model.Drift, model.Anomaly, model.TakingConflict, model.UpdateConflict:
					t.Errorf("ConfigMap %s: %s at %s: %s", o.Name, f.Category, f.Path, f.Message)
				}
			}
		}
	}
	check := func(t *testing.T, manifests string) *report.Report {
		t.Helper()
		code, rep, stderr := s.check(manifests)
		if code != 0 {
			t.Fatalf("exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		return rep
	}

	t.Run("rewritten since the last deploy", func(t *testing.T) {
		// The snapshot says bronze, live says gold and no manager but the
		// deploy owns it: the deploy cannot revert what admission sets
		// again on its own apply, so it is no drift.
		clean(t, check(t, "later"), "older", model.ChangeNone)
	})
	t.Run("new objects", func(t *testing.T) {
		clean(t, check(t, "deployed"), "settings", model.ChangeCreate)
	})
	s.deploy("deployed", "")
	live := getConfigMap(t, ns, "settings")
	if live.Labels["team"] != "platform" || live.Labels["tier"] != "gold" {
		t.Fatalf("admission did not mutate the ConfigMap: labels %v", live.Labels)
	}
	for _, mf := range live.ManagedFields {
		t.Logf("managedFields: %s %s %s", mf.Manager, mf.Operation, mf.FieldsV1.Raw)
	}
	t.Run("first check of deployed objects", func(t *testing.T) {
		clean(t, check(t, "deployed"), "settings", model.ChangeNone)
	})
	s.snapshot("deployed", "")
	t.Run("against the snapshot", func(t *testing.T) {
		rep := check(t, "deployed")
		clean(t, rep, "settings", model.ChangeNone)
		for _, o := range rep.Objects {
			if o.Kind == "ConfigMap" && o.Name == "settings" && len(o.Findings) != 0 {
				t.Errorf("ConfigMap %s: findings %+v, want none", o.Name, o.Findings)
			}
		}
	})
}

// waitForMutation waits until admission mutates the namespace's
// ConfigMaps: the API server loads policies and webhook configurations
// asynchronously.
func waitForMutation(t *testing.T, ns string) {
	t.Helper()
	kc := kubernetes.NewForConfigOrDie(cluster.Config())
	probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "probe-", Namespace: ns, Labels: map[string]string{"probe": "yes"}}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := kc.CoreV1().ConfigMaps(ns).Create(context.Background(), probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil && got.Labels["team"] == "platform" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("admission never mutated a ConfigMap: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func getConfigMap(t *testing.T, ns, name string) *corev1.ConfigMap {
	t.Helper()
	kc := kubernetes.NewForConfigOrDie(cluster.Config())
	cm, err := kc.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// deleteObjects removes what a test set up cluster-wide, so that no later
// test of the package meets it.
func deleteObjects(t *testing.T, s *scenario, name string, kinds ...schema.GroupVersionKind) {
	for _, gvk := range kinds {
		res, err := s.client.Resource(gvk, "")
		if err != nil {
			t.Error(err)
			continue
		}
		if err := res.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
			t.Error(err)
		}
	}
}
