package cli

import (
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/spf13/cobra"
)

// snapshotOptions are the flags of `snapshot`.
type snapshotOptions struct {
	commonOptions
	SourceCommit string
	// ToolVersion is recorded in the index; not a flag.
	ToolVersion string
}

func newSnapshotCommand(version string) *cobra.Command {
	o := snapshotOptions{ToolVersion: version}
	cmd := &cobra.Command{
		Use:   "snapshot [PATH...]",
		Short: "Record the post-deploy state in the snapshot branch",
		Long: `snapshot runs right after a deploy: it renders PATH like check does, reads
every rendered object back from the cluster and commits the environment's
snapshot to the snapshot branch (pushing it when the repository has a remote).
A rendered object missing from the cluster fails the run and commits nothing.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.usesTargets() {
				if err := o.targetsWithoutPaths(args); err != nil {
					return err
				}
				_, err := command.SnapshotTargets(cmd.Context(), o.snapshotOptions(nil), o.runOptions(o.ToolVersion), o.selector(), cmd.OutOrStdout(), cmd.ErrOrStderr())
				return err
			}
			_, err := command.Snapshot(cmd.Context(), o.snapshotOptions(args), o.runOptions(o.ToolVersion), cmd.OutOrStdout(), cmd.ErrOrStderr())
			return err
		},
	}
	o.addFlags(cmd.Flags())
	o.addTargetFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.SourceCommit, "source-commit", "", "commit the deploy was made from (default: $GITHUB_SHA, else HEAD of the working directory's repository)")
	return cmd
}

func (o *snapshotOptions) snapshotOptions(paths []string) check.SnapshotOptions {
	return check.SnapshotOptions{Target: o.target(), Paths: paths, SourceCommit: sourceCommit(o.SourceCommit), DeployedBy: deployedBy()}
}
