package cli

import (
	"github.com/spf13/cobra"
)

func newSnapshotCommand() *cobra.Command {
	var o commonOptions
	var sourceCommit string
	cmd := &cobra.Command{
		Use:   "snapshot [PATH...]",
		Short: "Record the post-deploy state in the snapshot branch",
		RunE: func(cmd *cobra.Command, args []string) error {
			return notImplemented("snapshot")
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&sourceCommit, "source-commit", "", "commit the deploy was made from (default: HEAD of the working directory's repository)")
	return cmd
}
