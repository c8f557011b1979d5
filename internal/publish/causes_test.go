package publish

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestCommentCauses: the pull request's findings first, then the
// environment's in their own part addressed to whoever runs it; the
// verdict names who must act.
func TestCommentCauses(t *testing.T) {
	body := CommentBody(reporttest.Causes(), report.MarkdownOptions{RunURL: reporttest.RunURL})
	golden(t, "causes.md", body)
	reporttest.Parse(t, body).DetailsBalance(t)
	mine := strings.Index(body, "Deployment shop/web")
	part := strings.Index(body, "#### Not caused by this pull request: staging has changed since the last deploy")
	theirs := strings.Index(body, "Deployment shop/api")
	if mine < 0 || part < mine || theirs < part {
		t.Errorf("want the pull request's web, then the environment's part, then api:\n%s", body)
	}
	if !strings.Contains(body, "update-conflict on 1 object (`.spec.template.spec.containers[name=\"app\"].image`, kubectl-edit); and 1 finding for the environment's owners, not caused by this pull request") {
		t.Errorf("the verdict does not name who must act:\n%s", body)
	}
	if !strings.Contains(body, "the base branch has changes not deployed to staging yet") {
		t.Errorf("the environment's part does not say what is undeployed:\n%s", body)
	}
}
