package publish

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// gitLabTerms are GitLab's words, as its front end sets them.
var gitLabTerms = report.Terms{Change: "merge request", Run: "job", Platform: "GitLab", Comment: "note", Details: "job log"}

// TestTermsOfTheComment: the summary, what is left of another
// environment's section that gives way, and the all-clear line are worded
// as this run's sections are; the default words stay GitHub's.
func TestTermsOfTheComment(t *testing.T) {
	for _, tc := range []struct {
		terms       report.Terms
		stub, clear string
	}{
		{report.Terms{}, "_Details folded to fit GitHub's comment size limit: see the job summary of [its run](" + reporttest.RunURL + ")._", "(the job summary of each run has the details)"},
		{gitLabTerms, "_Details folded to fit GitLab's note size limit: see the job log of [its run](" + reporttest.RunURL + ")._", "(the job log of each run has the details)"},
	} {
		huge := reporttest.Big("prod", 1000, 2)
		body := CommentBody(huge, report.MarkdownOptions{Limit: MaxCommentLen, RunURL: reporttest.RunURL, Terms: tc.terms})
		own := reporttest.Clean()
		own.Environment, own.Unchanged = "staging", true
		body = MergeComment(body, NewSection(own, report.MarkdownOptions{Terms: tc.terms}), MaxCommentLen)
		if !strings.Contains(sectionText(body, "prod"), tc.stub) {
			t.Errorf("%+v: prod's section does not say %q:\n%s", tc.terms, tc.stub, sectionText(body, "prod"))
		}
		if tc.terms.Change != "" && strings.Contains(body, "pull request") {
			t.Errorf("%+v: the comment says pull request:\n%s", tc.terms, body)
		}
		if want := "**Verdict:** passes: this " + tc.terms.Resolved().Change + " changes nothing here"; !strings.Contains(body, want) {
			t.Errorf("%+v: the verdict does not say %q:\n%s", tc.terms, want, body[:min(len(body), 2000)])
		}
		if clear := AllClearBody(ParseSections(body), tc.terms); !strings.Contains(clear, tc.clear) {
			t.Errorf("%+v: the all-clear body does not say %q:\n%s", tc.terms, tc.clear, clear)
		}
	}
}
