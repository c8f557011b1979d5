package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/report"
)

// checkTargetsCommand checks the selected targets in one process and
// prints their reports in the --output format (report.WriteMany). The
// exit status is the worst of them.
func checkTargetsCommand(ctx context.Context, o *checkOptions, stdout, stderr io.Writer) error {
	sel, results, err := command.CheckTargets(ctx, o.checkOptions(nil), o.runOptions(o.ToolVersion), o.selector())
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "ownership-check: "+sel.Line())
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "ownership-check: %s\n", check.Word(r.Err, func(input string) string { return "--" + input }))
		}
	}
	es := command.Entries(results)
	if o.ReportFile != "" {
		if err := writeReportFile(o.ReportFile, func(w io.Writer) error { return report.WriteMany(w, es, "json", report.ManyOptions{}) }); err != nil {
			return err
		}
	}
	color := command.IsTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	if err := report.WriteMany(stdout, es, o.Output, report.ManyOptions{
		Text: report.TextOptions{Color: color}, Lead: sel.Line(), Tool: report.Tool{Name: "ownership-check", Version: o.ToolVersion},
	}); err != nil {
		return err
	}
	return command.TargetsOutcome(results)
}
