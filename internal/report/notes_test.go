package report_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// Object notes are not findings: they fail nothing, the JSON keeps them on
// their object, and the markdown and text say each once, naming the
// objects (a few, then how many more).
func TestObjectNotes(t *testing.T) {
	const note = "scope guessed: nothing here knows whether Profile.kubeflow.org is namespaced"
	r := reporttest.Clean()
	r.Objects = nil
	for i := 0; i < 5; i++ {
		r.Objects = append(r.Objects, report.Object{APIVersion: "kubeflow.org/v1", Kind: "Profile", Namespace: "default",
			Name: fmt.Sprintf("team-%d", i), Baseline: "live", Notes: []string{note}})
	}
	r.Summarize()
	if r.Status().Failed || r.Summary.Levels().Notes != 0 {
		t.Errorf("object notes counted as findings: %+v", r.Summary)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), `"notes":["scope guessed`) != 5 {
		t.Errorf("JSON does not keep the note on each object:\n%s", b)
	}
	named := "Profile default/team-2 and 2 more: "
	md := report.Markdown(r, report.MarkdownOptions{})
	if strings.Count(md, "scope guessed") != 1 || !strings.Contains(md, named) || !strings.Contains(md, "Profile default/team-0") {
		t.Errorf("markdown:\n%s", md)
	}
	var text strings.Builder
	if err := report.WriteText(&text, r, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(text.String(), "scope guessed") != 1 || !strings.Contains(text.String(), named+note) {
		t.Errorf("text:\n%s", text.String())
	}
}
