package check

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/secrets"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

func TestFailPolicyFails(t *testing.T) {
	p, _ := ParseFailOn("reset")
	in := newInput(Options{Target: Target{Run: &runstate.Run{}}}, "cluster", nil, secrets.Hasher{}, p, nil, nil)
	objs := []report.Object{{Findings: []model.Finding{{Category: model.Drift}}}}
	if in.Report(objs, nil).Failed {
		t.Fatal("drift failed a reset-only policy")
	}
	objs = append(objs, report.Object{Findings: []model.Finding{{Category: model.Reset}}})
	if !in.Report(objs, nil).Failed {
		t.Fatal("reset did not fail a reset policy")
	}
}

// The option's errors name it, for the command line and the action to word.
func TestParseFailOnNamesTheOption(t *testing.T) {
	_, err := ParseFailOn("drfit")
	if ie, ok := err.(*InputError); !ok || ie.Input != "fail-on" {
		t.Fatalf("ParseFailOn error %v (%T), want an InputError for fail-on", err, err)
	}
	_, err = ParseFailOnCause("nobody")
	if ie, ok := err.(*InputError); !ok || ie.Input != "fail-on-cause" {
		t.Fatalf("ParseFailOnCause error %v (%T), want an InputError for fail-on-cause", err, err)
	}
}
