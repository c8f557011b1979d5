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

// TestTargetsOutcomeMadeUncheckable: a target the pull request made
// uncheckable fails the run through its report's not-checked finding,
// even when no other target was selected; with --fail-on leaving
// not-checked out it fails nothing, and a run of nothing else checked
// nothing. Its entry is its report, which says why it is not checked.
func TestTargetsOutcomeMadeUncheckable(t *testing.T) {
	pass := targets.Result{Report: &report.Report{}}
	judged := func(failed bool) targets.Result {
		var r targets.Result
		r.Name, r.Reason = "HelmRelease/web.apps", "chart web: refused"
		r.Report = &report.Report{Failed: failed}
		r.Report.NotCheckedFor(r.Reason)
		return r
	}
	if err := TargetsOutcome([]targets.Result{pass, judged(true)}); !errors.Is(err, ErrFindingsFailed) {
		t.Errorf("made uncheckable, beside a pass: %v, want ErrFindingsFailed", err)
	}
	if err := TargetsOutcome([]targets.Result{judged(true)}); !errors.Is(err, ErrFindingsFailed) {
		t.Errorf("made uncheckable, alone: %v, want ErrFindingsFailed", err)
	}
	if err := TargetsOutcome([]targets.Result{pass, judged(false)}); err != nil {
		t.Errorf("not in fail-on: %v", err)
	}
	if err := TargetsOutcome([]targets.Result{judged(false)}); err == nil || errors.Is(err, ErrFindingsFailed) {
		t.Errorf("not in fail-on, alone: %v, want none checked", err)
	}
	j := judged(true)
	if es := Entries([]targets.Result{j}); es[0].Report != j.Report || es[0].Reason != "" || es[0].Report.NotChecked() != j.Reason {
		t.Errorf("entries %+v", es)
	}
}

// TestTargetsOutcomeJudgingFailed: a target not checked whose judgement
// by the base could not be made is an error of the run, never a pass.
func TestTargetsOutcomeJudgingFailed(t *testing.T) {
	pass := targets.Result{Report: &report.Report{}}
	var broken targets.Result
	broken.Name, broken.Reason, broken.Err = "payments-worker", "destination edge-eu: no kubeconfig context in discover.clusters", errors.New("target payments-worker: kubeconfig: none found")
	if err := TargetsOutcome([]targets.Result{pass, broken}); err == nil || errors.Is(err, ErrFindingsFailed) {
		t.Errorf("a judgement that failed: %v, want an error", err)
	}
}
