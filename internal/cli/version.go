package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

// versionLine is what both `version` and `--version` print, so that the
// two never disagree.
func versionLine(version string) string {
	return fmt.Sprintf("ownership-check %s\n", version)
}

func newVersionCommand(version string) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), versionLine(version))
			return err
		},
	}
}
