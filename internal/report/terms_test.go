package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// gitLab are the words GitLab's front end sets.
var gitLab = report.Terms{Change: "merge request", Run: "job"}

// TestTermsWordTheProse: with a platform's words, the markdown and the
// text say them wherever the default says "pull request", and nothing
// else moves: values, tables and the JSON are the same.
func TestTermsWordTheProse(t *testing.T) {
	unchanged := reporttest.Clean()
	unchanged.Unchanged = true
	// Its own changes lead the comment ("This pull request: ...").
	own := reporttest.Changes()
	own.Base = &report.BaseInfo{Commit: "1111111111111111111111111111111111111111"}
	for i := range own.Objects {
		own.Objects[i].ChangeCause = model.CausePullRequest
	}
	own.Summarize()
	said := false
	for name, r := range map[string]*report.Report{"clean": reporttest.Clean(), "mixed": reporttest.Mixed(), "offline": reporttest.Offline(),
		"changes": reporttest.Changes(), "causes": reporttest.Causes(), "persistent": reporttest.Persistent(), "unchanged": unchanged, "own": own} {
		gh := report.Markdown(r, report.MarkdownOptions{RunURL: "https://ci.example/runs/1"})
		gl := report.Markdown(r, report.MarkdownOptions{RunURL: "https://ci.example/runs/1", Terms: gitLab})
		said = said || strings.Contains(gh, "pull request")
		checkWorded(t, name+" markdown", gh, gl)

		var ght, glt bytes.Buffer
		if err := report.WriteText(&ght, r, report.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteText(&glt, r, report.TextOptions{Terms: gitLab}); err != nil {
			t.Fatal(err)
		}
		checkWorded(t, name+" text", ght.String(), glt.String())

		outs := []report.Outcome{report.OutcomeOf(r, report.Terms{}), report.OutcomeOf(reporttest.Clean(), report.Terms{})}
		glOuts := []report.Outcome{report.OutcomeOf(r, gitLab), report.OutcomeOf(reporttest.Clean(), gitLab)}
		checkWorded(t, name+" overview", report.Overview(outs, "", report.Terms{}), report.Overview(glOuts, "", gitLab))
		checkWorded(t, name+" verdict", report.VerdictText(outs[:1], "", report.Terms{}), report.VerdictText(glOuts[:1], "", gitLab))
	}
	if !said {
		t.Fatal("no fixture says \"pull request\": the test shows nothing")
	}
}

// checkWorded: gl is gh in GitLab's words.
func checkWorded(t *testing.T, what, gh, gl string) {
	t.Helper()
	if strings.Contains(gl, "pull request") || strings.Contains(gl, "Pull request") {
		t.Errorf("%s in GitLab's words still says pull request:\n%s", what, gl)
	}
	want := strings.NewReplacer("This pull request", "This merge request", "pull request", "merge request", "[workflow run](", "[job](").Replace(gh)
	if gl != want {
		t.Errorf("%s: GitLab's words changed more than the words:\n got: %s\nwant: %s", what, gl, want)
	}
}
