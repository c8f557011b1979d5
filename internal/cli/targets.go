package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ownership-check/ownership-check/internal/check"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// checkTargetsCommand checks the selected targets in one process and
// prints their reports: text one after the other, markdown as one comment,
// JSON as an array. The exit status is the worst of them.
func checkTargetsCommand(ctx context.Context, o *checkOptions, stdout, stderr io.Writer) error {
	sel, results, err := runCheckTargets(ctx, o)
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "ownership-check: "+sel.Line())
	var reps []*report.Report
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "ownership-check: %s\n", check.Word(r.Err, func(input string) string { return "--" + input }))
			continue
		}
		reps = append(reps, r.Report)
	}
	if o.ReportFile != "" {
		if err := writeReportsFile(o.ReportFile, reps); err != nil {
			return &ExitCodeError{Code: ExitError, Err: err}
		}
	}
	switch o.Output {
	case "json":
		if err := writeReports(stdout, reps); err != nil {
			return &ExitCodeError{Code: ExitError, Err: err}
		}
	case "markdown":
		var secs []*ghaction.Section
		for _, r := range results {
			if r.Err != nil {
				secs = append(secs, ghaction.ErrorSection(r.Name, r.Err, report.Tool{Name: "ownership-check", Version: o.ToolVersion}, report.MarkdownOptions{}))
			} else {
				secs = append(secs, ghaction.NewSection(r.Report, report.MarkdownOptions{}))
			}
		}
		fmt.Fprint(stdout, ghaction.RenderTargets(secs, sel.Line(), 0))
	default:
		color := isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			if err := report.WriteText(stdout, rep, report.TextOptions{Color: color}); err != nil {
				return &ExitCodeError{Code: ExitError, Err: err}
			}
		}
	}
	return targetsExit(results)
}

// targetsExit is the exit status of many targets: the worst of theirs.
func targetsExit(results []targets.Result) error {
	failed := 0
	for _, r := range results {
		if r.Err == nil && r.Report.Failed {
			failed++
		}
	}
	switch n := countErrs(results); {
	case n > 0:
		return &ExitCodeError{Code: ExitError, Err: fmt.Errorf("%d of %d targets could not be checked", n, len(results))}
	case failed > 0:
		return errFindingsFailed
	}
	return nil
}

// runCheckTargets selects and checks the targets; the action calls it too.
func runCheckTargets(ctx context.Context, o *checkOptions) (targets.Selection, []targets.Result, error) {
	sel, err := o.selectTargets(ctx)
	if err != nil {
		return sel, nil, &ExitCodeError{Code: ExitError, Err: err}
	}
	return sel, targets.Build(ctx, o.checkOptions(nil), sel.Targets), nil
}

func countErrs(rs []targets.Result) int {
	n := 0
	for _, r := range rs {
		if r.Err != nil {
			n++
		}
	}
	return n
}

// writeReports writes the reports as one JSON array.
func writeReports(w io.Writer, reps []*report.Report) error {
	return report.WriteJSONArray(w, reps)
}

func writeReportsFile(path string, reps []*report.Report) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("--report-file: %w", err)
	}
	if err := writeReports(f, reps); err != nil {
		f.Close()
		return fmt.Errorf("--report-file %s: %w", path, err)
	}
	return f.Close()
}
