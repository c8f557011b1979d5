package command

import (
	"errors"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestTargetsOutcome: many targets end as the worst of them: one that could
// not be checked (exit 2) over findings that fail (1) over a pass.
func TestTargetsOutcome(t *testing.T) {
	pass := targets.Result{Report: &report.Report{}}
	fail := targets.Result{Report: &report.Report{Failed: true}}
	broken := targets.Result{Err: errors.New("no cluster")}
	if err := TargetsOutcome([]targets.Result{pass, pass}); err != nil {
		t.Errorf("all pass: %v", err)
	}
	if err := TargetsOutcome([]targets.Result{pass, fail}); !errors.Is(err, ErrFindingsFailed) {
		t.Errorf("one fails: %v, want ErrFindingsFailed", err)
	}
	err := TargetsOutcome([]targets.Result{fail, broken, pass})
	if err == nil || errors.Is(err, ErrFindingsFailed) || err.Error() != "1 of 3 targets could not be checked" {
		t.Errorf("one could not be checked: %v", err)
	}
	if es := Entries([]targets.Result{fail, broken}); len(es) != 2 || es[0].Report != fail.Report || es[1].Err != broken.Err {
		t.Errorf("entries %+v", es)
	}
}

// TestTargetsOutcomeNotChecked: a target that is not checked fails
// nothing by itself and is listed with its reason; a run of nothing but
// such targets checked nothing, an error.
func TestTargetsOutcomeNotChecked(t *testing.T) {
	pass := targets.Result{Report: &report.Report{}}
	fail := targets.Result{Report: &report.Report{Failed: true}}
	var skipped targets.Result
	skipped.Name, skipped.Reason = "argocd-other", "its source is another repository"
	if err := TargetsOutcome([]targets.Result{pass, skipped}); err != nil {
		t.Errorf("pass and not checked: %v", err)
	}
	if err := TargetsOutcome([]targets.Result{fail, skipped}); !errors.Is(err, ErrFindingsFailed) {
		t.Errorf("fail and not checked: %v", err)
	}
	err := TargetsOutcome([]targets.Result{skipped})
	if err == nil || errors.Is(err, ErrFindingsFailed) || err.Error() != "none of the 1 selected target could be checked: argocd-other (its source is another repository)" {
		t.Errorf("only not checked: %v", err)
	}
	if es := Entries([]targets.Result{skipped}); es[0].Reason != skipped.Reason || es[0].Report != nil {
		t.Errorf("entries %+v", es)
	}
}
