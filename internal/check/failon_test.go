package check

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/secrets"

	"github.com/ownership-check/ownership-check/internal/report"
)

func TestParseFailOn(t *testing.T) {
	p, err := ParseFailOn(DefaultFailOn)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []model.Category{model.Drift, model.TakingConflict, model.UpdateConflict, model.SplitOwnership, model.DryRunError} {
		if !p[c] {
			t.Errorf("default policy does not fail on %s", c)
		}
	}
	if p[model.Reset] || p[model.Taking] {
		t.Errorf("default policy fails on notes: %v", p)
	}
	none, err := ParseFailOn("none")
	if err != nil || len(none) != 0 {
		t.Fatalf("none = %v, %v", none, err)
	}
	if _, err := ParseFailOn("drift,drfit"); err == nil || !strings.Contains(err.Error(), `"drfit"`) {
		t.Fatalf("typo accepted or not named: %v", err)
	}
	if _, err := ParseFailOn(" , "); err == nil {
		t.Fatal("empty list accepted")
	}
}

// Every category of the spec can fail the check: an object deleted out of
// band is a drift, and a team may want new or removed objects reviewed too.
func TestParseFailOnEveryCategory(t *testing.T) {
	for _, c := range model.Categories {
		p, err := ParseFailOn(string(c))
		if err != nil {
			t.Errorf("--fail-on %s: %v", c, err)
			continue
		}
		if len(p) != 1 || !p[c] {
			t.Errorf("--fail-on %s = %v", c, p)
		}
	}
	p, err := ParseFailOn("new,removed,error")
	if err != nil || !p[model.New] || !p[model.Removed] || !p[model.DryRunError] {
		t.Fatalf("new,removed,error = %v, %v", p, err)
	}
}

func TestFailPolicyFails(t *testing.T) {
	p, _ := ParseFailOn("reset")
	in := newAnalysis(Options{}, "cluster", nil, secrets.Hasher{}, p, nil, nil)
	r := &report.Report{Objects: []report.Object{{Findings: []model.Finding{{Category: model.Drift}}}}}
	if in.fails(r) {
		t.Fatal("drift failed a reset-only policy")
	}
	r.Objects = append(r.Objects, report.Object{Findings: []model.Finding{{Category: model.Reset}}})
	if !in.fails(r) {
		t.Fatal("reset did not fail a reset policy")
	}
}
