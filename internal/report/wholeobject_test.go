package report_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// An object deleted out of band is one drift on the whole object: a bullet
// that says so, no row of values, and for a Secret the same words (the
// redaction rewrites a Secret's messages without trusting the producer).
func TestDeletedOutOfBand(t *testing.T) {
	const said = "deleted since the last deploy; the deploy creates it again"
	for _, kind := range []string{"ConfigMap", "Secret"} {
		t.Run(kind, func(t *testing.T) {
			r := reporttest.Clean()
			row13 := model.NewTransition(true, true, false, true)
			r.Objects = []report.Object{{APIVersion: "v1", Kind: kind, Namespace: "shop", Name: "settings", Baseline: "snapshot",
				Findings: []model.Finding{{Category: model.Drift, Transition: &row13, Path: model.WholeObject,
					Message: "deleted since the last deploy (the last deploy left it in the cluster, and it is gone); the deploy creates it again"}}}}
			r.Summarize()
			if r.Summary.Count(model.Drift) != 1 {
				t.Errorf("summary counts %d drift, want 1", r.Summary.Count(model.Drift))
			}
			gs := r.Objects[0].Groups()
			if len(gs) != 1 || !strings.HasPrefix(gs[0].Message, "deleted since the last deploy") {
				t.Fatalf("groups = %+v", gs)
			}
			if kind == "Secret" && report.Redacted(r).Objects[0].Groups()[0].Message != said {
				t.Errorf("Secret message = %q, want %q", report.Redacted(r).Objects[0].Groups()[0].Message, said)
			}
			md := report.Markdown(r, report.MarkdownOptions{})
			if !strings.Contains(md, "- **drift**: deleted since the last deploy") {
				t.Errorf("markdown has no bullet for the deletion:\n%s", md)
			}
			if strings.Contains(md, "(unset) → (unset)") || strings.Contains(md, "| drift | `.`") {
				t.Errorf("markdown has a row of values for the whole object:\n%s", md)
			}
			var text strings.Builder
			if err := report.WriteText(&text, r, report.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), "drift: deleted since the last deploy") || strings.Contains(text.String(), "(unset)") {
				t.Errorf("text:\n%s", text.String())
			}
		})
	}
}
