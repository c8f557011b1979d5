package cli

import (
	"context"
	"io"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/spf13/cobra"
)

func newCheckCommand() *cobra.Command {
	var o checkOptions
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Predict and classify ownership transitions; print a report",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := runCheck(cmd.Context(), &o, args, cmd.ErrOrStderr())
			return err
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}

// runCheck renders, predicts and classifies, and returns the report. The
// action entrypoint calls it too. An error means the tool could not do its
// job (exit 2); findings that fail the check show in Report.Failed.
func runCheck(ctx context.Context, o *checkOptions, paths []string, progress io.Writer) (*report.Report, error) {
	return nil, notImplemented("check")
}
