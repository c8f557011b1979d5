package gitlab

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// An issue per finding with a source line in the repository, at that
// line, its severity from the finding's level; none for an object whose
// source is outside the repository or has no line.
func TestCodeQuality(t *testing.T) {
	root := t.TempDir()
	r := &report.Report{Environment: "prod", Objects: []report.Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Source: filepath.Join(root, "deploy", "web.yaml"), Line: 12,
			Findings: []model.Finding{
				{Category: model.Drift, Path: ".spec.replicas", Message: "changed from 3 to 5 by kubectl"},
				{Category: model.DryRunError, Message: "Invalid"},
				{Category: model.Taking, Path: ".spec.paused"},
			}},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "cfg", Source: "deploy/cfg.yaml",
			Findings: []model.Finding{{Category: model.Drift, Path: ".data.a"}}},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "far", Source: "../elsewhere/cfg.yaml", Line: 3,
			Findings: []model.Finding{{Category: model.Drift, Path: ".data.a"}}},
	}}
	issues := CodeQuality(root, []*report.Report{r, nil})
	if len(issues) != 3 {
		t.Fatalf("%d issues: %+v", len(issues), issues)
	}
	byCheck := map[string]Issue{}
	for _, is := range issues {
		byCheck[is.CheckName] = is
	}
	for check, severity := range map[string]string{"ownership-check/drift": "major", "ownership-check/dry-run-error": "critical", "ownership-check/taking": "info"} {
		is := byCheck[check]
		if is.Severity != severity || is.Location.Path != "deploy/web.yaml" || is.Location.Lines.Begin != 12 {
			t.Errorf("%s: %+v, want %s at deploy/web.yaml:12", check, is, severity)
		}
	}
	drift := byCheck["ownership-check/drift"]
	if !strings.Contains(drift.Description, "Deployment shop/web (prod): drift .spec.replicas: changed from 3 to 5 by kubectl") {
		t.Errorf("description %q", drift.Description)
	}
	// The same finding elsewhere in the file, with another message, is the
	// same issue; another environment's is another.
	moved := *r
	moved.Objects = []report.Object{r.Objects[0]}
	moved.Objects[0].Line = 40
	moved.Objects[0].Findings = []model.Finding{{Category: model.Drift, Path: ".spec.replicas", Message: "changed from 3 to 7"}}
	again := CodeQuality(root, []*report.Report{&moved})
	if again[0].Fingerprint != drift.Fingerprint {
		t.Error("the fingerprint moved with the line or the message")
	}
	moved.Environment = "staging"
	if CodeQuality(root, []*report.Report{&moved})[0].Fingerprint == drift.Fingerprint {
		t.Error("two environments' findings share a fingerprint")
	}
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, CodeQuality(root, nil)); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("no report: %q %v", b.String(), err)
	}
}

// A value a Secret holds is hidden in the issues as in every output.
func TestCodeQualityHidesValues(t *testing.T) {
	r := reporttest.Mixed()
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, CodeQuality("", []*report.Report{r})); err != nil {
		t.Fatal(err)
	}
	var issues []Issue
	if err := json.Unmarshal(b.Bytes(), &issues); err != nil || len(issues) == 0 {
		t.Fatalf("%v: %s", err, b.String())
	}
	reporttest.NoSecrets(t, b.String())
}
