package action

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestActionTargetsDiscovered: the targets input takes discovered names
// when the config only discovers (discover:, no targets:); a target that
// is not checked is in the job summary with its reason, and a run of
// nothing else checked nothing: exit 2.
func TestActionTargetsDiscovered(t *testing.T) {
	e := newActionEnv(t, "push.json", cleanActionReport(), nil)
	ws := e.workspace
	if err := os.WriteFile(filepath.Join(ws, config.DefaultFile), []byte("discover:\n- flux: clusters\n  context: prod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, ws, "init", "-q")
	t.Cleanup(targets.UseDiscovery(func(context.Context, gitops.Repository, []config.Discover) ([]gitops.Target, error) {
		return []gitops.Target{{Name: "flux-system/external", Source: delivery.ControllerFlux, Object: "clusters/prod/external.yaml",
			Paths: []string{"deploy"}, FieldManager: "kustomize-controller", Context: "prod", Reason: "its source is another repository"}}, nil
	}))
	t.Setenv("INPUT_TARGETS", "flux-system/external")
	code, log := e.run()
	if code != ExitError {
		t.Fatalf("exit %d, want 2: nothing was checked\n%s", code, log)
	}
	if s := e.summaryText(); !strings.Contains(s, "flux-system/external") || !strings.Contains(s, "not checked") || !strings.Contains(s, "its source is another repository") {
		t.Errorf("summary:\n%s", s)
	}
	if !strings.Contains(log, "none of the 1 selected target could be checked") {
		t.Errorf("log:\n%s", log)
	}
}

// TestReadReportFolderNotChecked: a fork's report array with a target that
// was not checked is published with its reason, not as a report.
func TestReadReportFolderNotChecked(t *testing.T) {
	dir := t.TempDir()
	arr := `[{"schemaVersion": 1, "tool": {"name": "ownership-check", "version": "v1"}, "environment": "prod", "fieldManager": "d", "engine": "offline", "snapshot": {"found": false}, "summary": {"objects": 0}, "failed": false, "objects": []},
{"schemaVersion": 1, "tool": {"name": "ownership-check", "version": "v1"}, "environment": "flux-system/external", "checked": false, "reason": "its source is another repository"}]`
	if err := os.WriteFile(filepath.Join(dir, "targets.json"), []byte(arr), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := readReportFolder(dir)
	if err != nil || len(es) != 2 || es[0].Report == nil || es[1].Report != nil || es[1].Reason != "its source is another repository" || es[1].Name != "flux-system/external" {
		t.Errorf("%+v %v", es, err)
	}
}
