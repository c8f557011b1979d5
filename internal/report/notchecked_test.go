package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestNotChecked: a category the engine could not look for is "not
// checked" everywhere, never 0; a finding it made anyway is counted.
func TestNotChecked(t *testing.T) {
	r := &Report{SchemaVersion: SchemaVersion, Environment: "dev", FieldManager: "deployer", Engine: "offline",
		Summary: Summary{NotChecked: []model.Category{model.Drift, model.TakingConflict, model.UpdateConflict, model.DryRunError}},
		Objects: []Object{
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "a", Baseline: "snapshot", Findings: []model.Finding{{Category: model.DryRunError, Message: "cannot merge"}}},
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "b", Baseline: "snapshot", Findings: []model.Finding{}},
		}}
	r.Summarize()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"drift", "taking-conflict", "update-conflict"} {
		if v, ok := doc.Summary[c]; !ok || v != nil {
			t.Errorf("summary.%s = %v, want null", c, v)
		}
	}
	if doc.Summary["dry-run-error"] != 1.0 || doc.Summary["reset"] != 0.0 {
		t.Errorf("counts found anyway and checked zeros: %v", doc.Summary)
	}
	if nc, _ := doc.Summary["notChecked"].([]any); len(nc) != 4 {
		t.Errorf("notChecked %v", doc.Summary["notChecked"])
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Summary.Known(model.Drift) || back.Summary.Cell(model.DryRunError) != "1" {
		t.Errorf("read back: %v %+v", err, back.Summary)
	}

	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "not checked: taking-conflict, update-conflict, drift") {
		t.Errorf("text:\n%s", text.String())
	}
	r.Objects = r.Objects[1:]
	r.Summarize()
	if v := r.Status().Verdict(); v != "no ownership conflicts in 1 object; not checked: dry-run-error, taking-conflict, update-conflict and drift" {
		t.Errorf("verdict %q", v)
	}
	body := Markdown(r, MarkdownOptions{})
	// Said once under the table, not in every cell of every row.
	if !strings.Contains(body, "| dev | ✅ passes | 1 |\n") || strings.Count(strings.ToLower(body), "not checked") != 2 {
		t.Errorf("document header:\n%s", body)
	}
	// Many environments: once under the table.
	r2 := *r
	r2.Environment = "qa"
	top := Overview([]Outcome{OutcomeOf(r, Terms{}), OutcomeOf(&r2, Terms{})}, "", Terms{})
	if strings.Count(strings.ToLower(top), "not checked") != 1 ||
		!strings.Contains(top, "Not checked in any environment (the offline engine asks no cluster): dry-run-error, taking-conflict, update-conflict and drift.") {
		t.Errorf("overview of two offline environments:\n%s", top)
	}
}
