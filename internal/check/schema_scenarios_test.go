package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/typing"
)

// Issue 20: the server's schema for every kind, one apiVersion per
// comparison. Each scenario deploys, snapshots, lets another manager act
// and checks the pull request, on the shared API server.

// A keyed list item of a custom resource that another manager co-owns is
// shared ownership, not a split; a forced change of it is one drift.
func TestScenarioCustomResourceKeyedList(t *testing.T) {
	s := newScenario(t, "crd-keyed")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s9.example.com", Version: "v1", Kind: "Pool"})
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	other := map[string]any{
		"apiVersion": "s9.example.com/v1", "kind": "Pool",
		"metadata": map[string]any{"name": "p1", "namespace": "s9-keyed"},
		"spec":     map[string]any{"items": []any{map[string]any{"name": "a"}}},
	}
	// The other manager co-owns item a (its key) and leaves size alone.
	s.apply("other", other, false)
	code, rep, stderr := s.check("pr")
	if code != 0 || countFindings(rep) != 0 {
		t.Fatalf("exit %d with %d findings, want 0 and none (item a is shared); stderr: %s\n%s", code, countFindings(rep), stderr, dumpOrNil(rep))
	}

	other["spec"] = map[string]any{"items": []any{map[string]any{"name": "a", "size": 5}}}
	s.apply("other", other, true)
	code, rep, stderr = s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	f := onlyFinding(t, rep, "Pool", "p1", model.Drift, `.spec.items[name="a"].size`)
	if !hasManager(f.Managers, "other", "Apply", "") {
		t.Errorf("drift = %+v, want other named", f)
	}
	if n := countFindings(rep); n != 1 {
		t.Errorf("%d findings, want the drift alone\n%s", n, dump(rep))
	}
}

// An atomic map (a label selector as controller-gen emits it) and a set
// list are owned as the server owns them: unchanged, nothing is reported;
// one key changed by another manager is one drift on the whole map.
func TestScenarioCustomResourceAtomicMapAndSet(t *testing.T) {
	s := newScenario(t, "crd-atomic")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s10.example.com", Version: "v1", Kind: "Monitor"})
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	code, rep, stderr := s.check("pr")
	if code != 0 || countFindings(rep) != 0 {
		t.Fatalf("exit %d with %d findings, want 0 and none; stderr: %s\n%s", code, countFindings(rep), stderr, dumpOrNil(rep))
	}

	s.patch(map[string]any{"apiVersion": "s10.example.com/v1", "kind": "Monitor",
		"metadata": map[string]any{"name": "web", "namespace": "s10-atomic"}},
		[]byte(`{"spec":{"selector":{"matchLabels":{"tier":"backend"}}}}`), "application/merge-patch+json", "kubectl-edit", false, "")
	code, rep, stderr = s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	f := onlyFinding(t, rep, "Monitor", "web", model.Drift, ".spec.selector")
	if !hasManager(f.Managers, "kubectl-edit", "Update", "") {
		t.Errorf("drift = %+v, want kubectl-edit named", f)
	}
	if n := countFindings(rep); n != 1 {
		t.Errorf("%d findings, want the drift on the whole selector alone\n%s", n, dump(rep))
	}
}

// autoscaling/v1 → v2 with the same meaning: the server's dry-run shows
// the deployer owning the v2 fields cleanly, and so does the check.
func TestScenarioAPIVersionMove(t *testing.T) {
	s := newScenario(t, "hpa-move")
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	code, rep, stderr := s.check("pr")
	if code != 0 || countFindings(rep) != 0 {
		t.Fatalf("exit %d with %d findings, want 0 and none; stderr: %s\n%s", code, countFindings(rep), stderr, dumpOrNil(rep))
	}
	for _, o := range rep.Objects {
		if o.Kind == "HorizontalPodAutoscaler" && (o.Baseline != "snapshot" || o.APIVersion != "autoscaling/v2") {
			t.Errorf("HPA compared as %s against %s, want autoscaling/v2 against the snapshot", o.APIVersion, o.Baseline)
		}
	}
}

// A manager that wrote through autoscaling/v1 is named on the v2 field it
// changed.
func TestScenarioManagerInAnotherVersion(t *testing.T) {
	s := newScenario(t, "hpa-v1-edit")
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	s.patch(map[string]any{"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
		"metadata": map[string]any{"name": "web", "namespace": "s12-hpa-edit"}},
		[]byte(`{"spec":{"targetCPUUtilizationPercentage":70}}`), "application/merge-patch+json", "hpa-tuner", false, "")
	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	f := onlyFinding(t, rep, "HorizontalPodAutoscaler", "web", model.Drift, ".spec.metrics")
	if !hasManager(f.Managers, "hpa-tuner", "Update", "") || !strings.Contains(f.Message, "hpa-tuner") {
		t.Errorf("drift = %+v, want hpa-tuner named", f)
	}
	if n := countFindings(rep); n != 1 {
		t.Errorf("%d findings, want the drift alone\n%s", n, dump(rep))
	}
}

// A custom resource moved to another version its CRD serves, without a
// conversion webhook: clean.
func TestScenarioCustomResourceVersionMove(t *testing.T) {
	s := newScenario(t, "crd-move")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s13.example.com", Version: "v2", Kind: "Queue"})
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s13.example.com", Version: "v1", Kind: "Queue"})
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	code, rep, stderr := s.check("pr")
	if code != 0 || countFindings(rep) != 0 {
		t.Fatalf("exit %d with %d findings, want 0 and none; stderr: %s\n%s", code, countFindings(rep), stderr, dumpOrNil(rep))
	}
}

// waitForSchema waits until the API server's OpenAPI v3 publishes a kind a
// CRD just defined (some seconds after discovery serves it), so that both
// engines type it from the published schema, as they do for any CRD
// older than a few seconds.
func waitForSchema(t *testing.T, s *scenario, gvk schema.GroupVersionKind) {
	t.Helper()
	waitForKind(t, s, gvk)
	start := time.Now()
	for {
		types := typing.ForCluster(context.Background(), s.client.OpenAPIV3(context.Background()), s.client)
		if doc, err := types.Document(gvk.GroupVersion()); err == nil && doc.Has(gvk) {
			t.Logf("%s published after %s", gvk, time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("%s never published in the OpenAPI v3", gvk)
		}
		s.client.ResetDiscovery()
		time.Sleep(200 * time.Millisecond)
	}
}

// snapshotQuiet is snapshot, and fails when a kind's schema could not be
// recorded: CustomResourceDefinition objects (served by the API server
// itself, not by a CRD) included.
func (s *scenario) snapshotQuiet(manifests string) {
	s.t.Helper()
	code, _, stderr := s.run("snapshot", s.path(manifests), "--field-manager", deployer,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--source-commit", "0123456789abcdef0123456789abcdef01234567")
	if code != 0 {
		s.t.Fatalf("snapshot exited %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "not recorded") {
		s.t.Errorf("snapshot warned: %s", stderr)
	}
}
