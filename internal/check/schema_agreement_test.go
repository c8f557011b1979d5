package check_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/report"
)

// The offline engine types custom kinds with the schemas the snapshot
// recorded, as the cluster engine types them with the API server's: both
// give the same answer on the CRD scenarios of issue 20.

func TestOfflineAgreesCustomResourceKeyedList(t *testing.T) {
	s := agreementScenario(t, "crd-keyed", "s9-keyed")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s9.ag-example.com", Version: "v1", Kind: "Pool"})
	s.deploy("deployed", "")
	s.apply("other", map[string]any{
		"apiVersion": "s9.ag-example.com/v1", "kind": "Pool",
		"metadata": map[string]any{"name": "p1", "namespace": "ag-s9-keyed"},
		"spec":     map[string]any{"items": []any{map[string]any{"name": "a"}}},
	}, false)
	s.snapshotQuiet("deployed")
	rep := s.agree("pr", 0)
	if n := countFindings(rep); n != 0 {
		t.Errorf("%d findings, want none (item a is shared)\n%s", n, dump(rep))
	}
	noDeducedNotes(t, rep)
}

func TestOfflineAgreesCustomResourceAtomicMapAndSet(t *testing.T) {
	s := agreementScenario(t, "crd-atomic", "s10-atomic")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s10.ag-example.com", Version: "v1", Kind: "Monitor"})
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	rep := s.agree("pr", 0)
	if n := countFindings(rep); n != 0 {
		t.Errorf("%d findings, want none\n%s", n, dump(rep))
	}
	noDeducedNotes(t, rep)
}

func TestOfflineAgreesCustomResourceVersionMove(t *testing.T) {
	s := agreementScenario(t, "crd-move", "s13-move")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s13.ag-example.com", Version: "v2", Kind: "Queue"})
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s13.ag-example.com", Version: "v1", Kind: "Queue"})
	s.deploy("deployed", "")
	s.snapshotQuiet("deployed")
	rep := s.agree("pr", 0)
	if n := countFindings(rep); n != 0 {
		t.Errorf("%d findings, want none\n%s", n, dump(rep))
	}
	noDeducedNotes(t, rep)
}

func noDeducedNotes(t *testing.T, rep *report.Report) {
	t.Helper()
	notes := append([]string{}, rep.Notes...)
	for _, o := range rep.Objects {
		notes = append(notes, o.Notes...)
	}
	for _, n := range notes {
		if strings.Contains(n, "deduced") {
			t.Errorf("offline deduced a schema the snapshot has: %s", n)
		}
	}
}
