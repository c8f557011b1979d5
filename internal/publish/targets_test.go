package publish

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// TestCommentManyTargets: with 90 targets the summary table lists the
// ones that need a look and one row for those that pass, under the line
// that says which targets were checked; with none checked it says so.
func TestCommentManyTargets(t *testing.T) {
	var secs []*Section
	for i := range 90 {
		r := reporttest.Clean()
		r.Environment = fmt.Sprintf("app%02d-prod", i)
		if i == 7 {
			r = reporttest.Mixed()
			r.Environment = "app07-prod"
		}
		secs = append(secs, NewSection(r, report.MarkdownOptions{}))
	}
	body := RenderTargets(secs, "90 of 90 targets checked", MaxCommentLen)
	if len(body) > 40000 {
		t.Fatalf("comment of %d bytes: the 89 passing targets should take a row and their hidden lines", len(body))
	}
	if back := ParseSections(body); len(back) != 90 {
		t.Errorf("%d sections read back, want 90 (other shards' merges need them)", len(back))
	}
	rows := 0
	for _, l := range strings.Split(body[:strings.Index(body, "<!-- ownership-check:env=")], "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| environment") && !strings.HasPrefix(l, "| ---") {
			rows++
		}
	}
	if rows != 2 || !strings.Contains(body, "| 89 more | ✅ no changes, no findings |") || !strings.Contains(body, "90 of 90 targets checked.") {
		t.Errorf("%d summary rows, want app07-prod and one for the 89 that pass:\n%s", rows, body[:min(len(body), 3000)])
	}
	none := RenderTargets(nil, "0 of 90 targets checked, 90 not affected by this change", MaxCommentLen)
	if !strings.Contains(none, "✅ 0 of 90 targets checked, 90 not affected by this change: nothing to check.") {
		t.Errorf("no target checked:\n%s", none)
	}
}

// TestCommentNotCheckedTarget: a target that is not checked keeps its row
// and section with the reason through the comment's hidden lines, and the
// verdict neither fails nor hides it.
func TestCommentNotCheckedTarget(t *testing.T) {
	r := reporttest.Clean()
	r.Environment = "prod"
	secs := []*Section{NewSection(r, report.MarkdownOptions{}), NotCheckedSection("flux-system/apps", "its source is another repository", report.Tool{}, report.MarkdownOptions{})}
	body := RenderTargets(secs, "2 of 2 targets checked", MaxCommentLen)
	back := ParseSections(body)
	if len(back) != 2 {
		t.Fatalf("%d sections read back", len(back))
	}
	again := RenderTargets(back, "2 of 2 targets checked", MaxCommentLen)
	for _, b := range []string{body, again} {
		for _, want := range []string{"| flux-system/apps | ⚠️ not checked |", "not checked (its source is another repository)"} {
			if !strings.Contains(b, want) {
				t.Errorf("lacks %q:\n%s", want, b)
			}
		}
		if strings.Contains(b, "❌") {
			t.Errorf("a not-checked target fails nothing:\n%s", b)
		}
	}
}
