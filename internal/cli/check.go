package cli

import (
	"github.com/spf13/cobra"
)

func newCheckCommand() *cobra.Command {
	var o checkOptions
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Predict and classify ownership transitions; print a report",
		RunE: func(cmd *cobra.Command, args []string) error {
			return notImplemented("check")
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}
