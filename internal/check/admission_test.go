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
// with the policy's value. Neither is drift nor an anomaly: not when the
// objects are new, not at the first check of deployed objects (against
// live), not against the snapshot; and a deploy of the same manifests
// changes nothing, because the dry-run includes the mutation. Nor is the
// value the policy rewrote in an object deployed before it existed.
func TestScenarioAdmissionMutationsAreNotDrift(t *testing.T) {
	s := newScenario(t, "admission-mutation")
	policy := schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"}
	s.client.ResetDiscovery()
	if _, err := s.client.Mapping(policy); err != nil {
		t.Skipf("the API server does not serve %s (GA in 1.36): %v", policy, err)
	}
	s.deploy("later", "")
	s.snapshot("later", "")
	s.deploy("policy", "")
	t.Cleanup(func() { deletePolicy(t, s) })
	waitForMutation(t)
	// Anyone's write to the older ConfigMap now passes the policy.
	older := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "older", "namespace": "s37-mutated"}}
	s.patch(older, []byte(`{"metadata":{"annotations":{"touched":"yes"}}}`), "application/merge-patch+json", "someone", false, "")
	if got := getConfigMap(t, "s37-mutated", "older"); got.Labels["tier"] != "gold" {
		t.Fatalf("the policy did not rewrite the older ConfigMap: labels %v", got.Labels)
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

	t.Run("set by the policy since the last deploy", func(t *testing.T) {
		// The snapshot says bronze, live says gold and no manager but the
		// deploy owns it: the deploy cannot revert what admission sets
		// again on its own apply, so it is no drift.
		code, rep, stderr := s.check("later")
		if code != 0 {
			t.Fatalf("exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		clean(t, rep, "older", model.ChangeNone)
	})
	t.Run("new objects", func(t *testing.T) {
		code, rep, stderr := s.check("deployed")
		if code != 0 {
			t.Fatalf("exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		clean(t, rep, "settings", model.ChangeCreate)
	})
	s.deploy("deployed", "")
	live := getConfigMap(t, "s37-mutated", "settings")
	if live.Labels["team"] != "platform" || live.Labels["tier"] != "gold" {
		t.Fatalf("the policy did not mutate the ConfigMap: labels %v", live.Labels)
	}
	for _, mf := range live.ManagedFields {
		t.Logf("managedFields: %s %s %s", mf.Manager, mf.Operation, mf.FieldsV1.Raw)
	}
	t.Run("first check of deployed objects", func(t *testing.T) {
		code, rep, stderr := s.check("deployed")
		if code != 0 {
			t.Fatalf("exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		clean(t, rep, "settings", model.ChangeNone)
	})
	s.snapshot("deployed", "")
	t.Run("against the snapshot", func(t *testing.T) {
		code, rep, stderr := s.check("deployed")
		if code != 0 {
			t.Fatalf("exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		clean(t, rep, "settings", model.ChangeNone)
		for _, o := range rep.Objects {
			if o.Kind == "ConfigMap" && o.Name == "settings" && len(o.Findings) != 0 {
				t.Errorf("ConfigMap %s: findings %+v, want none", o.Name, o.Findings)
			}
		}
	})
}

// waitForMutation waits until the policy mutates the namespace's
// ConfigMaps: the API server loads policies asynchronously.
func waitForMutation(t *testing.T) {
	t.Helper()
	kc := kubernetes.NewForConfigOrDie(cluster.Config())
	probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "probe-", Namespace: "s37-mutated"}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := kc.CoreV1().ConfigMaps("s37-mutated").Create(context.Background(), probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil && got.Labels["team"] == "platform" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the policy never took effect: %v", err)
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

// deletePolicy removes the policy, so that no later test of the package
// meets it.
func deletePolicy(t *testing.T, s *scenario) {
	for _, kind := range []string{"MutatingAdmissionPolicyBinding", "MutatingAdmissionPolicy"} {
		res, err := s.client.Resource(schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: kind}, "")
		if err != nil {
			t.Error(err)
			continue
		}
		if err := res.Delete(context.Background(), "s37-mutated-labels", metav1.DeleteOptions{}); err != nil {
			t.Error(err)
		}
	}
}
