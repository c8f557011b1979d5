package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestTemplateNoPodTakesNowDoesNotRoll: an OnDelete StatefulSet whose
// image changes is not among the workloads that roll, in the summary or
// the lead line; its line says the template changes, that no pod is
// replaced now and when the pods get it, and never "pods replaced".
func TestTemplateNoPodTakesNowDoesNotRoll(t *testing.T) {
	r := reporttest.Changes()
	db := report.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "shop", Name: "db", Source: "deploy/base/db.yaml", Line: 1,
		Baseline: "snapshot", Change: model.ChangeUpdate,
		Diff: []model.FieldChange{{Path: `.spec.template.spec.containers[name="db"].image`, Before: "postgres:15", After: "postgres:16"}},
		Rollout: &model.Rollout{Why: []string{"image of db"}, Images: []model.ImageChange{{Container: "db", From: "postgres:15", To: "postgres:16"}},
			Strategy: "OnDelete: pods get the new template when each pod is deleted"}}
	r.Objects = append(r.Objects, db)
	r.Summarize()
	if r.Summary.Rollouts != 1 {
		t.Errorf("summary.rollouts = %d, want 1 (web; not the OnDelete db)", r.Summary.Rollouts)
	}
	var text bytes.Buffer
	if err := report.WriteText(&text, r, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	md := report.Markdown(r, report.MarkdownOptions{})
	for name, out := range map[string]string{"text": text.String(), "markdown": md} {
		if !strings.Contains(out, "1 workload rolls (") {
			t.Errorf("%s: the lead line counts the OnDelete StatefulSet:\n%s", name, out)
		}
		if !strings.Contains(out, "postgres 15 → 16") {
			t.Errorf("%s: the image the template takes is not named", name)
		}
		line := lineOf(out, "StatefulSet shop/db")
		if strings.Contains(line, "pods replaced") || !strings.Contains(line, "template changed, no pod replaced now: image of db; OnDelete: pods get the new template when each pod is deleted") {
			t.Errorf("%s: db's line %q", name, line)
		}
	}
}

func lineOf(out, sub string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, sub) && strings.Contains(l, "template") {
			return l
		}
	}
	return ""
}
