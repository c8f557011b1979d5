package publish

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestCommentPlanManyTargets: of 31 targets, the two whose deploy changes
// something keep a row and a section that leads with their plan; the 29
// with nothing to say are one row; the comment's top line is the plan
// over all targets, and the verdict names a handful, then counts.
func TestCommentPlanManyTargets(t *testing.T) {
	var secs []*Section
	for i := range 31 {
		env := fmt.Sprintf("app%02d-prod", i)
		r := reporttest.Clean()
		if i == 4 || i == 20 {
			r = reporttest.ImageBump(env, 2)
		}
		r.Environment = env
		secs = append(secs, NewSection(r, report.MarkdownOptions{}))
	}
	body := RenderTargets(secs, "31 of 31 targets checked", MaxCommentLen)
	golden(t, "plan-many.md", body)
	reporttest.Parse(t, body).DetailsBalance(t)
	top := strings.SplitN(body, "\n", 5)
	if top[3] != "**Plan:** 4 to change · 4 workloads roll" {
		t.Errorf("the top line is not the plan over all targets: %q", top[3])
	}
	for _, want := range []string{
		"| app04-prod | ✅ passes | 2 |",
		"| app20-prod | ✅ passes | 2 |",
		"| 29 more | ✅ no changes, no findings |",
		"### ✅ app04-prod\n\n**Plan:** 2 to change · 2 workloads roll (`Deployment shop/svc-000`, `Deployment shop/svc-001`) · images: nginx 1.26 → 1.27 on 2 workloads\n\n**Verdict:** ",
		"### ✅ app20-prod\n\n**Plan:** 2 to change",
		"and 26 more.",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "### ✅ app00-prod") {
		t.Errorf("a target with nothing to say has a section:\n%s", body)
	}
	if strings.Index(body, "| app04-prod") > strings.Index(body, "| 29 more") {
		t.Error("the changed targets do not come before the quiet ones")
	}
}

// TestSectionLeadsWithPlan: a clean section says what its deploy does,
// then its verdict, before anything else; one that changes nothing says
// so.
func TestSectionLeadsWithPlan(t *testing.T) {
	body := CommentBody(reporttest.Clean(), report.MarkdownOptions{})
	if !strings.Contains(body, "### ✅ prod\n\n**Plan:** no changes\n\n**Verdict:** no ownership conflicts in 3 objects\n\n") {
		t.Errorf("the section does not lead with its plan and verdict:\n%s", body)
	}
}

// TestLongSectionCollapses: among several sections, one past the size
// folds its findings and changes under its plan and verdict; alone, it
// does not.
func TestLongSectionCollapses(t *testing.T) {
	big := reporttest.Repeated("zeta", 700)
	body := RenderTargets([]*Section{NewSection(big, report.MarkdownOptions{}), NewSection(reporttest.Clean(), report.MarkdownOptions{})}, "", MaxCommentLen)
	reporttest.Parse(t, body).DetailsBalance(t)
	zeta := sectionText(body, "zeta")
	verdict, fold := strings.Index(zeta, "**Verdict:**"), strings.Index(zeta, "<summary>The findings and changes of zeta (")
	if verdict < 0 || fold < verdict {
		t.Errorf("the long section is not folded under its verdict:\n%s", zeta)
	}
	if strings.Contains(sectionText(body, "prod"), "The findings and changes of") {
		t.Error("a short section was folded")
	}
	if alone := CommentBody(big, report.MarkdownOptions{}); strings.Contains(alone, "The findings and changes of") {
		t.Error("a comment's only section was folded")
	}
}
