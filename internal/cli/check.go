package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/report"
)

func newCheckCommand(version string) *cobra.Command {
	o := checkOptions{ToolVersion: version}
	cmd := &cobra.Command{
		Use:   "check PATH...",
		Short: "Predict and classify ownership transitions; print a report",
		Long: `check renders PATHs, asks the cluster for a Server-Side Apply dry-run with
force under --field-manager, compares the answer with the environment's
last-deploy snapshot, and reports drift, conflicts, releases, split ownership
and dry-run failures.

Exit status: 0 nothing at or above --fail-on; 1 findings fail the check;
2 the tool could not do its job.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return checkCommand(cmd.Context(), &o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}

// checkCommand runs the check and prints its report in the chosen format.
func checkCommand(ctx context.Context, o *checkOptions, paths []string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.Output); err != nil {
		return &ExitCodeError{Code: ExitError, Err: err}
	}
	if o.usesTargets() {
		if err := o.targetsWithoutPaths(paths); err != nil {
			return err
		}
		return checkTargetsCommand(ctx, o, stdout, stderr)
	}
	rep, err := runCheck(ctx, o, paths, stderr)
	if err != nil {
		return err
	}
	if o.ReportFile != "" {
		if err := writeReportFile(o.ReportFile, func(w io.Writer) error { return report.WriteJSON(w, rep) }); err != nil {
			return &ExitCodeError{Code: ExitError, Err: err}
		}
	}
	color := command.IsTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	if err := report.Write(stdout, rep, o.Output, report.TextOptions{Color: color}); err != nil {
		return &ExitCodeError{Code: ExitError, Err: err}
	}
	if rep.Failed {
		return errFindingsFailed
	}
	return nil
}

// runCheck is command.Check with the flags. An error means the tool could
// not do its job (exit 2); findings that fail the check show in
// Report.Failed.
func runCheck(ctx context.Context, o *checkOptions, paths []string, progress io.Writer) (*report.Report, error) {
	opts := o.checkOptions(paths)
	// Progress lines are for a person watching a terminal.
	if command.IsTerminal(progress) {
		opts.Progress = progress
	}
	return command.Check(ctx, opts, o.runOptions(o.ToolVersion))
}

func (o *checkOptions) checkOptions(paths []string) check.Options {
	return check.Options{Target: o.target(), Paths: paths, Offline: o.Offline, FailOn: o.FailOn,
		Base: o.Base, FailOnCause: o.FailOnCause, Record: o.Record, SourceCommit: sourceCommit(o.SourceCommit)}
}

// writeReportFile writes the JSON report (or reports) to --report-file.
func writeReportFile(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("--report-file: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("--report-file %s: %w", path, err)
	}
	return f.Close()
}
