package report_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestCreatedSecretShowsNoValue: a created Secret's manifest is shown
// with its values hidden, even when the producer left them in.
func TestCreatedSecretShowsNoValue(t *testing.T) {
	// The pull request's own create: its body is shown (a first run's
	// others are a count per kind).
	r := &report.Report{Environment: "prod", Base: &report.BaseInfo{Commit: "b"}, Objects: []report.Object{{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db",
		Change: model.ChangeCreate, ChangeCause: model.CausePullRequest, Diff: []model.FieldChange{}, Findings: []model.Finding{},
		Bodies: &model.Bodies{After: "apiVersion: v1\ndata:\n  password: aHVudGVyMg==\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\nstringData:\n  token: hunter2\n"}}}}
	r.Summarize()
	md := report.Markdown(r, report.MarkdownOptions{})
	if strings.Contains(md, "aHVudGVyMg==") || strings.Contains(md, "hunter2") {
		t.Errorf("a Secret value is shown:\n%s", md)
	}
	if !strings.Contains(md, "<summary><code>Secret shop/db</code>: create</summary>") || !strings.Contains(md, "password: "+model.HiddenValue) {
		t.Errorf("the created Secret's manifest is not shown folded:\n%s", md)
	}
}
