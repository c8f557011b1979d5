package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// A release's rows are those of the reset and retained it causes: each
// row is said once, in text and in markdown.
func TestIdenticalRowsCollapse(t *testing.T) {
	reset := model.NewTransition(true, false, true, false)
	labeler := []model.Manager{{Manager: "labeler", Operation: "Apply"}}
	r := &report.Report{SchemaVersion: report.SchemaVersion, Tool: report.Tool{Name: "ownership-check"},
		Environment: "prod", FieldManager: "deployer", Engine: "cluster",
		Objects: []report.Object{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "api", Baseline: "snapshot",
			Findings: []model.Finding{
				{Category: model.Reset, Transition: &reset, Path: ".spec.replicas", DeployedValue: 3, LiveValue: 3},
				{Category: model.Retained, Transition: &reset, Path: ".metadata.labels.team", DeployedValue: "a", LiveValue: "a", Managers: labeler},
				{Category: model.Release, Transition: &reset, Path: ".metadata.labels.team", DeployedValue: "a", LiveValue: "a", Managers: labeler},
				{Category: model.Release, Transition: &reset, Path: ".spec.replicas", DeployedValue: 3, LiveValue: 3},
			}}}}
	r.Summarize()
	var text bytes.Buffer
	if err := report.WriteText(&text, r, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{".spec.replicas  3 → 3 → (unset)", `.metadata.labels.team  "a" → "a" → (unset)`} {
		if n := strings.Count(text.String(), row); n != 1 {
			t.Errorf("text says %q %d times:\n%s", row, n, text.String())
		}
	}
	md := report.Markdown(r, report.MarkdownOptions{})
	for _, row := range []string{"| reset, release | `.spec.replicas` |", "| retained, release | `.metadata.labels.team` |"} {
		if n := strings.Count(md, row); n != 1 {
			t.Errorf("markdown has %q %d times:\n%s", row, n, md)
		}
	}
	if strings.Count(md, "`.spec.replicas` |") != 1 {
		t.Errorf("markdown repeats the replicas row:\n%s", md)
	}
}
