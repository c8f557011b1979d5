package check_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
)

// A custom resource's keyed list item, split between the deploy and
// another manager, that the pull request removes: check reports the split
// with the API server's schema, and migrate, run as the finding says,
// takes the item whole, after which the check passes. (migrate reads the
// item's key and owners from managedFields, so it agrees with check on
// custom kinds without their schema.)
func TestMigrateSplitCustomResource(t *testing.T) {
	s := newScenario(t, "crd-split")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s11.example.com", Version: "v1", Kind: "Pool"})
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	s.apply("other", map[string]any{
		"apiVersion": "s11.example.com/v1", "kind": "Pool",
		"metadata": map[string]any{"name": "p1", "namespace": "s11-split"},
		"spec":     map[string]any{"items": []any{map[string]any{"name": "b", "note": "kept by other"}}},
	}, false)

	item := `.spec.items[name="b"]`
	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("check: exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	split := onlyFinding(t, rep, "Pool", "p1", model.SplitOwnership, item)
	m := migrateRemedy.FindStringSubmatch(split.Message)
	if m == nil || m[2] != item {
		t.Fatalf("split message gives no migrate command for %s: %s", item, split.Message)
	}

	code, out, errOut := s.migrate("pr", "--field-manager", m[1], "--scope", m[2], "--apply")
	if code != 0 || !strings.Contains(out, "split item "+item) || !strings.Contains(out, "migrated Pool.s11.example.com/s11-split/p1") {
		t.Fatalf("migrate --apply: exit %d:\n%s%s", code, out, errOut)
	}
	code, rep, stderr = s.check("pr")
	if code != 0 || len(findings(rep, "Pool", "p1", model.SplitOwnership)) != 0 {
		t.Fatalf("check after migrate: exit %d, stderr %s\n%s", code, stderr, dumpOrNil(rep))
	}
}
