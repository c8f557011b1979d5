package cli

import (
	"github.com/spf13/cobra"
)

func newActionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "action",
		Short: "GitHub Action entrypoint (reads INPUT_* and the GitHub context)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return notImplemented("action")
		},
	}
}
