package command

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// ErrFindingsFailed is the end of a run that did its job and whose
// findings fail the check (exit status 1); the report has been written,
// so it carries no message of its own.
var ErrFindingsFailed = errors.New("findings fail the check")

// TargetsOutcome is the outcome of many targets: the worst of theirs. A
// target that is not checked (a GitOps source in another repository, a
// render this tool cannot reproduce) is listed with its reason and fails
// nothing by itself, so that one Application of another repository does
// not fail every pull request, unless the pull request made it so: its
// not-checked finding fails as any finding does (check.NotCheckedAtHead).
// A run where every selected target is not checked, and none fails,
// checked nothing, and that is an error (exit 2), never a pass.
func TargetsOutcome(results []targets.Result) error {
	errs, failed, notChecked := 0, 0, 0
	for _, r := range results {
		if !r.Checked() {
			notChecked++
		}
		switch {
		case r.Err != nil:
			// Judging one not checked by its base can fail too.
			errs++
		case r.Report != nil && r.Report.Failed:
			failed++
		}
	}
	switch {
	case errs > 0:
		return fmt.Errorf("%d of %d targets could not be checked", errs, len(results))
	case failed > 0:
		return ErrFindingsFailed
	case notChecked > 0 && notChecked == len(results):
		return fmt.Errorf("none of the %d selected %s could be checked: %s", notChecked, model.Plural(notChecked, "target", "targets"), notCheckedReasons(results))
	}
	return nil
}

// notCheckedReasons names the first targets not checked and why.
func notCheckedReasons(results []targets.Result) string {
	const shown = 3
	var parts []string
	for _, r := range results {
		if len(parts) == shown {
			parts = append(parts, fmt.Sprintf("%d more", len(results)-shown))
			break
		}
		parts = append(parts, r.Name+" ("+r.Reason+")")
	}
	return strings.Join(parts, "; ")
}

// Entries are the targets' results as the report's writers and the
// publisher take them.
func Entries(results []targets.Result) []report.Entry {
	es := make([]report.Entry, len(results))
	for i, r := range results {
		es[i] = report.Entry{Name: r.Name, Report: r.Report, Err: r.Err, Reason: r.Reason, Cluster: r.Cluster(), Unit: r.Unit(), NotTargets: r.ReportNotTargets()}
		if r.Report != nil {
			// Its report says why it is not checked, if it is not.
			es[i].Reason = ""
		}
	}
	return es
}
