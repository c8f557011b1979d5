package publish

import (
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// A run's entries are its sections: a report's, a check that could not
// run (its error made fit to show), a target not checked (its reason).
func TestSections(t *testing.T) {
	clean := reporttest.Clean()
	clean.Environment = "staging"
	es := []report.Entry{
		{Name: "staging", Report: clean},
		{Name: "prod", Err: errors.New("dial tcp 10.0.0.1:6443: refused")},
		{Name: "flux-system/apps", Reason: "a GitRepository of another repository"},
	}
	public := func(err error) error {
		return errors.New(strings.ReplaceAll(err.Error(), "10.0.0.1:6443", "the API server"))
	}
	secs := Sections(es, report.MarkdownOptions{}, report.Tool{Name: "ownership-check"}, public, func(name string) string { return "ownership-check check --target " + name })
	if len(secs) != 3 {
		t.Fatalf("%d sections", len(secs))
	}
	body := RenderComment(secs, 0)
	for _, want := range []string{"the API server", "a GitRepository of another repository", "ownership-check check --target prod", "### ✅ staging"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "10.0.0.1") {
		t.Error("the API server's address is in the comment")
	}
	if !secs[1].Status.Error || secs[2].Status.NotChecked == "" {
		t.Errorf("statuses %+v %+v", secs[1].Status, secs[2].Status)
	}
}
