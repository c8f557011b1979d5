package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestHideRead: values read from Secrets are compared but never printed:
// a value that holds one is the hidden text, text that quotes one has it
// replaced.
func TestHideRead(t *testing.T) {
	hidden := []string{"sekret-token", "hunter22"}
	rep := &report.Report{Notes: []string{"substituted hunter22"}, Objects: []report.Object{{
		Findings: []model.Finding{{DesiredValue: "postgres://u:hunter22@db", LiveValue: "x", Message: "changed to postgres://u:hunter22@db"}},
		Diff:     []model.FieldChange{{After: map[string]any{"p": "hunter22"}, Before: "y"}},
	}}}
	hideRead(rep, hidden)
	f, c := rep.Objects[0].Findings[0], rep.Objects[0].Diff[0]
	if f.DesiredValue != model.HiddenValue || f.LiveValue != "x" || strings.Contains(f.Message+rep.Notes[0], "hunter22") || c.After != model.HiddenValue || c.Before != "y" {
		t.Errorf("not hidden: %+v %+v %v", f, c, rep.Notes)
	}
}

// TestRenderTakesDeployer: the target's Deployer reaches render, which
// renders its paths as that controller does (no source of this build
// claims it: the error names the controller and the object's file).
func TestRenderTakesDeployer(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, _, err := Render(context.Background(), Target{}, []string{dir})
	if err != nil || len(objs) != 1 {
		t.Fatalf("without a deployer: %v %v", objs, err)
	}
	d := &model.Deployer{Controller: "no-such-controller", File: "clusters/prod/a.yaml"}
	_, _, err = Render(context.Background(), Target{Deployer: d}, []string{dir})
	if err == nil || !strings.Contains(err.Error(), "no-such-controller") || !strings.Contains(err.Error(), "clusters/prod/a.yaml") {
		t.Errorf("with a deployer: %v", err)
	}
}
