package command

import (
	"errors"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// ErrFindingsFailed is the end of a run that did its job and whose
// findings fail the check (exit status 1); the report has been written,
// so it carries no message of its own.
var ErrFindingsFailed = errors.New("findings fail the check")

// TargetsOutcome is the outcome of many targets: the worst of theirs.
func TargetsOutcome(results []targets.Result) error {
	errs, failed := 0, 0
	for _, r := range results {
		switch {
		case r.Err != nil:
			errs++
		case r.Report.Failed:
			failed++
		}
	}
	switch {
	case errs > 0:
		return fmt.Errorf("%d of %d targets could not be checked", errs, len(results))
	case failed > 0:
		return ErrFindingsFailed
	}
	return nil
}

// Entries are the targets' results as the report's writers and the
// publisher take them.
func Entries(results []targets.Result) []report.Entry {
	es := make([]report.Entry, len(results))
	for i, r := range results {
		es[i] = report.Entry{Name: r.Name, Report: r.Report, Err: r.Err}
	}
	return es
}
