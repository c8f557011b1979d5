package cli

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/report"
)

func TestParseFailOn(t *testing.T) {
	p, err := parseFailOn(DefaultFailOn)
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
	none, err := parseFailOn("none")
	if err != nil || len(none) != 0 {
		t.Fatalf("none = %v, %v", none, err)
	}
	if _, err := parseFailOn("drift,drfit"); err == nil || !strings.Contains(err.Error(), `"drfit"`) {
		t.Fatalf("typo accepted or not named: %v", err)
	}
	if _, err := parseFailOn(" , "); err == nil {
		t.Fatal("empty list accepted")
	}
}

func TestFailPolicyFails(t *testing.T) {
	p, _ := parseFailOn("reset")
	r := &report.Report{Objects: []report.Object{{Findings: []model.Finding{{Category: model.Drift}}}}}
	if p.fails(r) {
		t.Fatal("drift failed a reset-only policy")
	}
	r.Objects = append(r.Objects, report.Object{Findings: []model.Finding{{Category: model.Reset}}})
	if !p.fails(r) {
		t.Fatal("reset did not fail a reset policy")
	}
}
