package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/report"
)

// checkTargetsCommand checks the selected targets in one process and
// prints their reports: text one after the other, markdown as one comment,
// JSON as an array. The exit status is the worst of them.
func checkTargetsCommand(ctx context.Context, o *checkOptions, stdout, stderr io.Writer) error {
	sel, results, err := command.CheckTargets(ctx, o.checkOptions(nil), o.selector())
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
			return err
		}
	}
	switch o.Output {
	case "json":
		if err := report.WriteJSONArray(stdout, reps); err != nil {
			return err
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
		color := command.IsTerminal(stdout) && os.Getenv("NO_COLOR") == ""
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			if err := report.WriteText(stdout, rep, report.TextOptions{Color: color}); err != nil {
				return err
			}
		}
	}
	return command.TargetsOutcome(results)
}

func writeReportsFile(path string, reps []*report.Report) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("--report-file: %w", err)
	}
	if err := report.WriteJSONArray(f, reps); err != nil {
		f.Close()
		return fmt.Errorf("--report-file %s: %w", path, err)
	}
	return f.Close()
}
