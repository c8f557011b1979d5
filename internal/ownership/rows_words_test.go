package ownership

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// rowNumber is how an internal row of the 16-row table would leak into text.
var rowNumber = regexp.MustCompile(`(?i)\brow \d+`)

// TestRowsInPlainWords renders the findings of every row of the table, the
// real scenarios and every transition's message, as people read them: the
// table's row numbers mean nothing to them, so no text may name one.
func TestRowsInPlainWords(t *testing.T) {
	r := &report.Report{SchemaVersion: report.SchemaVersion, Tool: report.Tool{Name: "ownership-check"},
		Environment: "prod", FieldManager: "deployer", Engine: "cluster"}
	for i, tc := range rowCases {
		in := tc.in(t)
		in.FieldManager = "deployer"
		res := analyze(t, in)
		r.Objects = append(r.Objects, report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop",
			Name: "web-" + string(rune('a'+i)), Baseline: res.Baseline, Findings: res.Findings})
	}
	// Every transition, whatever its category, worded as the analysis
	// words it: the scenarios reach each row, not each message.
	var every []model.Finding
	a := &analysis{baseline: BaselineSnapshot}
	for row := 0; row < 16; row++ {
		tr := model.NewTransition(row&8 != 0, row&4 != 0, row&2 != 0, row&1 != 0)
		c, ok := Classify(tr)
		if !ok {
			continue
		}
		v := pathValues{deployed: 1, deployedOK: true, live: 2, liveOK: true, target: 3, targetOK: true}
		every = append(every, model.Finding{Category: c, Transition: &tr, Path: replicasPath,
			Message: a.message(c, tr, nil, v, nil)})
		if c != model.Anomaly {
			every = append(every, model.Finding{Category: model.Anomaly, Transition: &tr, Path: ".spec.paused",
				Message: anomalyMessage(tr)})
		}
	}
	r.Objects = append(r.Objects, report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop",
		Name: "every", Baseline: BaselineSnapshot, Findings: every})
	r.Summarize()

	var text bytes.Buffer
	if err := report.WriteText(&text, r, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	forms := map[string]string{"text": text.String(), "markdown": report.Markdown(r, report.MarkdownOptions{})}
	for _, o := range r.Objects {
		for _, f := range o.Findings {
			forms["message of "+string(f.Category)+" "+f.Path] = f.Message
		}
	}
	for name, s := range forms {
		if m := rowNumber.FindAllString(s, -1); m != nil {
			t.Errorf("%s names table rows %q:\n%s", name, m, s)
		}
	}
	if !bytes.Contains(text.Bytes(), []byte(model.IssuesURL)) {
		t.Errorf("text does not say where to report an anomaly:\n%s", text.String())
	}
}
