package publish

import (
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

const (
	headSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	oldSHA  = "0123456789abcdef0123456789abcdef01234567"
)

var checkedAt = time.Date(2026, 11, 23, 10, 58, 0, 0, time.UTC)

func atHead(sha string) report.MarkdownOptions {
	return report.MarkdownOptions{RunURL: reporttest.RunURL, Limit: MaxCommentLen, At: checkedAt,
		Commit: report.GitHubCommit("https://github.com", "acme/shop", sha)}
}

// readable checks what every comment must be (reporttest.Readable).
func readable(t *testing.T, body string, reps ...*report.Report) {
	t.Helper()
	reporttest.Readable(t, MaxCommentLen, body, reps...)
}

func TestCommentZeroFindings(t *testing.T) {
	r := reporttest.Clean()
	body := MergeComment("", NewSection(r, atHead(headSHA)), MaxCommentLen)
	golden(t, "zero.md", body)
	readable(t, body, r)
	if got := reporttest.VerdictLine(body); got != "✅ **prod**: no ownership conflicts in 3 objects." {
		t.Errorf("verdict = %q", got)
	}
	if h := reporttest.Parse(t, body).Tables()[0][0]; len(h) != 3 {
		t.Errorf("summary header %q: no category has a finding, so none needs a column", h)
	}
	if !strings.Contains(body, "head commit [`ec26c3e`](https://github.com/acme/shop/commit/"+headSHA+") · checked 2026-11-23 10:58 UTC") {
		t.Error("the footer does not name the head commit and the time")
	}
}

func TestCommentFailingAndPassing(t *testing.T) {
	alpha, zeta := reporttest.Clean(), reporttest.Repeated("zeta", 3)
	alpha.Environment = "alpha"
	body := MergeComment("", NewSection(alpha, atHead(headSHA)), MaxCommentLen)
	body = MergeComment(body, NewSection(zeta, atHead(headSHA)), MaxCommentLen)
	golden(t, "fail-pass.md", body)
	readable(t, body, alpha, zeta)
	if got, want := reporttest.VerdictLine(body), "❌ **zeta**: drift on 3 objects (`.data.mode`, kubectl-edit); no ownership conflicts in alpha."; got != want {
		t.Errorf("verdict = %q, want %q", got, want)
	}
	if strings.Index(body, "env=zeta:begin") > strings.Index(body, "env=alpha:begin") {
		t.Error("the failing environment must come first")
	}
	if !strings.Contains(body, "(https://github.com/acme/shop/blob/"+headSHA+"/deploy/base/flags.yaml#L8)") {
		t.Error("no link to the source line at the head commit")
	}
}

func TestCommentRepeated(t *testing.T) {
	zeta := reporttest.Repeated("zeta", 120)
	body := CommentBody(zeta, atHead(headSHA))
	golden(t, "repeated.md", body)
	readable(t, body, zeta)
	if len(body) >= 20000 {
		t.Errorf("120 identical drifts take %d characters, want under 20,000", len(body))
	}
	if !strings.Contains(body, "<summary>⚠️ 120 objects: drift on <code>.data.mode</code></summary>") {
		t.Error("the repeats are not one entry with their count")
	}
	if n := strings.Count(body, "- **drift**"); n != 1 {
		t.Errorf("%d drift bullets, want the one of the repeated entry", n)
	}
	for _, name := range []string{"ConfigMap shop/flags-000", "ConfigMap shop/flags-119"} {
		if !strings.Contains(body, name) {
			t.Errorf("%s is not named", name)
		}
	}
}

func TestCommentStale(t *testing.T) {
	beta := reporttest.Mixed()
	beta.Environment = "beta"
	alpha := reporttest.Clean()
	alpha.Environment = "alpha"
	body := MergeComment("", NewSection(beta, atHead(oldSHA)), MaxCommentLen)
	body = MergeComment(body, NewSection(alpha, atHead(headSHA)), MaxCommentLen)
	golden(t, "stale.md", body)
	readable(t, body, alpha, beta)
	if got, want := reporttest.VerdictLine(body), "✅ **alpha**: no ownership conflicts in 3 objects; not checked at the head commit: beta."; got != want {
		t.Errorf("verdict = %q, want %q", got, want)
	}
	if row := reporttest.SummaryRows(t, body)["beta"]; row["result"] != "⏳ stale (0123456)" {
		t.Errorf("beta's result = %q", row["result"])
	}
	if strings.Contains(sectionText(body, "beta"), "<details") {
		t.Error("the stale section still shows its findings")
	}
	// beta's job runs for the head commit: fresh again.
	body = MergeComment(body, NewSection(beta, atHead(headSHA)), MaxCommentLen)
	if !strings.HasPrefix(reporttest.VerdictLine(body), "❌ **beta**:") {
		t.Errorf("verdict once beta is checked again = %q", reporttest.VerdictLine(body))
	}
}

// TestCommentFoldKeepsCounts: at GitHub's limit, with another
// environment's section and a repeated finding, every count stays.
func TestCommentFoldKeepsCounts(t *testing.T) {
	prod, staging, zeta := reporttest.Big("prod", 1500, 3), reporttest.Mixed(), reporttest.Repeated("zeta", 3000)
	body := ""
	for _, r := range []*report.Report{prod, staging, zeta} {
		body = MergeComment(body, NewSection(r, atHead(headSHA)), MaxCommentLen)
	}
	readable(t, body, prod, staging, zeta)
	if !strings.Contains(reporttest.VerdictLine(body), "; **zeta**: drift on 3000 objects (`.data.mode`, kubectl-edit).") {
		t.Errorf("verdict = %q", reporttest.VerdictLine(body))
	}
}
